// int4 quantization against Keras 3.15 (tools/keras_oracle/quantize_int4.py): Keras quantized
// seeded float models with model.quantize("int4", Int4QuantizationConfig(...)) per channel and
// with blocks (some not dividing the input dimension; odd units so packing pads) and saved
// both; keras-cpp
//   - loads Keras's int4 files and predicts what Keras predicted (and its input gradients),
//   - quantizes the float files itself and gets Keras's packed kernels, zero points and g_idx
//     exactly, its scales to 1e-6 and its outputs,
//   - saves files whose config entries and weight datasets are those of Keras's files.
// Keras loading keras-cpp's int4 files is the live round trip (tools/interop, scripts/interop.sh).

#include <gtest/gtest.h>

#include <filesystem>

#include "assertions.h"
#include "keras/keras.h"
#include "keras_quantized_files.h"

namespace keras {
namespace {

const test::KerasQuantizedFiles& keras_files() {
  static const auto* f = new test::KerasQuantizedFiles("quantize_int4");
  return *f;
}

struct Case {
  std::string name;
  std::vector<std::string> settings;
};

// As tools/keras_oracle/quantize_int4.py writes them.
const std::vector<Case> kCases = {
    {"dense_mlp", {"per_channel", "pc_minus1", "b4", "b5", "default", "act"}},
    {"dense_rank3", {"per_channel", "b3"}},
    {"einsum_dense", {"per_channel", "b4", "act"}},
    {"einsum_heads", {"per_channel", "b3"}},
    {"einsum_transposed", {"per_channel", "b4"}},
    {"embedding", {"per_channel", "b3"}},
};

// The config the generator passed for `setting` (null: quantize("int4") with Keras's default).
quantizers::QuantizationConfigPtr config_of(const std::string& setting) {
  using quantizers::Int4QuantizationConfig;
  if (setting == "default") return nullptr;
  if (setting == "per_channel") return Int4QuantizationConfig({.block_size = std::nullopt});
  if (setting == "pc_minus1") return Int4QuantizationConfig({.block_size = -1});
  if (setting == "act")
    return Int4QuantizationConfig(
        {.block_size = -1, .activation_quantizer = quantizers::AbsMaxQuantizer{}});
  return Int4QuantizationConfig({.block_size = std::stoll(setting.substr(1))});  // "b<n>"
}

Tensor predict(Model& model, const Tensor& x) {
  return model.predict(TensorStruct(x), {.verbose = 0}).flat().at(0);
}

void expect_predicts_keras(Model& model, const std::string& name, const std::string& key) {
  EXPECT_TRUE(test::tensors_near(predict(model, keras_files().at(name + ".x")),
                                 keras_files().at(key), 1e-5, 1e-6))
      << key;
}

TEST(QuantizeInt4Oracle, KerasInt4FilesLoadAndPredictTheSame) {
  for (const Case& c : kCases)
    for (const std::string& setting : c.settings) {
      backend::clear_session();
      const std::string key = c.name + "." + setting;
      auto model = saving::load_model(keras_files().file(c.name + "_" + setting));
      keras_files().expect_variables(*model, key);
      // Traced twice, then replayed: a compiled predict of an int4 model does not fall back.
      for (int call = 0; call < 3; ++call) expect_predicts_keras(*model, c.name, key);
      EXPECT_EQ(model->predict_function().fallback_reason(), "") << key;
      EXPECT_GE(model->predict_function().replay_count(), 1) << key;
    }
}

TEST(QuantizeInt4Oracle, QuantizingTheFloatModelGivesKerasVariablesAndOutputs) {
  for (const Case& c : kCases)
    for (const std::string& setting : c.settings) {
      backend::clear_session();
      const std::string key = c.name + "." + setting;
      auto model = saving::load_model(keras_files().file(c.name + "_float"));
      // Three float calls first: a compiled step replays from the third, and quantize() must
      // drop it.
      for (int call = 0; call < 3; ++call) expect_predicts_keras(*model, c.name, c.name + ".float");
      model->quantize("int4", config_of(setting));
      keras_files().expect_variables(*model, key);
      // Traced twice, then replayed: a compiled predict of an int4 model does not fall back.
      for (int call = 0; call < 3; ++call) expect_predicts_keras(*model, c.name, key);
      EXPECT_EQ(model->predict_function().fallback_reason(), "") << key;
      EXPECT_GE(model->predict_function().replay_count(), 1) << key;
    }
}

TEST(QuantizeInt4Oracle, SavedFileHasKerassConfigsAndWeightLayout) {
  for (const Case& c : kCases)
    for (const std::string& setting : c.settings) {
      backend::clear_session();
      auto model = saving::load_model(keras_files().file(c.name + "_float"));
      model->quantize("int4", config_of(setting));
      const std::string ours =
          (std::filesystem::temp_directory_path() / ("int4_" + c.name + "_" + setting + ".keras"))
              .string();
      model->save(ours);
      test::expect_same_quantized_file(ours, keras_files().file(c.name + "_" + setting),
                                       c.name + " " + setting);
      std::filesystem::remove(ours);
    }
}

TEST(QuantizeInt4Oracle, InputGradientIsKerassCustomGradient) {
  for (const Case& c : kCases) {
    if (c.name == "embedding") continue;  // integer inputs
    for (const std::string& setting : c.settings) {
      backend::clear_session();
      const std::string key = c.name + "." + setting;
      auto model = saving::load_model(keras_files().file(c.name + "_" + setting));
      GradientTape tape;
      Tensor x = keras_files().at(c.name + ".x");
      tape.watch(x);
      Tensor g = tape.gradient(ops::sum((*model)(x)), x);
      EXPECT_TRUE(test::tensors_near(g, keras_files().at(key + ".grad"), 1e-5, 1e-5)) << key;
    }
  }
}

TEST(QuantizeInt4Oracle, PackAndUnpackAreKerassNibbles) {
  for (int n = 0; n < 5; ++n) {
    const std::string p = "pack." + std::to_string(n);
    const Tensor& x = keras_files().at(p + ".x");
    const int axis = static_cast<int>(keras_files().at(p + ".axis").item<int64_t>());
    const int a = axis < 0 ? axis + x.ndim() : axis;
    Tensor packed = quantizers::pack_int4(x, axis);
    EXPECT_TENSOR_EQ(packed, keras_files().at(p + ".packed"));
    EXPECT_TENSOR_EQ(quantizers::unpack_int4(keras_files().at(p + ".packed"),
                                             x.shape()[static_cast<size_t>(a)], axis),
                     keras_files().at(p + ".unpacked"));
  }
}

TEST(QuantizeInt4Oracle, GroupedQuantizerAndDequantizationAreKerass) {
  for (int n = 0; n < 4; ++n) {
    const std::string p = "grouped." + std::to_string(n);
    const Tensor& x = keras_files().at(p + ".x");
    const int64_t block = keras_files().at(p + ".block_size").item<int64_t>();
    quantizers::GroupedQuantized q = quantizers::abs_max_quantize_grouped_with_zero_point(x, block);
    EXPECT_TENSOR_EQ(q.values, keras_files().at(p + ".values"));
    EXPECT_TENSOR_EQ(q.zero, keras_files().at(p + ".zero"));
    EXPECT_TENSOR_NEAR(q.scale, keras_files().at(p + ".scale"), 1e-6, 0);
    Tensor g_idx = quantizers::group_index(x.shape()[0], block);
    EXPECT_TENSOR_NEAR(quantizers::dequantize_with_sz_map(keras_files().at(p + ".values"),
                                                          keras_files().at(p + ".scale"),
                                                          keras_files().at(p + ".zero"), g_idx, 0),
                       keras_files().at(p + ".dequantized"), 1e-6, 0);
  }
}

}  // namespace
}  // namespace keras
