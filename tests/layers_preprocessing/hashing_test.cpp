// Hashing and HashedCrossing against Keras 3.15 and TensorFlow (tools/keras_oracle/hashing.py):
// TF's hash buckets of a few hundred strings (every FarmHash length class, salts, several
// num_bins), every Hashing and HashedCrossing case's output and config, and Keras's .keras
// files of models holding them. Bucket ids are compared exactly, float outputs bit for bit.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "keras/keras.h"
#include "keras/layers/preprocessing/hashed_crossing.h"
#include "keras/layers/preprocessing/hashing.h"
#include "layers/preprocessing/string_hash.h"
#include "oracle_fixture.h"

namespace keras {
namespace {

using json = nlohmann::json;
namespace L = keras::layers;
namespace D = keras::layers::detail;

const json& doc() {
  return test::oracle_json("hashing");
}
const Tensor& fixture(const std::string& key) {
  return test::oracle_array("hashing", key);
}

std::string from_hex(const std::string& hex) {
  std::string s;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    s.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return s;
}

double worst_diff = 0;

// Same shape and dtype, and every value equal (compared as double: exact for the integers
// these layers give, |v| < 2^53, and for their float outputs).
void expect_same(const Tensor& actual, const Tensor& expected, const std::string& what) {
  ASSERT_EQ(actual.shape(), expected.shape()) << what;
  EXPECT_EQ(actual.dtype(), expected.dtype()) << what;
  if (expected.dtype() == DType::Int64) {
    EXPECT_EQ(actual.to_vector<int64_t>(), expected.to_vector<int64_t>()) << what;
    return;
  }
  auto a = actual.to_vector<double>(), e = expected.to_vector<double>();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - e[i]));
  worst_diff = std::max(worst_diff, worst);
  EXPECT_EQ(worst, 0.0) << what;
}

StringTensor strings_of(const json& input) {
  std::vector<int64_t> dims = input["shape"];
  return StringTensor(input["strings"].get<std::vector<std::string>>(), Shape(dims));
}

// ---- the hash functions -----------------------------------------------------------------

TEST(StringHash, BucketsAreTensorFlows) {
  const json& d = doc();
  const std::vector<int64_t> bins = d["num_bins"];
  const std::vector<std::vector<int64_t>> keys = d["keys"];
  size_t lengths[5] = {0, 0, 0, 0, 0};  // 0, 1..16, 17..32, 33..64, longer
  for (const json& e : d["strings"]) {
    const std::string s = from_hex(e["hex"]);
    SCOPED_TRACE("string of " + std::to_string(s.size()) +
                 " bytes: " + e["hex"].get<std::string>());
    ++lengths[s.empty() ? 0 : s.size() <= 16 ? 1 : s.size() <= 32 ? 2 : s.size() <= 64 ? 3 : 4];
    EXPECT_EQ(std::to_string(D::fingerprint64(s)), e["fingerprint"].get<std::string>());
    for (size_t b = 0; b < bins.size(); ++b) {
      EXPECT_EQ(D::hash_bucket_fast(s, bins[b]), e["fast"][b].get<int64_t>()) << bins[b];
      for (size_t k = 0; k < keys.size(); ++k) {
        const std::array<uint64_t, 2> key{static_cast<uint64_t>(keys[k][0]),
                                          static_cast<uint64_t>(keys[k][1])};
        EXPECT_EQ(D::hash_bucket_strong(s, bins[b], key), e["strong"][k][b].get<int64_t>())
            << "key " << keys[k][0] << ", " << keys[k][1] << "; num_bins " << bins[b];
      }
    }
  }
  EXPECT_EQ(lengths[0], 1u);  // the empty string
  for (size_t i = 1; i < 5; ++i) EXPECT_GE(lengths[i], 20u) << "length class " << i;
  EXPECT_THROW(D::hash_bucket_fast("a", 0), ValueError);
  EXPECT_THROW(D::hash_bucket_strong("a", -1, {1, 2}), ValueError);
}

TEST(StringHash, IntegerTextAndFloatCastAreTensorFlows) {
  EXPECT_EQ(D::int_as_string(0), "0");
  EXPECT_EQ(D::int_as_string(-42), "-42");
  EXPECT_EQ(D::int_as_string(INT64_MIN), "-9223372036854775808");
  EXPECT_EQ(D::float_to_int64(-2.7), -2);
  EXPECT_EQ(D::float_to_int64(2.7), 2);
  EXPECT_EQ(D::float_to_int64(-9223372036854775808.0), INT64_MIN);
  EXPECT_EQ(D::float_to_int64(NAN), INT64_MIN);
  EXPECT_EQ(D::float_to_int64(9.3e18), INT64_MIN);
  EXPECT_EQ(D::float_to_int64(-INFINITY), INT64_MIN);
}

// ---- Hashing ------------------------------------------------------------------------------

TEST(HashingOracle, OutputsAndConfigsAreKeras) {
  size_t cases = 0;
  for (const auto& [name, c] : doc()["hashing"].items()) {
    SCOPED_TRACE(name);
    backend::clear_session();
    const json& config = c["config"];
    auto layer = std::dynamic_pointer_cast<L::HashingLayer>(L::HashingLayer::from_config(config));
    ASSERT_TRUE(layer);
    // The config round-trips to Keras's, key for key.
    EXPECT_EQ(json(layer->get_config()), config);
    const bool strings = c["input"]["kind"] == "strings";
    auto run = [&] {
      return strings ? layer->call_strings(strings_of(c["input"]))
                     : (*layer)(fixture("hashing." + name + ".x"));
    };
    if (c.contains("error")) {
      EXPECT_EQ(c["error"], "IndexError");
      EXPECT_THROW(run(), IndexError);
      continue;
    }
    expect_same(run(), fixture("hashing." + name + ".y"), name);
    ++cases;
  }
  EXPECT_GE(cases, 40u);
  std::cout << "[ Hashing ] " << cases << " cases; largest difference from Keras: " << worst_diff
            << "\n";
}

TEST(HashingOracle, KerasDocstringExamples) {
  const StringTensor abcde({"A", "B", "C", "D", "E"}, {5, 1});
  auto values = [](const Tensor& t) { return t.to_vector<int64_t>(); };
  EXPECT_EQ(values(L::Hashing(3)->call_strings(abcde)), (std::vector<int64_t>{1, 0, 1, 1, 2}));
  EXPECT_EQ(values(L::Hashing(3, {.mask_value = ""})
                       ->call_strings(StringTensor({"A", "B", "", "C", "D"}, {5, 1}))),
            (std::vector<int64_t>{1, 1, 0, 2, 2}));
  EXPECT_EQ(values(L::Hashing(3, {.salt = std::vector<int64_t>{133, 137}})->call_strings(abcde)),
            (std::vector<int64_t>{1, 2, 1, 0, 2}));
  EXPECT_EQ(values(L::Hashing(3, {.salt = 133})->call_strings(abcde)),
            (std::vector<int64_t>{0, 0, 2, 1, 0}));
}

TEST(HashingOracle, KerasFileLoadsAndPredictsAlike) {
  backend::clear_session();
  auto model = saving::load_model(std::string(KERAS_ORACLE_DIR) + "/hashing/hashing_dense.keras");
  Tensor y =
      model->predict(TensorStruct(fixture("file.hashing_dense.x")), {.verbose = 0}).flat().at(0);
  expect_same(y, fixture("file.hashing_dense.y"), "hashing_dense predict");
  // The loaded layer is a Hashing with Keras's config.
  bool found = false;
  for (const auto& layer : model->layers())
    if (layer->class_name() == "Hashing") {
      found = true;
      EXPECT_EQ(layer->get_config()["num_bins"], 8);
      EXPECT_EQ(layer->get_config()["output_mode"], "one_hot");
    }
  EXPECT_TRUE(found);
}

TEST(Hashing, InFunctionalAndSequentialModels) {
  backend::clear_session();
  auto hashing = L::Hashing(5, {.output_mode = "multi_hot"});
  KerasTensor ids = Input(Shape{3}, {.dtype = DType::Int64});
  KerasTensor out = hashing(ids);
  EXPECT_EQ(out.shape(), (Shape{-1, 5}));
  EXPECT_EQ(out.dtype(), DType::Float32);
  auto model = Functional(ids, out);
  Tensor x = Tensor::from_vector(std::vector<int64_t>{1, 2, 3, 4, 4, 4}, {2, 3});
  expect_same(model->predict(TensorStruct(x), {.verbose = 0}).flat().at(0), hashing(x), "model");
  // int mode keeps the shape and gives int64.
  KerasTensor f = Input(Shape{4});
  KerasTensor ints = L::Hashing(7)(f);
  EXPECT_EQ(ints.shape(), (Shape{-1, 4}));
  EXPECT_EQ(ints.dtype(), DType::Int64);
  // In a Sequential model, then saved and loaded as a .keras file.
  auto seq = Sequential({Input({1}, {.dtype = DType::Int64}),
                         L::Hashing(8, {.mask_value = 0, .output_mode = "one_hot"}), L::Dense(2)});
  Tensor col = Tensor::from_vector(std::vector<int64_t>{0, 5, -7, 1 << 20}, {4, 1});
  Tensor expected = seq->predict(TensorStruct(col), {.verbose = 0}).flat().at(0);
  const std::string path =
      (std::filesystem::temp_directory_path() / "hashing_sequential_cpp.keras").string();
  seq->save(path);
  auto loaded = saving::load_model(path);
  expect_same(loaded->predict(TensorStruct(col), {.verbose = 0}).flat().at(0), expected, "loaded");
  std::filesystem::remove(path);
}

TEST(Hashing, BadArgumentsAreRefused) {
  EXPECT_THROW(L::Hashing(0), ValueError);
  EXPECT_THROW(L::Hashing(-3), ValueError);
  EXPECT_THROW(L::Hashing(4, {.output_mode = "tf_idf"}), ValueError);
  EXPECT_THROW(L::Hashing(4, {.output_mode = "binary"}), ValueError);
  EXPECT_THROW(L::Hashing(4, {.sparse = true}), ValueError);  // Keras: not with "int"
  EXPECT_THROW(L::Hashing(4, {.output_mode = "one_hot", .sparse = true}), NotImplementedError);
  EXPECT_THROW(L::Hashing(4, {.salt = std::vector<int64_t>{1, 2, 3}}), ValueError);
  EXPECT_THROW(L::Hashing(4, {.salt = std::vector<int64_t>{}}), ValueError);
  EXPECT_THROW(L::Hashing(4, {.dtype = "float32"}), ValueError);  // "int" needs int32/int64
  try {
    L::Hashing(4, {.output_mode = "bad"});
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Received: output_mode=bad"), std::string::npos);
  }
  // A mask of the other kind than the inputs cannot be compared (TF's TypeError).
  Tensor ints = Tensor::from_vector(std::vector<int64_t>{1, 2}, {2});
  EXPECT_THROW(L::Hashing(4, {.mask_value = "a"})(ints), TypeError);
  EXPECT_THROW(L::Hashing(4, {.mask_value = 1})->call_strings(StringTensor({"1"})), TypeError);
  // ... unless there is one bin, where Keras ignores the mask.
  EXPECT_EQ(L::Hashing(1, {.mask_value = "a"})(ints).to_vector<int64_t>(),
            (std::vector<int64_t>{0, 0}));
  // Configs Keras would not write.
  EXPECT_THROW(L::HashingLayer::from_config(json{{"num_bins", nullptr}}), ValueError);
  EXPECT_THROW(L::HashingLayer::from_config(json{{"num_bins", 3}, {"mask_value", 1.5}}),
               ValueError);
  EXPECT_THROW(L::HashingLayer::from_config(json{{"num_bins", 3}, {"salt", {1, 2, 3}}}),
               ValueError);
}

// ---- HashedCrossing -----------------------------------------------------------------------

TEST(HashedCrossingOracle, OutputsAndConfigsAreKeras) {
  size_t cases = 0;
  for (const auto& [name, c] : doc()["crossing"].items()) {
    SCOPED_TRACE(name);
    backend::clear_session();
    const json& config = c["config"];
    auto layer = std::dynamic_pointer_cast<L::HashedCrossingLayer>(
        L::HashedCrossingLayer::from_config(config));
    ASSERT_TRUE(layer);
    EXPECT_EQ(json(layer->get_config()), config);
    std::vector<L::CrossFeature> features;
    TensorList tensors;
    for (size_t i = 0; i < c["inputs"].size(); ++i) {
      const json& in = c["inputs"][i];
      if (in["kind"] == "strings") {
        features.emplace_back(strings_of(in));
      } else {
        features.emplace_back(fixture("crossing." + name + ".x" + std::to_string(i)));
        tensors.push_back(fixture("crossing." + name + ".x" + std::to_string(i)));
      }
    }
    ASSERT_FALSE(c.contains("error"));
    const Tensor& expected = fixture("crossing." + name + ".y");
    expect_same(layer->call_features(features), expected, name);
    // Integer features also go through the layer's ordinary list call.
    if (tensors.size() == features.size()) expect_same((*layer)(tensors).at(0), expected, name);
    ++cases;
  }
  EXPECT_GE(cases, 15u);
  std::cout << "[ HashedCrossing ] " << cases
            << " cases; largest difference from Keras: " << worst_diff << "\n";
}

TEST(HashedCrossingOracle, KerasFileLoadsAndPredictsAlike) {
  backend::clear_session();
  auto model = saving::load_model(std::string(KERAS_ORACLE_DIR) + "/hashing/crossing_dense.keras");
  Tensor y = model
                 ->predict(TensorStruct(TensorList{fixture("file.crossing_dense.x0"),
                                                   fixture("file.crossing_dense.x1")}),
                           {.verbose = 0})
                 .flat()
                 .at(0);
  expect_same(y, fixture("file.crossing_dense.y"), "crossing_dense predict");
}

TEST(HashedCrossing, BadInputsAreRefused) {
  auto cross = L::HashedCrossing(5);
  Tensor a = Tensor::from_vector(std::vector<int64_t>{1, 2}, {2});
  Tensor f = Tensor::from_vector(std::vector<float>{1, 2}, {2});
  EXPECT_THROW(cross(a), ValueError);                                            // not a list
  EXPECT_THROW(cross(TensorList{a}), ValueError);                                // one feature
  EXPECT_THROW(cross(TensorList{a, f}), ValueError);                             // float feature
  EXPECT_THROW(cross(TensorList{a, ops::ones({3}, DType::Int64)}), ValueError);  // shapes differ
  EXPECT_THROW(cross(TensorList{ops::ones({2, 2}, DType::Int64), ops::ones({2, 2}, DType::Int64)}),
               ValueError);  // (batch, 2)
  EXPECT_THROW(cross->call_features({a, StringTensor({"a", "b", "c"})}), ValueError);
  EXPECT_THROW(L::HashedCrossing(5, {.output_mode = "multi_hot"}), ValueError);
  EXPECT_THROW(L::HashedCrossing(5, {.sparse = true}), NotImplementedError);
  EXPECT_THROW(L::HashedCrossing(-1), ValueError);
}

}  // namespace
}  // namespace keras
