// Functional models with string Inputs that real Keras 3.15 saved (tools/keras_oracle/
// string_graphs.py): keras-cpp loads each file, predicts on the same strings and gives Keras's
// outputs (numbers within 1e-5, strings equal); the output shapes and dtypes of the loaded
// graph are Keras's; saved again by keras-cpp, the file predicts the same. Also: strings in
// keras-cpp's own Functional graphs, and the errors where strings meet numbers.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "json_tensors.h"
#include "oracle_fixture.h"
#include "text_steps.h"

namespace keras {
namespace {

using json = nlohmann::json;

const json& fixture() {
  return test::oracle_json("string_graphs");
}
std::string file_path(const std::string& name) {
  return std::string(KERAS_ORACLE_DIR) + "/string_graphs/" + name + ".keras";
}

void expect_like_keras(const Tensor& got, const json& want, const std::string& what) {
  std::vector<json> leaves;
  Shape shape;
  test::flatten_json(want, leaves, shape);
  ASSERT_EQ(got.shape(), shape) << what;
  if (!leaves.empty() && leaves[0].is_string()) {
    ASSERT_EQ(got.dtype(), DType::String) << what;
    const StringTensor s = got.to_strings();
    for (size_t k = 0; k < leaves.size(); ++k)
      EXPECT_EQ(s.flat(static_cast<int64_t>(k)), leaves[k].get<std::string>()) << what << " " << k;
    return;
  }
  const std::vector<double> v = got.to_vector<double>();
  for (size_t k = 0; k < leaves.size(); ++k) {
    // Keras writes NaN (an all-masked average) as JSON null... or as NaN through json.dump.
    if (leaves[k].is_null() || (leaves[k].is_number() && std::isnan(leaves[k].get<double>()))) {
      EXPECT_TRUE(std::isnan(v[k])) << what << " " << k;
      continue;
    }
    EXPECT_NEAR(v[k], leaves[k].get<double>(), 1e-5) << what << " " << k;
  }
}

TensorStruct inputs_of(const json& f) {
  TensorList xs;
  for (size_t i = 0; i < f["input_names"].size(); ++i) {
    const std::string name = f["input_names"][i];
    xs.push_back(test::tensor_from_json(f["inputs"][name], f["input_dtypes"][i]));
  }
  if (xs.size() == 1) return xs[0];
  return xs;
}

void check_predictions(Model& model, const json& f, const std::string& what) {
  TensorStruct ys = model.predict(inputs_of(f), {.batch_size = 2, .verbose = 0});
  TensorList outs = ys.flat();
  ASSERT_EQ(outs.size(), f["outputs"].size()) << what;
  for (size_t i = 0; i < outs.size(); ++i)
    expect_like_keras(outs[i], f["outputs"][i], what + " output " + std::to_string(i));
}

TEST(StringGraphs, KerasModelsWithStringInputsPredictAsKeras) {
  test::register_demo_text_steps();  // custom_steps' registered functions, in C++
  for (const auto& [name, f] : fixture().items()) {
    auto model = saving::load_model(file_path(name));
    auto* functional = dynamic_cast<FunctionalModel*>(model.get());
    ASSERT_NE(functional, nullptr) << name;
    // The loaded graph declares Keras's input dtypes and output shapes (None where Keras has
    // None: the token axis of TextVectorization without output_sequence_length).
    for (size_t i = 0; i < functional->inputs().size(); ++i)
      EXPECT_EQ(dtype_name(functional->inputs()[i].dtype()), f["input_dtypes"][i]) << name;
    for (size_t i = 0; i < functional->outputs().size(); ++i) {
      std::vector<int64_t> want;
      for (const json& d : f["output_shapes"][i])
        want.push_back(d.is_null() ? -1 : d.get<int64_t>());
      EXPECT_EQ(functional->outputs()[i].shape(), Shape(want)) << name << " output " << i;
    }
    // batch_size 2 cuts the inputs into views and joins the outputs again, strings included.
    check_predictions(*model, f, name);
    // Saved by keras-cpp and loaded again: the same predictions.
    auto again =
        (std::filesystem::temp_directory_path() / ("kc_strings_" + name + ".keras")).string();
    saving::save_model(*model, again);
    check_predictions(*saving::load_model(again), f, name + " (saved by keras-cpp)");
    std::filesystem::remove(again);
  }
}

TEST(StringGraphs, RegisteredStepFunctionsAreNamedAsKerasNamesThem) {
  // Keras writes a registered function as {"class_name": "function", "config":
  // "package>name", ...}; keras-cpp's config of the loaded layer is Keras's, key for key.
  test::register_demo_text_steps();
  auto model = saving::load_model(file_path("custom_steps"));
  const auto members =
      saving::read_zip_members(saving::read_file_bytes(file_path("custom_steps")), "custom_steps");
  const json keras_config =
      json::parse(std::string(members.at("config.json").begin(), members.at("config.json").end()));
  for (const json& l : keras_config["config"]["layers"]) {
    if (l["class_name"] != "TextVectorization") continue;
    const Config ours = model->get_layer(l["config"]["name"].get<std::string>())->get_config();
    EXPECT_EQ(ours["standardize"], l["config"]["standardize"]);
    EXPECT_EQ(ours["split"], l["config"]["split"]);
  }
  // A name nobody registered: the options and a file naming it say which call is missing.
  try {
    layers::TextVectorization({.standardize = "demo>nothing"});
    ADD_FAILURE() << "an unregistered standardize function was accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("register_standardize_function"), std::string::npos);
  }
  json layer_config = {{"name", "tv"},
                       {"split",
                        {{"module", "builtins"},
                         {"class_name", "function"},
                         {"config", "demo>elsewhere"},
                         {"registered_name", "function"}}}};
  try {
    layers::TextVectorizationLayer::from_config(layer_config);
    ADD_FAILURE() << "an unregistered split function loaded";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("register_split_function(\"demo\", \"elsewhere\""),
              std::string::npos)
        << e.what();
  }
  try {  // a name is registered once
    layers::register_split_function("demo", "on_commas",
                                    [](const std::string& s) { return std::vector<std::string>{s}; });
    ADD_FAILURE() << "a name was registered twice";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("registered already"), std::string::npos) << e.what();
  }
}

TEST(StringGraphs, TheRaggedTokenAxisFollowsTheLongestDocument) {
  // Keras's batch is padded to its longest document: predicting one document at a time gives
  // the same numbers as the whole batch (the padding is masked).
  const json& f = fixture()["ragged_tokens"];
  auto model = saving::load_model(file_path("ragged_tokens"));
  const json& docs = f["inputs"]["sentence"];
  for (size_t k = 0; k < docs.size(); ++k) {
    Tensor y = model->predict(StringTensor({docs[k].get<std::string>()}), {.verbose = 0}).single();
    expect_like_keras(y, json::array({f["outputs"][0][k]}), "document " + std::to_string(k));
  }
}

TEST(StringGraphs, TrainsEndToEndOnStringsAsKeras) {
  // Keras (TensorFlow backend) trained the saved text classifier on its strings: SGD, batches
  // of 2 in order, 3 epochs. keras-cpp from the same file: the same losses and predictions.
  const json& f = fixture()["text_classifier"];
  auto model = saving::load_model(file_path("text_classifier"));
  model->compile({.optimizer = optimizers::SGD(0.5), .loss = "sparse_categorical_crossentropy"});
  const Tensor x = test::tensor_from_json(f["inputs"]["text"], "string");
  const Tensor y = test::tensor_from_json(f["train_labels"], "int64");
  auto history = model->fit(x, y, {.batch_size = 2, .epochs = 3, .verbose = 0, .shuffle = false});
  const std::vector<double>& loss = history->history.at("loss");
  ASSERT_EQ(loss.size(), f["trained"]["loss"].size());
  for (size_t e = 0; e < loss.size(); ++e)
    EXPECT_NEAR(loss[e], f["trained"]["loss"][e].get<double>(), 1e-5) << "epoch " << e;
  expect_like_keras(model->predict(x, {.verbose = 0}).single(), f["trained"]["predictions"],
                    "after training");
  // Shuffled batches pick string rows with take (no Keras reference: its shuffle is its own).
  auto shuffled = model->fit(x, y, {.batch_size = 2, .epochs = 1, .verbose = 0});
  EXPECT_TRUE(std::isfinite(shuffled->history.at("loss").back()));
}

TEST(StringGraphs, BuiltInCppWithAStringInput) {
  // The Functional API of keras-cpp: a string Input, a TextVectorization adapted in C++, and
  // the numbers after it; the output matches the layers called one by one.
  auto vectorize = layers::TextVectorization({.max_tokens = 20, .output_sequence_length = 4});
  vectorize->adapt(StringTensor({"red apple", "green apple pie", "red red wine"}));
  auto text = Input({1}, {.dtype = DType::String, .name = "text"});
  EXPECT_EQ(text.dtype(), DType::String);
  auto ids = vectorize(text);
  EXPECT_EQ(ids.shape(), Shape({-1, 4}));
  EXPECT_EQ(ids.dtype(), DType::Int64);
  auto embed = layers::Embedding(20, 3);
  auto model = Functional(text, embed(ids));
  const StringTensor docs({"red wine", "apple pie please"}, {2, 1});
  Tensor direct = embed(vectorize(docs));
  Tensor through = model->predict(docs, {.verbose = 0}).single();
  EXPECT_EQ(through.to_vector<float>(), direct.to_vector<float>());
  EXPECT_EQ(model(Tensor(docs)).to_vector<float>(), direct.to_vector<float>());
}

TEST(StringGraphs, TheGraphMayBeBuiltBeforeAdapt) {
  // Keras builds the graph of a text layer that has no vocabulary yet; adapt comes later (the
  // depth of an encoded output is unknown until then: Keras says None too).
  for (const char* mode : {"int", "multi_hot"}) {
    auto vectorize = layers::TextVectorization(
        {.max_tokens = 8,
         .output_mode = mode,
         .output_sequence_length =
             std::string(mode) == "int" ? std::optional<int64_t>(3) : std::nullopt});
    auto text = Input({1}, {.dtype = DType::String});
    auto model = Functional(text, vectorize(text));
    EXPECT_EQ(model->outputs()[0].shape(), Shape({-1, std::string(mode) == "int" ? 3 : -1}))
        << mode;
    vectorize->adapt(StringTensor({"x y", "y z z"}));
    const StringTensor docs({"z q", "y"}, {2, 1});
    EXPECT_EQ(model->predict(docs, {.verbose = 0}).single().to_vector<double>(),
              vectorize(docs).to_vector<double>())
        << mode;
  }
}

TEST(StringGraphs, ASequentialModelStartsFromText) {
  // keras.Sequential([keras.Input(shape=(1,), dtype="string"), vectorize, ...]) as in Keras's
  // guide; saved and loaded, it predicts the same.
  auto vectorize = layers::TextVectorization({.max_tokens = 10, .output_mode = "multi_hot"});
  vectorize->adapt(StringTensor({"one two", "two three", "three three four"}));
  auto dense = layers::Dense(2);
  auto model = Sequential({Input({1}, {.dtype = DType::String}), vectorize, dense});
  const StringTensor docs({"two four", "five"}, {2, 1});
  Tensor y = model->predict(docs, {.verbose = 0}).single();
  EXPECT_EQ(y.to_vector<float>(), dense(vectorize(docs)).to_vector<float>());
  auto path = (std::filesystem::temp_directory_path() / "kc_strings_sequential.keras").string();
  saving::save_model(*model, path);
  EXPECT_EQ(saving::load_model(path)->predict(docs, {.verbose = 0}).single().to_vector<float>(),
            y.to_vector<float>());
  std::filesystem::remove(path);
}

TEST(StringGraphs, StringsAndNumbersDoNotMix) {
  auto text = Input({1}, {.dtype = DType::String});
  auto lookup = layers::StringLookup({.vocabulary = std::vector<std::string>{"a", "b"}});
  auto model = Functional(text, lookup(text));
  // A numeric tensor where the model takes strings, and the other way round.
  EXPECT_THROW(model->predict(ops::ones({2, 1}), {.verbose = 0}), TypeError);
  auto numbers = Input({1});
  auto dense_model = Functional(numbers, layers::Dense(2)(numbers));
  EXPECT_THROW(dense_model->predict(StringTensor({"x", "y"}, {2, 1}), {.verbose = 0}), TypeError);
  // Ops refuse string tensors with the TypeError that points at the text layers.
  const Tensor s = StringTensor({"a", "b"});
  EXPECT_THROW(ops::add(s, s), TypeError);
  EXPECT_THROW(ops::add(s, ops::ones({2})), TypeError);
  EXPECT_THROW(ops::cast(s, DType::Float32), TypeError);
  EXPECT_THROW(s.to_vector<float>(), TypeError);
  EXPECT_THROW(ops::sum(s), TypeError);
  EXPECT_THROW(ops::ones({2}).to_strings(), TypeError);
  EXPECT_THROW(result_type({DType::String, DType::Float32}), ValueError);
}

TEST(StringGraphs, StringTensorsAsTensors) {
  // Views and copies of a string tensor keep its text; printing is NumPy's.
  const Tensor s = StringTensor({"ab", "c", "déf", "", "g h", "i"}, {2, 3});
  EXPECT_EQ(s.dtype(), DType::String);
  EXPECT_EQ(s.shape(), Shape({2, 3}));
  EXPECT_EQ(s.transpose().to_strings(), StringTensor({"ab", "", "c", "g h", "déf", "i"}, {3, 2}));
  EXPECT_EQ(s[1].to_strings(), StringTensor({"", "g h", "i"}));
  EXPECT_EQ(s.slice({{}, {1, 3}}).contiguous().to_strings(),
            StringTensor({"c", "déf", "g h", "i"}, {2, 2}));
  EXPECT_EQ(ops::concatenate({s, s[0].expand_dims(0)}, 0).to_strings(),
            StringTensor({"ab", "c", "déf", "", "g h", "i", "ab", "c", "déf"}, {3, 3}));
  EXPECT_EQ(s.reshape({3, 2}).to_strings().values(), s.to_strings().values());
  EXPECT_EQ(ops::stack({s[0], s[1]}, 1).to_strings(),
            StringTensor({"ab", "", "c", "g h", "déf", "i"}, {3, 2}));
  EXPECT_EQ(s[0].expand_dims(0).broadcast_to({2, 3}).to_strings(),
            StringTensor({"ab", "c", "déf", "ab", "c", "déf"}, {2, 3}));
  EXPECT_EQ(s.squeeze().shape(), Shape({2, 3}));
  EXPECT_EQ(to_string(s), to_string(s.to_strings()));
  EXPECT_EQ(s.to("cpu").backend_name(), s.backend_name());  // strings stay on the host
}

}  // namespace
}  // namespace keras
