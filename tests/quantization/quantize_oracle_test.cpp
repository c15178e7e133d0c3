// int8 quantization against Keras 3.15 (tools/keras_oracle/quantize.py): Keras quantized seeded
// float models with model.quantize("int8") and saved both; keras-cpp
//   - loads Keras's quantized files and predicts what Keras predicted,
//   - quantizes the float files itself and gets Keras's variables (int8 kernels bit for bit,
//     scales) and outputs,
//   - saves a quantized model whose config entries and weight datasets (names, order, dtypes,
//     values) are those of Keras's file.
// The other direction, Keras loading keras-cpp's quantized files, is the live round trip
// (tools/interop/quantize.cpp, scripts/interop.sh).

#include <gtest/gtest.h>

#include <filesystem>

#include "assertions.h"
#include "keras/keras.h"
#include "keras_quantized_files.h"

namespace keras {
namespace {

const std::vector<std::string> kCases = {"dense_mlp",    "dense_rank3", "einsum_dense",
                                         "einsum_heads", "embedding"};

const test::KerasQuantizedFiles& keras_files() {
  static const auto* f = new test::KerasQuantizedFiles("quantize");
  return *f;
}

void expect_predicts(Model& model, const std::string& name, const std::string& key,
                     const std::string& what) {
  Tensor y = model.predict(TensorStruct(keras_files().at(name + ".x")), {.verbose = 0}).flat().at(0);
  EXPECT_TRUE(test::tensors_near(y, keras_files().at(key), 1e-5, 1e-6)) << what;
}

TEST(QuantizeOracle, KerasInt8FilesLoadAndPredictTheSame) {
  for (const std::string& name : kCases) {
    backend::clear_session();
    auto model = saving::load_model(keras_files().file(name + "_int8"));
    keras_files().expect_variables(*model, name + ".int8");
    // Traced twice, then replayed: the compiled predict (the fused int8 kernels) as well.
    for (int call = 0; call < 3; ++call)
      expect_predicts(*model, name, name + ".int8", name + " (Keras's int8 file)");
    EXPECT_EQ(model->predict_function().fallback_reason(), "") << name;
    EXPECT_GE(model->predict_function().replay_count(), 1) << name;
  }
}

TEST(QuantizeOracle, QuantizingTheFloatModelGivesKerasVariablesAndOutputs) {
  for (const std::string& name : kCases) {
    backend::clear_session();
    auto model = saving::load_model(keras_files().file(name + "_float"));
    // Three calls: a compiled step traces on its first two and replays from the third, so
    // quantize() must drop the program traced with the float weights (as Keras resets its
    // predict_function).
    for (int call = 0; call < 3; ++call)
      expect_predicts(*model, name, name + ".float", name + " (float)");
    model->quantize("int8");
    keras_files().expect_variables(*model, name + ".int8");
    expect_predicts(*model, name, name + ".int8", name + " (quantized by keras-cpp)");
  }
}

TEST(QuantizeOracle, SavedFileHasKerassConfigsAndWeightLayout) {
  for (const std::string& name : kCases) {
    backend::clear_session();
    auto model = saving::load_model(keras_files().file(name + "_float"));
    model->quantize("int8");
    const std::string ours =
        (std::filesystem::temp_directory_path() / ("quantized_" + name + ".keras")).string();
    model->save(ours);
    test::expect_same_quantized_file(ours, keras_files().file(name + "_int8"), name);
    std::filesystem::remove(ours);
  }
}

}  // namespace
}  // namespace keras
