// model.save / load_model: round trips (predictions, configs, optimizer state, resumed
// training), the real Keras files in ../shared/models, and the structure of what keras-cpp
// writes compared with what Keras wrote (member order, config keys per class, HDF5 paths).

#include <gtest/gtest.h>
#include <zip.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers
namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "keras_cpp_saving_test";
  fs::create_directories(dir);
  return (dir / name).string();
}

std::string shared_model(const std::string& name) {
  return std::string(KERAS_SHARED_DIR) + "/models/" + name;
}

Tensor uniform(Shape shape, uint64_t seed) {
  return random::uniform(std::move(shape), 0.0, 1.0, DType::Float32, seed);
}

ModelPtr<Model> small_mlp() {
  return Sequential({Input({6}), layers::Dense(8, {.activation = "relu"}),
                     layers::BatchNormalization(), layers::Dense(3, {.activation = "softmax"})});
}

// ---- round trips ---------------------------------------------------------------------------

TEST(SaveModel, SequentialRoundTripKeepsPredictionsConfigAndOptimizer) {
  backend::clear_session();
  auto model = small_mlp();
  model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy",
                  .metrics = {"accuracy"}});
  Tensor x = uniform({32, 6}, 1);
  Tensor y = ops::cast(ops::floor(ops::multiply(uniform({32}, 2), 2.999)), DType::Int64);
  model->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0});
  std::string path = temp_path("mlp.keras");
  model->save(path);

  auto loaded = saving::load_model(path);
  EXPECT_EQ(loaded->class_name(), "Sequential");
  EXPECT_TENSOR_EQ(loaded->predict(x, {.verbose = 0}).single(),
                   model->predict(x, {.verbose = 0}).single());
  EXPECT_EQ(loaded->to_json(), model->to_json());
  EXPECT_EQ(loaded->summary_string(), model->summary_string());
  ASSERT_TRUE(loaded->compiled());
  auto a = model->optimizer()->variables(), b = loaded->optimizer()->variables();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_EQ(b[i].value(), a[i].value());
  // Not compiling leaves the optimizer out.
  EXPECT_FALSE(saving::load_model(path, {.compile = false})->compiled());
}

TEST(SaveModel, FunctionalWithSharedLayersAndSeveralInputsAndOutputs) {
  backend::clear_session();
  auto a = Input({4}, {.name = "a"});
  auto b = Input({4}, {.name = "b"});
  auto shared = layers::Dense(5, {.activation = "tanh"});
  KerasTensor merged = layers::Concatenate()(std::vector<KerasTensor>{shared(a), shared(b)})[0];
  auto out1 = layers::Dense(2, {.name = "score"})(merged);
  KerasTensor sum = layers::Add()(std::vector<KerasTensor>{shared(a), shared(b)})[0];
  auto out2 = layers::Dense(1, {.activation = "sigmoid", .name = "flag"})(sum);
  auto model = Functional(std::vector<KerasTensor>{a, b}, std::vector<KerasTensor>{out1, out2});
  model->compile({.optimizer = "sgd",
                  .loss = std::map<std::string, losses::LossArg>{{"score", "mse"},
                                                                 {"flag", "binary_crossentropy"}},
                  .loss_weights = std::map<std::string, double>{{"score", 1.0}, {"flag", 0.5}},
                  .metrics = std::map<std::string, std::vector<metrics::MetricArg>>{
                      {"flag", {"accuracy"}}}});
  std::string path = temp_path("functional.keras");
  model->save(path);
  auto loaded = saving::load_model(path);
  EXPECT_EQ(loaded->class_name(), "Functional");
  EXPECT_EQ(loaded->to_json(), model->to_json());
  TensorList x{uniform({3, 4}, 3), uniform({3, 4}, 4)};
  TensorStruct p = model->predict(x, {.verbose = 0});
  TensorStruct q = loaded->predict(x, {.verbose = 0});
  ASSERT_EQ(q.list().size(), 2u);
  EXPECT_TENSOR_EQ(q.list()[0], p.list()[0]);
  EXPECT_TENSOR_EQ(q.list()[1], p.list()[1]);
  // The shared Dense is one layer with four calls, as in the original.
  EXPECT_EQ(loaded->get_layer(shared->name())->inbound_nodes().size(), 4u);
}

TEST(SaveModel, NestedModelsRoundTrip) {
  backend::clear_session();
  auto inner_in = Input({3});
  auto inner = Functional(inner_in, layers::Dense(4, {.activation = "relu"})(inner_in));
  auto stack = Sequential({Input({4}), layers::Dense(2)});
  auto x = Input({3});
  auto model = Functional(x, stack(inner(x)));
  std::string path = temp_path("nested.keras");
  model->save(path);
  auto loaded = saving::load_model(path);
  Tensor data = uniform({5, 3}, 9);
  EXPECT_TENSOR_EQ(loaded->predict(data, {.verbose = 0}).single(),
                   model->predict(data, {.verbose = 0}).single());
  EXPECT_EQ(loaded->to_json(), model->to_json());
}

// Keras's promise: training 2 epochs, saving, loading and training 2 more equals 4 straight.
TEST(SaveModel, ResumedTrainingMatchesAnUninterruptedRun) {
  Tensor x = uniform({40, 6}, 5);
  Tensor y = ops::cast(ops::floor(ops::multiply(uniform({40}, 6), 2.999)), DType::Int64);
  auto fresh = [&] {
    backend::clear_session();
    auto model = small_mlp();
    model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy"});
    return model;
  };
  FitOptions fit{.batch_size = 8, .epochs = 2, .verbose = 0, .shuffle = false};
  auto straight = fresh();
  auto initial = straight->get_weights();
  FitOptions four = fit;
  four.epochs = 4;
  straight->fit(x, y, four);

  auto first = fresh();
  first->set_weights(initial);
  first->fit(x, y, fit);
  std::string path = temp_path("resume.keras");
  first->save(path);
  auto resumed = saving::load_model(path);
  resumed->fit(x, y, fit);
  auto expected = straight->get_weights(), got = resumed->get_weights();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_TENSOR_NEAR(got[i], expected[i], 1e-6, 1e-6);
}

TEST(SaveModel, ToJsonAndModelFromJson) {
  backend::clear_session();
  auto model = small_mlp();
  auto copy = models::model_from_json(model->to_json());
  EXPECT_EQ(copy->to_json(), model->to_json());
  EXPECT_EQ(copy->count_params(), model->count_params());
  EXPECT_THROW(models::model_from_json("{\"class_name\": "), ValueError);
}

// ---- custom classes and safety -------------------------------------------------------------

class Scale : public Layer {
 public:
  explicit Scale(double factor, LayerOptions options = {})
      : Layer(std::move(options), "scale"), factor_(factor) {}
  std::string class_name() const override { return "Scale"; }
  Tensor call(const Tensor& x, const CallContext&) override { return ops::multiply(x, factor_); }
  Config get_config() const override {
    Config c = Layer::get_config();
    c["factor"] = factor_;
    return c;
  }
  static std::shared_ptr<Layer> from_config(const Config& c) {
    return make_layer<Scale>(c.at("factor").get<double>(),
                             LayerOptions{.name = c.at("name").get<std::string>()});
  }

 private:
  double factor_;
};

TEST(SaveModel, RegisteredCustomLayersRoundTripUnderTheirRegisteredName) {
  saving::register_keras_serializable<Scale>("my_package", "Scale");
  backend::clear_session();
  auto model = Sequential({Input({2}), make_layer<Scale>(3.0), layers::Dense(1)});
  Config record = saving::model_record(*model);
  const Config& scale = record["config"]["layers"][1];
  EXPECT_EQ(scale["registered_name"], "my_package>Scale");
  EXPECT_EQ(scale["module"], "my_package");
  std::string path = temp_path("custom.keras");
  model->save(path);
  auto loaded = saving::load_model(path);
  Tensor x = uniform({4, 2}, 7);
  EXPECT_TENSOR_EQ(loaded->predict(x, {.verbose = 0}).single(),
                   model->predict(x, {.verbose = 0}).single());
}

TEST(SaveModel, UnknownClassesAndPythonLambdasAreRefusedWithTheFix) {
  Config record = {
      {"module", "keras"},
      {"class_name", "Sequential"},
      {"registered_name", nullptr},
      {"config",
       {{"name", "s"},
        {"layers",
         {{{"module", "keras.layers"},
           {"class_name", "InputLayer"},
           {"config", {{"batch_shape", {nullptr, 2}}, {"dtype", "float32"}, {"name", "in"}}}},
          {{"module", "acme.layers"},
           {"class_name", "Fancy"},
           {"config", {{"name", "fancy"}}},
           {"registered_name", "acme>Fancy"}}}}}}};
  try {
    saving::deserialize_keras_object(record);
    FAIL() << "an unregistered class loaded";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("register_keras_serializable"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("Fancy"), std::string::npos) << e.what();
  }
  Config lambda = record;
  lambda["config"]["layers"][1] = {
      {"module", "keras.layers"},
      {"class_name", "Lambda"},
      {"config",
       {{"name", "lambda"},
        {"function", {{"class_name", "__lambda__"}, {"config", {{"code", "4wEAAAAAAAAA"}}}}}}},
      {"registered_name", nullptr}};
  EXPECT_THROW(saving::deserialize_keras_object(lambda), ValueError);
  EXPECT_THROW(saving::deserialize_keras_object(lambda, {.safe_mode = false}), ValueError);
}

TEST(SaveModel, BadPathsAndFilesGiveClearErrors) {
  backend::clear_session();
  auto model = small_mlp();
  EXPECT_THROW(model->save(temp_path("model.txt")), ValueError);
  EXPECT_THROW(model->save(temp_path("model.h5")), ValueError);
  EXPECT_THROW(model->save("/nonexistent-folder/m.keras"), IOError);
  EXPECT_THROW(saving::load_model(temp_path("missing.keras")), IOError);
  std::string junk = temp_path("junk.keras");
  { std::ofstream(junk) << "not a model"; }
  EXPECT_THROW(saving::load_model(junk), IOError);
  // A .weights.h5 file is not a model.
  std::string weights = temp_path("w.weights.h5");
  model->save_weights(weights);
  EXPECT_THROW(saving::load_model(weights), Error);
}

// ---- the real files ------------------------------------------------------------------------

TEST(RealKerasFiles, FashionMnistCnnLoadsAndPredictsAsTheFileDoes) {
  std::string path = shared_model("fashion_mnist_cnn.keras");
  if (!fs::exists(path)) GTEST_SKIP() << path << " is not here";
  auto model = saving::load_model(path);
  EXPECT_EQ(model->class_name(), "Sequential");
  EXPECT_EQ(model->count_params(), 121930);
  ASSERT_TRUE(model->compiled());
  EXPECT_EQ(model->optimizer()->class_name(), "Adam");
  GoldenOps ops;
  ops["predict"] = [&](const TensorList& in, const json&) {
    return TensorList{model->predict(in[0], {.verbose = 0}).single()};
  };
  ops["read_dataset"] = [&](const TensorList&, const json&) {
    return TensorList{model->get_layer("conv2d")->weights()[0].value()};
  };
  run_golden("fashion_mnist_cnn", ops);
}

TEST(RealKerasFiles, HeartFunctionalLoadsWithItsCompiledState) {
  std::string path = shared_model("heart_functional_bn.keras");
  if (!fs::exists(path)) GTEST_SKIP() << path << " is not here";
  auto model = saving::load_model(path);
  EXPECT_EQ(model->class_name(), "Functional");
  std::vector<std::string> classes;
  for (const auto& layer : model->layers()) classes.push_back(layer->class_name());
  EXPECT_EQ(classes, (std::vector<std::string>{"InputLayer", "Dense", "BatchNormalization",
                                               "Dropout", "Dense", "Dense"}));
  ASSERT_TRUE(model->compiled());
  // The file's AUC metric record comes back as an AUC metric.
  bool has_auc = false;
  for (const auto& m : model->metrics()) has_auc = has_auc || m->class_name() == "AUC";
  Tensor x = uniform({4, 11}, 12);
  model->evaluate(x, ops::ones({4, 1}), {.verbose = 0});
  for (const auto& m : model->metrics()) has_auc = has_auc || m->class_name() == "AUC";
  EXPECT_TRUE(has_auc);
}

// Members of a zip archive in their stored order, with their compression methods.
std::vector<std::pair<std::string, int>> zip_listing(const std::string& path) {
  int error = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_RDONLY, &error);
  EXPECT_NE(z, nullptr) << path;
  std::vector<std::pair<std::string, int>> out;
  if (!z) return out;
  for (zip_int64_t i = 0; i < zip_get_num_entries(z, 0); ++i) {
    zip_stat_t st;
    zip_stat_index(z, static_cast<zip_uint64_t>(i), 0, &st);
    out.emplace_back(st.name, st.comp_method);
  }
  zip_close(z);
  return out;
}

// Every group and dataset of an HDF5 file: datasets with their shape and dtype, groups with
// their "name" attribute.
void walk(const saving::H5File& f, const std::string& path, std::map<std::string, std::string>& out) {
  for (const std::string& child : f.children(path)) {
    std::string p = path.empty() ? child : path + "/" + child;
    if (f.is_group(p)) {
      out[p] = "group name=" + f.string_attribute(p, "name").value_or("-");
      walk(f, p, out);
    } else {
      Tensor t = f.read(p);
      out[p] = std::string(dtype_name(t.dtype())) + " " + t.shape().to_string();
    }
  }
}

std::map<std::string, std::string> weights_layout(const std::string& keras_file) {
  auto bytes = saving::read_file_bytes(keras_file);
  auto members = saving::read_zip_members(bytes, keras_file);
  auto f = saving::H5File::open_image(members.at("model.weights.h5"), keras_file);
  std::map<std::string, std::string> out;
  walk(f, "", out);
  return out;
}

Config config_of(const std::string& keras_file) {
  auto bytes = saving::read_file_bytes(keras_file);
  auto members = saving::read_zip_members(bytes, keras_file);
  const auto& c = members.at("config.json");
  return Config::parse(c.begin(), c.end());
}

std::set<std::string> keys(const Config& object) {
  std::set<std::string> out;
  for (const auto& [k, v] : object.items()) out.insert(k);
  return out;
}

// The config keys Keras 3.15 writes that the Keras 3.10 files of ../shared/models do not have
// (keras-cpp writes the 3.15 dialect; tests/oracle compares its configs with 3.15's own).
std::set<std::string> keys_before_3_15(const Config& config, const std::string& class_name) {
  static const std::map<std::string, std::set<std::string>> added = {
      {"Dense", {"quantization_config"}},
      {"EinsumDense", {"quantization_config"}},
      {"Embedding", {"quantization_config"}},
      {"BatchNormalization", {"renorm", "renorm_clipping", "renorm_momentum"}}};
  std::set<std::string> out = keys(config);
  auto it = added.find(class_name);
  if (it != added.end())
    for (const std::string& k : it->second) out.erase(k);
  return out;
}

// What keras-cpp writes for a model it loaded from a Keras file has Keras's structure: the
// same members in the same order, stored; the same HDF5 paths, dtypes, shapes and names; the
// same keys in every layer record and config (less the keys 3.15 adds), and in compile_config.
void expect_same_structure_as_keras(const std::string& name) {
  std::string original = shared_model(name);
  if (!fs::exists(original)) GTEST_SKIP() << original << " is not here";
  std::string copy = temp_path("resaved_" + name);
  saving::load_model(original)->save(copy);

  EXPECT_EQ(zip_listing(copy), zip_listing(original));
  EXPECT_EQ(weights_layout(copy), weights_layout(original));

  Config theirs = config_of(original), ours = config_of(copy);
  EXPECT_EQ(keys(ours), keys(theirs));
  EXPECT_EQ(keys(ours["config"]), keys(theirs["config"]));
  EXPECT_EQ(keys(ours["compile_config"]), keys(theirs["compile_config"]));
  EXPECT_EQ(keys(ours["compile_config"]["optimizer"]["config"]),
            keys(theirs["compile_config"]["optimizer"]["config"]));
  const Config& a = ours["config"]["layers"];
  const Config& b = theirs["config"]["layers"];
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(b[i]["class_name"].get<std::string>());
    EXPECT_EQ(a[i]["class_name"], b[i]["class_name"]);
    EXPECT_EQ(keys(a[i]), keys(b[i]));
    EXPECT_EQ(keys_before_3_15(a[i]["config"], b[i]["class_name"].get<std::string>()),
              keys(b[i]["config"]));
    if (b[i].contains("build_config")) {
      EXPECT_EQ(a[i]["build_config"], b[i]["build_config"]);
    }
    if (b[i].contains("inbound_nodes")) {
      ASSERT_EQ(a[i]["inbound_nodes"].size(), b[i]["inbound_nodes"].size());
      for (size_t n = 0; n < b[i]["inbound_nodes"].size(); ++n)
        EXPECT_EQ(a[i]["inbound_nodes"][n]["args"], b[i]["inbound_nodes"][n]["args"]);
    }
  }
  if (theirs["config"].contains("input_layers")) {
    EXPECT_EQ(ours["config"]["input_layers"], theirs["config"]["input_layers"]);
    EXPECT_EQ(ours["config"]["output_layers"], theirs["config"]["output_layers"]);
  }
}

TEST(RealKerasFiles, ResavedCnnHasKerasStructure) {
  expect_same_structure_as_keras("fashion_mnist_cnn.keras");
}

TEST(RealKerasFiles, ResavedFunctionalHasKerasStructure) {
  expect_same_structure_as_keras("heart_functional_bn.keras");
}

}  // namespace
}  // namespace keras
