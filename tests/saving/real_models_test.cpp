// Two more real Python Keras files of ../shared/models, rebuilt in C++ with the Functional API,
// their weights loaded from the files, must predict what NumPy re-implementations of the files
// predict (tools/golden/real_models.py):
// - heart_functional_bn.keras (Keras 3.10): Dense, BatchNormalization, Dropout, Dense, Dense;
// - churn_functional_keras2.h5 (Keras 2.13, legacy HDF5): Dense x4 and two Concatenates.

#include <gtest/gtest.h>

#include <filesystem>

#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/legacy_h5.h"
#include "keras/saving/save_model.h"
#include "keras/saving/weights.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

std::string model_path(const std::string& name) {
  return std::string(KERAS_SHARED_DIR) + "/models/" + name;
}

ModelPtr<FunctionalModel> heart_model() {
  backend::clear_session();
  auto inputs = Input({11});
  auto x = layers::Dense(128, {.activation = "relu"})(inputs);
  x = layers::BatchNormalization()(x);
  x = layers::Dropout(0.4)(x);
  x = layers::Dense(64, {.activation = "relu"})(x);
  auto outputs = layers::Dense(1, {.activation = "sigmoid"})(x);
  return Functional(inputs, outputs);
}

ModelPtr<FunctionalModel> churn_model() {
  backend::clear_session();
  auto inputs = Input({30});
  auto dense = layers::Dense(16, {.activation = "relu"})(inputs);
  auto dense_1 = layers::Dense(8, {.activation = "relu"})(dense);
  auto concatenate = layers::concatenate({dense, dense_1});
  auto dense_2 = layers::Dense(8, {.activation = "relu"})(concatenate);
  auto concatenate_1 = layers::concatenate({concatenate, dense_2});
  auto outputs = layers::Dense(1, {.activation = "sigmoid"})(concatenate_1);
  return Functional(inputs, outputs);
}

GoldenOps predict_with(Model& model) {
  GoldenOps ops;
  ops["predict"] = [&model](const TensorList& in, const json&) {
    return TensorList{model.predict(in[0], {.verbose = 0}).single()};
  };
  return ops;
}

TEST(RealKerasFile, HeartFunctionalBatchNormPredictsAsTheFileDoes) {
  const std::string path = model_path("heart_functional_bn.keras");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto model = heart_model();
  saving::load_weights(*model, path);
  run_golden("real_models_heart", predict_with(*model));
  // (11*128 + 128) + 4*128 + (128*64 + 64) + (64 + 1), as Keras counts them.
  EXPECT_EQ(model->count_params(), 10369);
}

TEST(RealKerasFile, ChurnKeras2H5PredictsAsTheFileDoes) {
  const std::string path = model_path("churn_functional_keras2.h5");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto model = churn_model();
  saving::legacy::load_legacy_weights(*model, path);
  run_golden("real_models_churn", predict_with(*model));
  // (30*16 + 16) + (16*8 + 8) + (24*8 + 8) + (32 + 1)
  EXPECT_EQ(model->count_params(), 865);
}

TEST(RealKerasFile, ChurnThroughSavingLoadWeights) {
  const std::string path = model_path("churn_functional_keras2.h5");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto model = churn_model();
  saving::load_weights(*model, path);  // dispatches a legacy .h5 to the legacy loader
  run_golden("real_models_churn", predict_with(*model));
}

TEST(RealKerasFile, ChurnThroughReadLegacyH5) {
  const std::string path = model_path("churn_functional_keras2.h5");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  auto file = saving::legacy::read_legacy_h5(path);
  EXPECT_EQ(file.keras_version, "2.13.1");
  EXPECT_EQ(file.backend, "tensorflow");
  EXPECT_EQ(file.model_config["class_name"], "Functional");
  EXPECT_EQ(file.compile_config["loss"], "binary_crossentropy");
  auto model = churn_model();
  file.load_weights(*model, false);
  run_golden("real_models_churn", predict_with(*model));
}

// The whole files through load_model: architecture from the config (the Keras 2 one
// translated), weights, compile state.
TEST(RealKerasFile, LoadModelHeartKeras) {
  const std::string path = model_path("heart_functional_bn.keras");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  backend::clear_session();
  auto model = saving::load_model(path);
  EXPECT_EQ(model->name(), "functional_7");
  EXPECT_EQ(model->count_params(), 10369);
  EXPECT_TRUE(model->compiled());
  run_golden("real_models_heart", predict_with(*model));
}

TEST(RealKerasFile, LoadModelChurnKeras2H5) {
  const std::string path = model_path("churn_functional_keras2.h5");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  backend::clear_session();
  auto model = saving::load_model(path);
  EXPECT_EQ(model->class_name(), "Functional");
  EXPECT_EQ(model->name(), "model");
  std::vector<std::string> names;
  for (const auto& layer : model->layers()) names.push_back(layer->name());
  EXPECT_EQ(names, (std::vector<std::string>{"input_1", "dense", "dense_1", "concatenate",
                                             "dense_2", "concatenate_1", "dense_3"}));
  EXPECT_EQ(model->count_params(), 865);
  EXPECT_TRUE(model->compiled());
  EXPECT_NEAR(model->optimizer()->learning_rate(), 0.0002, 1e-9);
  // summary(): the config's architecture (every layer frozen in the file: trainable=false);
  // the compiled model's optimizer, built for no trainable weights, holds its iteration count
  // and learning rate, which Keras counts in the total.
  const std::string summary = model->summary_string();
  for (const char* part : {"(None, 24)", "(None, 32)", "dense[0][0],", "dense_1[0][0]",
                           "Total params: 867", "Trainable params: 0 ",
                           "Non-trainable params: 865", "Optimizer params: 2 "})
    EXPECT_NE(summary.find(part), std::string::npos) << part << " not in\n" << summary;
  run_golden("real_models_churn", predict_with(*model));
  // Without compile: the same predictions, no optimizer.
  backend::clear_session();
  auto plain = saving::load_model(path, {.compile = false});
  EXPECT_FALSE(plain->compiled());
  run_golden("real_models_churn", predict_with(*plain));
}

TEST(RealKerasFile, ChurnLayerOrderMismatchIsAClearError) {
  const std::string path = model_path("churn_functional_keras2.h5");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  backend::clear_session();
  auto inputs = Input({30});
  auto model = Functional(inputs, layers::Dense(1)(layers::Dense(16)(inputs)));
  try {
    saving::legacy::load_legacy_weights(*model, path);
    FAIL() << "expected a layer count mismatch";
  } catch (const ValueError& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("Layer count mismatch"), std::string::npos) << message;
    EXPECT_NE(message.find("has 2 layers with weights"), std::string::npos) << message;
    EXPECT_NE(message.find("holds 4 [dense, dense_1, dense_2, dense_3]"), std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace keras
