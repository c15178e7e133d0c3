// Sharded weights (*.weights.json + <base>_NNNNN.weights.h5), in Keras's ShardedH5IOStore
// format: round trip across several shards, the index's structure, and bad indexes.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "assertions.h"
#include "keras/keras.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/sharded_weights.h"

namespace keras {
namespace {

namespace fs = std::filesystem;
using OrderedJson = nlohmann::ordered_json;

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "keras_cpp_sharded" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

ModelPtr<Model> mlp() {
  return Sequential({Input({6}), layers::Dense(8, {.activation = "relu"}),
                     layers::BatchNormalization(), layers::Dense(3, {.activation = "softmax"})});
}

Config read_json(const fs::path& path) {
  std::ifstream in(path);
  return Config::parse(in);
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// 200 bytes per shard: every variable of mlp() fits (the largest, the first Dense kernel, is
// 6x8 float32 = 192 bytes), and the model needs three shards.
constexpr double kTinyShard = 200.0 / (1024.0 * 1024.0 * 1024.0);

TEST(ShardedWeights, RoundTripAcrossSeveralShards) {
  backend::clear_session();
  auto model = mlp();
  model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy"});
  Tensor x = random::uniform({16, 6}, 0.0, 1.0, DType::Float32, 1);
  Tensor y = ops::cast(
      ops::floor(ops::multiply(random::uniform({16}, 0.0, 1.0, DType::Float32, 2), 2.999)),
      DType::Int64);
  model->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0});
  fs::path dir = fresh_dir("round_trip");
  std::string index = (dir / "x.weights.json").string();
  saving::save_weights(*model, index, {.max_shard_size = kTinyShard});

  std::vector<std::string> shards;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename() != "x.weights.json") shards.push_back(e.path().filename().string());
  std::sort(shards.begin(), shards.end());
  ASSERT_GE(shards.size(), 3u);
  for (size_t i = 0; i < shards.size(); ++i) {
    char expected[32];
    std::snprintf(expected, sizeof expected, "x_%05zu.weights.h5", i);
    EXPECT_EQ(shards[i], expected);
  }

  backend::clear_session();
  auto other = mlp();
  other->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy"});
  other->load_weights(index);  // Model::load_weights restores the optimizer too
  auto a = model->get_weights(), b = other->get_weights();
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_EQ(b[i], a[i]);
  auto va = model->optimizer()->variables(), vb = other->optimizer()->variables();
  ASSERT_EQ(vb.size(), va.size());
  for (size_t i = 0; i < va.size(); ++i) EXPECT_TENSOR_EQ(vb[i].value(), va[i].value());
  EXPECT_TENSOR_EQ(other->predict(x, {.verbose = 0}).single(),
                   model->predict(x, {.verbose = 0}).single());
}

TEST(ShardedWeights, IndexHasKerasStructure) {
  backend::clear_session();
  auto model = Sequential({Input({6}), layers::Dense(8), layers::BatchNormalization(),
                           layers::Dense(3, {.use_bias = false})});
  fs::path dir = fresh_dir("structure");
  // A ".weights.h5" name is renamed to ".weights.json", as Keras does.
  saving::save_weights(*model, (dir / "m.weights.h5").string(), {.max_shard_size = kTinyShard});
  ASSERT_TRUE(fs::exists(dir / "m.weights.json"));
  EXPECT_FALSE(fs::exists(dir / "m.weights.h5"));
  std::ifstream index_in(dir / "m.weights.json");
  OrderedJson index = OrderedJson::parse(index_in);

  ASSERT_TRUE(index.is_object());
  std::set<std::string> keys;
  for (const auto& [k, v] : index.items()) keys.insert(k);
  EXPECT_EQ(keys, (std::set<std::string>{"metadata", "weight_map"}));
  ASSERT_TRUE(index["metadata"].is_object());
  EXPECT_EQ(index["metadata"].size(), 1u);
  // Keras's total_size: the bytes of every variable, a float (count * bits / 8).
  double total = 0;
  for (const Tensor& w : model->get_weights()) total += static_cast<double>(w.size()) * 4;
  ASSERT_TRUE(index["metadata"]["total_size"].is_number_float());
  EXPECT_EQ(index["metadata"]["total_size"].get<double>(), total);
  EXPECT_EQ(total, 448.0);

  // Groups with variables only, keyed by their HDF5 path, in the order they were written.
  // As in Keras's ShardedH5IOStore.__setitem__, a group's second variable turns its value into
  // a list (even when it stays in the same shard), and each shard appears once in it. The
  // first Dense kernel (192 bytes) fills shard 0, so its bias opens shard 1; the last kernel
  // (96 bytes) does not fit after BatchNormalization's 128 bytes and opens shard 2.
  OrderedJson expected_map = OrderedJson::parse(R"({
      "/layers/dense/vars": ["m_00000.weights.h5", "m_00001.weights.h5"],
      "/layers/batch_normalization/vars": ["m_00001.weights.h5"],
      "/layers/dense_1/vars": "m_00002.weights.h5"})");
  EXPECT_EQ(index["weight_map"].dump(), expected_map.dump());
  for (const auto& [k, v] : index["weight_map"].items()) {
    std::vector<std::string> files;
    if (v.is_array()) {
      for (const auto& f : v) files.push_back(f.get<std::string>());
    } else {
      files.push_back(v.get<std::string>());
    }
    for (const std::string& f : files) {
      ASSERT_TRUE(fs::exists(dir / f)) << f;
      // Each shard holds the group with its name attribute, as a .weights.h5 file does.
      auto shard = saving::H5File::open((dir / f).string());
      EXPECT_TRUE(shard.is_group(k.substr(1))) << f << " " << k;
      EXPECT_TRUE(shard.string_attribute(k.substr(1), "name").has_value());
    }
  }
  EXPECT_EQ(
      saving::H5File::open((dir / "m_00001.weights.h5").string()).children("layers/dense/vars"),
      std::vector<std::string>{"1"});
  // The text is json.dumps(indent=4).
  std::ifstream in(dir / "m.weights.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("{\n    \"metadata\": {\n        \"total_size\": ", 0), 0u) << text;
}

// The shards together hold exactly the datasets of the unsharded .weights.h5 file, at the same
// paths, with the same values.
TEST(ShardedWeights, ShardsHoldWhatTheSingleFileHolds) {
  backend::clear_session();
  auto model = mlp();
  model->compile({.optimizer = "adam", .loss = "mse"});
  model->fit(random::uniform({4, 6}, 0.0, 1.0, DType::Float32, 3),
             random::uniform({4, 3}, 0.0, 1.0, DType::Float32, 4),
             {.batch_size = 4, .epochs = 1, .verbose = 0});
  fs::path dir = fresh_dir("same_content");
  saving::save_weights(*model, (dir / "one.weights.h5").string());
  saving::save_weights(*model, (dir / "m.weights.json").string(), {.max_shard_size = kTinyShard});
  auto single = saving::H5File::open((dir / "one.weights.h5").string());
  Config index = read_json(dir / "m.weights.json");
  size_t datasets = 0;
  for (const auto& [key, value] : index["weight_map"].items()) {
    std::string group = key.substr(1);
    std::set<std::string> names;
    Config files = value.is_array() ? value : Config::array({value});
    for (const Config& f : files) {
      auto shard = saving::H5File::open((dir / f.get<std::string>()).string());
      for (const std::string& child : shard.children(group)) {
        names.insert(child);
        EXPECT_TENSOR_EQ(shard.read(group + "/" + child), single.read(group + "/" + child));
        ++datasets;
      }
      EXPECT_EQ(shard.string_attribute(group, "name"), single.string_attribute(group, "name"));
    }
    auto expected = single.children(group);
    EXPECT_EQ(names, std::set<std::string>(expected.begin(), expected.end())) << key;
  }
  // Every variable, the optimizer's included ("/optimizer/vars").
  EXPECT_TRUE(index["weight_map"].contains("/optimizer/vars"));
  EXPECT_EQ(datasets, model->weights().size() + model->optimizer()->variables().size());
}

TEST(ShardedWeights, VariableLargerThanAShardIsRefused) {
  backend::clear_session();
  auto model = mlp();
  fs::path dir = fresh_dir("too_big");
  EXPECT_THROW(saving::save_weights(*model, (dir / "m.weights.json").string(),
                                    {.max_shard_size = 100.0 / (1024.0 * 1024.0 * 1024.0)}),
               ValueError);
  EXPECT_THROW(saving::save_weights(*model, (dir / "m.json").string(), {.max_shard_size = 1}),
               ValueError);
}

TEST(ShardedWeights, MismatchedModelsFailOrSkip) {
  backend::clear_session();
  auto model = mlp();
  fs::path dir = fresh_dir("mismatch");
  std::string index = (dir / "m.weights.json").string();
  saving::save_weights(*model, index, {.max_shard_size = kTinyShard});
  auto other = Sequential({Input({6}), layers::Dense(8, {.activation = "relu"}),
                           layers::BatchNormalization(), layers::Dense(4)});
  auto before = other->get_weights();
  try {
    saving::load_weights(*other, index);
    ADD_FAILURE() << "no error for a Dense of 4 units reading 3";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("dense_1"), std::string::npos) << e.what();
  }
  // skip_mismatch loads what fits and leaves the rest.
  saving::load_weights(*other, index, {.skip_mismatch = true});
  auto a = model->get_weights(), b = other->get_weights();
  for (size_t i = 0; i < 6; ++i) EXPECT_TENSOR_EQ(b[i], a[i]);
  EXPECT_TENSOR_EQ(b[6], before[6]);
}

// Keras 3.10 wrote each group's first shard only (a string, never a list), even when the
// group's datasets continue in the next shard.
TEST(ShardedWeights, ReadsKeras310IndexesThatNameOnlyTheFirstShard) {
  backend::clear_session();
  auto model = mlp();
  fs::path dir = fresh_dir("keras310");
  std::string index = (dir / "m.weights.json").string();
  saving::save_weights(*model, index, {.max_shard_size = kTinyShard});
  Config config = read_json(index);
  for (auto& [key, value] : config["weight_map"].items())
    if (value.is_array()) value = value[0];
  EXPECT_EQ(config["weight_map"]["/layers/dense/vars"], "m_00000.weights.h5");
  write_text(index, config.dump(4));
  backend::clear_session();
  auto other = mlp();
  saving::load_weights(*other, index);
  auto a = model->get_weights(), b = other->get_weights();
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_EQ(b[i], a[i]);
}

TEST(ShardedWeights, BadIndexesGiveIOErrors) {
  backend::clear_session();
  auto model = mlp();
  fs::path dir = fresh_dir("bad");
  std::string index = (dir / "m.weights.json").string();
  saving::save_weights(*model, index, {.max_shard_size = kTinyShard});
  Config good = read_json(index);

  auto expect_io_error = [&](const Config& bad, const std::string& needle) {
    write_text(index, bad.dump());
    try {
      saving::load_weights(*model, index);
      ADD_FAILURE() << "no error for " << bad.dump();
    } catch (const IOError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  // A shard that does not exist.
  Config missing = good;
  missing["weight_map"]["/layers/dense/vars"] = "m_00042.weights.h5";
  expect_io_error(missing, "m_00042.weights.h5");
  // Path traversal in a shard name, plain or inside a list.
  Config traversal = good;
  traversal["weight_map"]["/layers/dense/vars"] = "../x.h5";
  expect_io_error(traversal, "../x.h5");
  Config in_list = good;
  in_list["weight_map"]["/layers/dense_1/vars"] = {"m_00000.weights.h5", "/etc/passwd"};
  expect_io_error(in_list, "/etc/passwd");
  // Not a name at all, no weight_map, not JSON.
  Config number = good;
  number["weight_map"]["/layers/dense/vars"] = 7;
  expect_io_error(number, "/layers/dense/vars");
  expect_io_error(Config{{"metadata", {{"total_size", 0}}}}, "weight_map");
  write_text(index, "{\"weight_map\": {");
  EXPECT_THROW(saving::load_weights(*model, index), IOError);
  write_text(index, std::string(100, '{'));
  EXPECT_THROW(saving::load_weights(*model, index), IOError);
}

}  // namespace
}  // namespace keras
