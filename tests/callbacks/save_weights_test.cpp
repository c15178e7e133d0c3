// saving::save_weights: round trips (layers and optimizer), Keras's layout checked against a
// model.weights.h5 written by Python Keras for the same architecture, atomic writes, errors.

#include "keras/saving/save_weights.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "assertions.h"
#include "callback_test_util.h"
#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/weights.h"

namespace keras {
namespace {

using test::TempDir;

// path -> "group" or "<dtype> <shape>", for every object of the file (h5py's visit).
void list_objects(const saving::H5File& f, const std::string& path,
                  std::map<std::string, std::string>& out) {
  for (const std::string& child : f.children(path)) {
    std::string p = path.empty() ? child : path + "/" + child;
    if (f.is_group(p)) {
      out[p] = "group" + std::string(f.string_attribute(p, "name") ? " named" : "");
      list_objects(f, p, out);
    } else {
      Tensor t = f.read(p);
      out[p] = std::string(dtype_name(t.dtype())) + " " + t.shape().to_string();
    }
  }
}

std::map<std::string, std::string> structure(const saving::H5File& f) {
  std::map<std::string, std::string> out;
  out["/"] = "group";
  list_objects(f, "", out);
  return out;
}

ModelPtr<> small_model() {
  return Sequential({Input({3}), layers::Dense(4, {.activation = "relu"}), layers::Dense(2),
                     layers::Dense(1)});
}

TEST(SaveWeights, RoundTripsLayerWeights) {
  TempDir dir("sw");
  utils::set_random_seed(3);
  auto a = small_model();
  std::string path = dir.file("m.weights.h5");
  saving::save_weights(*a, path);
  auto b = small_model();  // other initial values
  ASSERT_FALSE(test::tensors_near(a->get_weights()[0], b->get_weights()[0], 0, 0));
  saving::load_weights(*b, path);
  auto wa = a->get_weights(), wb = b->get_weights();
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t i = 0; i < wa.size(); ++i) EXPECT_TRUE(test::tensors_near(wa[i], wb[i], 0, 0)) << i;
  // No temporary file is left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST(SaveWeights, LayoutOfASequentialModel) {
  TempDir dir("sw");
  auto model = small_model();
  model->compile({.optimizer = "adam", .loss = "mse"});
  std::string path = dir.file("m.weights.h5");
  model->save_weights(path);  // optimizer not built yet: no optimizer group
  auto s = structure(saving::H5File::open(path));
  std::map<std::string, std::string> expected = {
      {"/", "group"},
      {"layers", "group"},
      {"layers/dense", "group"},
      {"layers/dense/vars", "group named"},
      {"layers/dense/vars/0", "float32 (3, 4)"},
      {"layers/dense/vars/1", "float32 (4,)"},
      {"layers/dense_1", "group"},
      {"layers/dense_1/vars", "group named"},
      {"layers/dense_1/vars/0", "float32 (4, 2)"},
      {"layers/dense_1/vars/1", "float32 (2,)"},
      {"layers/dense_2", "group"},
      {"layers/dense_2/vars", "group named"},
      {"layers/dense_2/vars/0", "float32 (2, 1)"},
      {"layers/dense_2/vars/1", "float32 (1,)"},
      {"vars", "group named"},
  };
  EXPECT_EQ(s, expected);
  saving::H5File f = saving::H5File::open(path);
  EXPECT_EQ(f.string_attribute("vars", "name").value_or(""), model->name());
  EXPECT_EQ(f.string_attribute("layers/dense_1/vars", "name").value_or(""),
            model->layers()[1]->name());

  Tensor y;
  Tensor x = test::linear_data(16, &y);
  model->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0});
  model->save_weights(path);
  s = structure(saving::H5File::open(path));
  EXPECT_EQ(s.at("optimizer/vars"), "group named");
  EXPECT_EQ(s.at("optimizer/vars/0"), "int64 ()");    // iteration
  EXPECT_EQ(s.at("optimizer/vars/1"), "float32 ()");  // learning_rate
  EXPECT_EQ(s.at("optimizer/vars/2"), "float32 (3, 4)");  // kernel momentum
  EXPECT_EQ(s.at("optimizer/vars/3"), "float32 (3, 4)");  // kernel velocity
  EXPECT_EQ(s.at("optimizer/vars/13"), "float32 (1,)");
  EXPECT_EQ(s.count("optimizer/vars/14"), 0u);
  EXPECT_EQ(saving::H5File::open(path).string_attribute("optimizer/vars", "name").value_or(""),
            model->optimizer()->name());
  EXPECT_EQ(model->optimizer()->name().rfind("adam", 0), 0u);
}

TEST(SaveWeights, OptimizerVariablesRoundTripAndTrainingResumesExactly) {
  TempDir dir("sw");
  Tensor y;
  Tensor x = test::linear_data(32, &y);
  auto make = [] {
    auto m = small_model();
    m->compile({.optimizer = "adam", .loss = "mse"});
    return m;
  };
  utils::set_random_seed(5);
  auto a = make();
  a->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0, .shuffle = false});
  std::string path = dir.file("a.weights.h5");
  a->save_weights(path);
  auto b = make();
  b->load_weights(path);
  ASSERT_TRUE(b->optimizer()->built());
  auto va = a->optimizer()->variables(), vb = b->optimizer()->variables();
  ASSERT_EQ(va.size(), vb.size());
  for (size_t i = 0; i < va.size(); ++i)
    EXPECT_TRUE(test::tensors_near(va[i].value(), vb[i].value(), 0, 0)) << i;
  // One more epoch on both: bit-identical.
  a->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0, .shuffle = false});
  b->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0, .shuffle = false});
  auto wa = a->get_weights(), wb = b->get_weights();
  for (size_t i = 0; i < wa.size(); ++i) EXPECT_TRUE(test::tensors_near(wa[i], wb[i], 0, 0)) << i;

  // load_weights without the option leaves a fresh optimizer alone.
  auto c = make();
  saving::load_weights(*c, path);
  EXPECT_FALSE(c->optimizer()->built());
}

// Identity layers with another class's name and variables, to reproduce the layout of a real
// Keras file for layers this branch does not have (BatchNormalization, Dropout).
class StandIn : public Layer {
 public:
  StandIn(std::string cls, std::vector<std::pair<std::string, bool>> vars)
      : cls_(std::move(cls)), vars_(std::move(vars)) {}
  std::string class_name() const override { return cls_; }
  void build(const Shape& shape) override {
    for (const auto& [name, trainable] : vars_)
      add_weight({.shape = {shape.back()}, .initializer = "ones", .trainable = trainable,
                  .name = name});
  }
  Tensor call(const Tensor& x, const CallContext&) override { return x; }

 private:
  std::string cls_;
  std::vector<std::pair<std::string, bool>> vars_;
};

std::string shared_models_dir() {
  std::string dir = std::string(KERAS_SHARED_DIR) + "/models";
  if (!std::filesystem::exists(dir)) dir = "/work/shared/models";
  return dir;
}

TEST(SaveWeights, MatchesTheLayoutPythonKerasWroteForTheSameArchitecture) {
  std::string keras_file = shared_models_dir() + "/heart_functional_bn.keras";
  if (!std::filesystem::exists(keras_file)) GTEST_SKIP() << keras_file << " is not here";
  auto members = saving::read_zip_members(saving::read_file_bytes(keras_file), keras_file);
  saving::H5File real =
      saving::H5File::open_image(std::move(members.at("model.weights.h5")), keras_file);

  // Input(11) -> Dense(128, relu) -> BatchNormalization -> Dropout(0.4) -> Dense(64, relu)
  // -> Dense(1, sigmoid), compiled with Adam and trained.
  auto inputs = Input({11});
  auto h = layers::Dense(128, {.activation = "relu"})(inputs);
  h = make_layer<StandIn>("BatchNormalization",
                          std::vector<std::pair<std::string, bool>>{{"gamma", true},
                                                                    {"beta", true},
                                                                    {"moving_mean", false},
                                                                    {"moving_variance", false}})(h);
  h = make_layer<StandIn>("Dropout", std::vector<std::pair<std::string, bool>>{})(h);
  h = layers::Dense(64, {.activation = "relu"})(h);
  auto outputs = layers::Dense(1, {.activation = "sigmoid"})(h);
  auto model = Functional(inputs, outputs);
  model->compile({.optimizer = "adam", .loss = "binary_crossentropy"});
  Tensor x = random::uniform({8, 11});
  Tensor y = ops::cast(ops::greater(random::uniform({8, 1}), Tensor::from_vector<float>({0.5f}, {})),
                       DType::Float32);
  model->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0});
  TempDir dir("sw");
  std::string path = dir.file("heart.weights.h5");
  model->save_weights(path);
  EXPECT_EQ(structure(saving::H5File::open(path)), structure(real));
  // And Keras's file loads back into the model (layers and optimizer).
  model->load_weights(keras_file);
}

TEST(SaveWeights, RefusesOtherNamesAndUnbuiltModels) {
  TempDir dir("sw");
  auto model = small_model();
  EXPECT_THROW(saving::save_weights(*model, dir.file("m.h5")), ValueError);
  auto unbuilt = Sequential({layers::Dense(2)});
  EXPECT_THROW(saving::save_weights(*unbuilt, dir.file("u.weights.h5")), ValueError);
  EXPECT_THROW(saving::save_weights(*model, dir.file("missing/dir/m.weights.h5")), IOError);
}

}  // namespace
}  // namespace keras
