// StringLookup, IntegerLookup and TextVectorization against Keras 3.15 (tools/keras_oracle/text_lookup.py): every
// output, vocabulary and config of the oracle's cases, the same argument errors, and the
// .keras files Keras saved (vocabulary assets, idf weights stored by name) loaded and saved.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "keras/keras.h"
#include "keras/layers/preprocessing/integer_lookup.h"
#include "keras/layers/preprocessing/string_lookup.h"
#include "keras/layers/preprocessing/text_vectorization.h"
#include "keras/saving/archive.h"
#include "oracle_fixture.h"

namespace keras {
namespace {

using json = nlohmann::json;

const json& fixture() { return test::oracle_json("text_lookup"); }
std::string file_path(const std::string& name) {
  return std::string(KERAS_ORACLE_DIR) + "/text_lookup/" + name + ".keras";
}

// Nested JSON lists (or a scalar) as C-order values and a shape.
template <typename T>
void flatten(const json& j, std::vector<T>& values, Shape& shape, int depth = 0) {
  if (!j.is_array()) {
    values.push_back(j.get<T>());
    return;
  }
  if (static_cast<int>(shape.rank()) == depth) shape.push_back(static_cast<int64_t>(j.size()));
  for (const json& item : j) flatten(item, values, shape, depth + 1);
}

StringTensor strings(const json& j) {
  std::vector<std::string> values;
  Shape shape;
  flatten(j, values, shape);
  return StringTensor(values, shape);
}

Tensor integers(const json& j) {
  std::vector<int64_t> values;
  Shape shape;
  flatten(j, values, shape);
  return Tensor::from_vector(values, shape);
}

std::shared_ptr<Layer> build(const json& c) {
  Config kwargs = c["kwargs"];
  if (c["layer"] == "StringLookup") return layers::StringLookupLayer::from_config(kwargs);
  if (c["layer"] == "TextVectorization")
    return layers::TextVectorizationLayer::from_config(kwargs);
  return layers::IntegerLookupLayer::from_config(kwargs);
}

void adapt(Layer& layer, const json& c) {
  auto* s = dynamic_cast<layers::StringLookupLayer*>(&layer);
  auto* i = dynamic_cast<layers::IntegerLookupLayer*>(&layer);
  auto* t = dynamic_cast<layers::TextVectorizationLayer*>(&layer);
  if (c.contains("adapt")) {
    if (s) s->adapt(strings(c["adapt"]));
    if (i) i->adapt(integers(c["adapt"]));
    if (t) t->adapt(strings(c["adapt"]));
  }
  if (c.contains("adapt_batches")) {
    std::vector<StringTensor> sb;
    TensorList ib;
    for (const json& b : c["adapt_batches"]) {
      if (s || t) sb.push_back(strings(b));
      if (i) ib.push_back(integers(b));
    }
    if (s) s->adapt(sb);
    if (i) i->adapt(ib);
    if (t) t->adapt(sb);
  }
}

// Keras's config compared key by key (name aside: it counts layers per process).
void expect_config(const Layer& layer, const json& keras, const std::string& what) {
  const Config ours = layer.get_config();
  for (const auto& [key, value] : keras.items()) {
    if (key == "name") continue;
    ASSERT_TRUE(ours.contains(key)) << what << ": no config key " << key;
    if (value.is_number_float() || (value.is_array() && !value.empty() && value[0].is_number_float())) {
      EXPECT_EQ(ours[key].dump(), Config(value).dump()) << what << ": " << key;
    } else {
      EXPECT_EQ(ours[key], value) << what << ": " << key;
    }
  }
}

void expect_output(const Tensor& got, const json& call, const std::string& what) {
  std::vector<double> want_values;
  Shape want_shape;
  flatten(call["output"], want_values, want_shape);
  ASSERT_EQ(got.shape(), want_shape) << what;
  const std::string dtype = call["dtype"];
  EXPECT_EQ(dtype_name(got.dtype()), dtype) << what;
  std::vector<double> values = got.to_vector<double>();
  for (size_t k = 0; k < values.size(); ++k)
    EXPECT_NEAR(values[k], want_values[k], dtype == "float32" ? 1e-6 : 0.0) << what << " at " << k;
}

TEST(LookupLayers, EveryOracleCaseGivesKerasOutputsVocabularyAndConfig) {
  int index = 0;
  for (const json& c : fixture()["cases"]) {
    const std::string what = c["layer"].get<std::string>() + " case " + std::to_string(index++) +
                             " " + c["kwargs"].dump();
    std::shared_ptr<Layer> layer = build(c);
    adapt(*layer, c);
    auto* s = dynamic_cast<layers::StringLookupLayer*>(layer.get());
    auto* i = dynamic_cast<layers::IntegerLookupLayer*>(layer.get());
    auto* t = dynamic_cast<layers::TextVectorizationLayer*>(layer.get());
    for (const json& call : c["calls"]) {
      if (t) {
        expect_output(t->call_strings(strings(call["input"])), call, what);
      } else if (s && c["kwargs"].value("invert", false)) {
        StringTensor got = s->tokens_of(integers(call["input"]));
        EXPECT_EQ(got, strings(call["output"])) << what;
      } else if (s) {
        expect_output(s->call_strings(strings(call["input"])), call, what);
      } else {
        expect_output((*i)(integers(call["input"])), call, what);
      }
    }
    if (t) {
      EXPECT_EQ(t->get_vocabulary(), c["vocabulary"].get<std::vector<std::string>>()) << what;
      EXPECT_EQ(t->get_vocabulary(false),
                c["vocabulary_no_special"].get<std::vector<std::string>>()) << what;
      EXPECT_EQ(t->vocabulary_size(), c["vocabulary_size"].get<int64_t>()) << what;
    } else if (s) {
      EXPECT_EQ(s->get_vocabulary(), c["vocabulary"].get<std::vector<std::string>>()) << what;
      EXPECT_EQ(s->get_vocabulary(false),
                c["vocabulary_no_special"].get<std::vector<std::string>>()) << what;
      EXPECT_EQ(s->vocabulary_size(), c["vocabulary_size"].get<int64_t>()) << what;
    } else {
      EXPECT_EQ(i->get_vocabulary(), c["vocabulary"].get<std::vector<int64_t>>()) << what;
      EXPECT_EQ(i->get_vocabulary(false),
                c["vocabulary_no_special"].get<std::vector<int64_t>>()) << what;
      EXPECT_EQ(i->vocabulary_size(), c["vocabulary_size"].get<int64_t>()) << what;
    }
    expect_config(*layer, c["config"], what);
  }
  EXPECT_GE(index, 56);
}

TEST(LookupLayers, RefusesWhatKerasRefusesWithTheSameErrorClass) {
  for (const json& e : fixture()["errors"]) {
    const std::string what = e.dump();
    const std::string keras_error = e["error"];
    try {
      std::shared_ptr<Layer> layer = build(e);
      auto* s = dynamic_cast<layers::StringLookupLayer*>(layer.get());
      auto* i = dynamic_cast<layers::IntegerLookupLayer*>(layer.get());
      auto* t = dynamic_cast<layers::TextVectorizationLayer*>(layer.get());
      if (t && e.contains("call")) t->call_strings(strings(e["call"]));
      if (e.contains("vocabulary")) {
        if (s) s->set_vocabulary(e["vocabulary"].get<std::vector<std::string>>());
        if (i) i->set_vocabulary(e["vocabulary"].get<std::vector<int64_t>>());
      }
      if (e.contains("call")) {
        if (s) s->call_strings(strings(e["call"]));
        if (i) (*i)(integers(e["call"]));
      }
      ADD_FAILURE() << "no error for " << what;
    } catch (const RuntimeError& err) {
      EXPECT_EQ(keras_error, "RuntimeError") << what << ": " << err.what();
    } catch (const ValueError& err) {
      EXPECT_EQ(keras_error, "ValueError") << what << ": " << err.what();
    }
  }
}

TEST(LookupLayers, LoadsKerasModelsWithVocabularyAssetsAndNamedIdfWeights) {
  for (const char* name : {"integer_multi_hot", "integer_tf_idf", "integer_embedding"}) {
    const json& f = fixture()["files"][name];
    auto model = saving::load_model(file_path(name));
    Tensor y = model->predict(integers(f["x"]), {.verbose = 0}).single();
    std::vector<double> want;
    Shape shape;
    flatten(f["y"], want, shape);
    ASSERT_EQ(y.shape(), shape) << name;
    std::vector<double> got = y.to_vector<double>();
    for (size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], want[k], 1e-6) << name;
    // Saved again by keras-cpp: the same members, the vocabulary file byte for byte, and the
    // same predictions after loading.
    auto again = (std::filesystem::temp_directory_path() / (std::string("kc_") + name + ".keras"))
                     .string();
    saving::save_model(*model, again);
    auto theirs = saving::read_zip_members(saving::read_file_bytes(file_path(name)), name);
    auto ours = saving::read_zip_members(saving::read_file_bytes(again), again);
    const std::string vocab = "assets/layers/integer_lookup/vocabulary.txt";
    ASSERT_TRUE(ours.count(vocab)) << name;
    EXPECT_EQ(ours[vocab], theirs[vocab]) << name;
    Tensor y2 = saving::load_model(again)->predict(integers(f["x"]), {.verbose = 0}).single();
    EXPECT_EQ(y2.to_vector<double>(), got) << name;
    std::filesystem::remove(again);
  }
}

TEST(LookupLayers, StringLookupFromAKerasArchiveConfigAndAsset) {
  // The StringLookup rebuilt from the archive's config and vocabulary.txt; keras-cpp writes
  // that config and file back the same.
  const json& f = fixture()["files"]["string_count"];
  auto members = saving::read_zip_members(saving::read_file_bytes(file_path("string_count")),
                                          "string_count");
  const std::string vocab_name = "assets/layers/string_lookup/vocabulary.txt";
  const std::string vocab_text(members[vocab_name].begin(), members[vocab_name].end());
  json config = json::parse(std::string(members["config.json"].begin(),
                                        members["config.json"].end()));
  json layer_config;
  for (const json& l : config["config"]["layers"])
    if (l["class_name"] == "StringLookup") layer_config = l["config"];
  ASSERT_FALSE(layer_config.is_null());
  auto layer = std::dynamic_pointer_cast<layers::StringLookupLayer>(
      layers::StringLookupLayer::from_config(layer_config));
  layer->load_assets({{"vocabulary.txt", vocab_text}});
  Tensor y = layer->call_strings(strings(f["x"]));
  EXPECT_EQ(y.to_vector<int64_t>(), integers(f["y"]).to_vector<int64_t>());
  EXPECT_EQ(layer->save_assets().at("vocabulary.txt"), vocab_text);
  json keras_layer = layer_config;
  keras_layer.erase("dtype");
  expect_config(*layer, keras_layer, "string_count");
  // The model itself (a string Input) loads and predicts the same
  // (tests/models/string_graphs_test.cpp has more such models).
  auto model = saving::load_model(file_path("string_count"));
  EXPECT_EQ(model->predict(strings(f["x"]), {.verbose = 0}).single().to_vector<double>(),
            y.to_vector<double>());
}

TEST(LookupLayers, TextVectorizationFromAKerasArchive) {
  // The layer rebuilt from the archive's config and its vocabulary file gives Keras's output;
  // keras-cpp's model walk writes the file in both of Keras's places.
  const json& f = fixture()["files"]["text_multi_hot"];
  auto members = saving::read_zip_members(saving::read_file_bytes(file_path("text_multi_hot")),
                                          "text_multi_hot");
  const std::string folder = "assets/layers/text_vectorization/";
  ASSERT_TRUE(members.count(folder + "vocabulary.txt"));
  ASSERT_TRUE(members.count(folder + "_lookup_layer/vocabulary.txt"));
  const auto& bytes = members[folder + "vocabulary.txt"];
  const std::string vocab_text(bytes.begin(), bytes.end());
  json config = json::parse(std::string(members["config.json"].begin(),
                                        members["config.json"].end()));
  json layer_config;
  for (const json& l : config["config"]["layers"])
    if (l["class_name"] == "TextVectorization") layer_config = l["config"];
  auto layer = std::dynamic_pointer_cast<layers::TextVectorizationLayer>(
      layers::TextVectorizationLayer::from_config(layer_config));
  layer->load_assets({{"vocabulary.txt", vocab_text}});
  Tensor y = layer->call_strings(strings(f["x"]));
  EXPECT_EQ(y.to_vector<int64_t>(), integers(f["y"]).to_vector<int64_t>());
  EXPECT_EQ(layer->save_assets().at("vocabulary.txt"), vocab_text);
  json keras_layer = layer_config;
  keras_layer.erase("dtype");
  expect_config(*layer, keras_layer, "text_multi_hot");
  // The inner lookup is tracked as Keras's "_lookup_layer".
  ASSERT_EQ(layer->tracked_layers().size(), 1u);
  EXPECT_EQ(layer->tracked_layers()[0].first, "_lookup_layer");
}

TEST(LookupLayers, ClearErrorsForStringsInNumericPlaces) {
  auto lookup = layers::StringLookup({.vocabulary = std::vector<std::string>{"a", "b"}});
  EXPECT_THROW(lookup(ops::ones({2})), TypeError);
  EXPECT_EQ(lookup(StringTensor({"b", "a", "x"})).to_vector<int64_t>(),
            (std::vector<int64_t>{2, 1, 0}));
  auto ints = layers::IntegerLookup({.vocabulary = std::vector<int64_t>{3, 4}});
  EXPECT_THROW(ints(ops::ones({2})), ValueError);  // float tokens: cast them first
  EXPECT_THROW(layers::StringLookupLayer::from_config(
                   Config{{"vocabulary", "/etc/passwd"}}),
               ValueError);  // a path in a config is refused, as Keras's safe mode does
}

TEST(LookupLayers, VocabularyFilesAsKerasReadsThem) {
  auto path = (std::filesystem::temp_directory_path() / "kc_vocab.txt").string();
  {
    std::ofstream out(path, std::ios::binary);
    out << "alpha\r\nbeta\ngamma\n\n";
  }
  auto lookup = layers::StringLookup({.vocabulary_path = path});
  EXPECT_EQ(lookup->get_vocabulary(),
            (std::vector<std::string>{"[UNK]", "alpha", "beta", "gamma"}));
  EXPECT_THROW(layers::StringLookup({.vocabulary_path = path + ".missing"}), ValueError);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace keras
