// Layer::quantize and the quantized dtype policies: Keras's checks and errors, the variables a
// quantized Dense or Embedding creates, and the int8 Dense's input gradient against Keras's
// custom gradient (tools/keras_oracle/quantize.py).

#include <gtest/gtest.h>

#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/save_model.h"
#include "keras/utils/npy.h"

namespace keras {
namespace {

TEST(QuantizedPolicy, NamesParseAsKerasDtypePolicies) {
  DTypePolicy p = DTypePolicy::from_name("int8_from_float32");
  EXPECT_EQ(p.quantization_mode, "int8");
  EXPECT_EQ(p.source_name(), "float32");
  EXPECT_EQ(p.compute_dtype, DType::Float32);
  EXPECT_EQ(p.serialize()["class_name"], "QuantizedDTypePolicy");
  DTypePolicy int4 = DTypePolicy::from_name("int4/128_from_mixed_bfloat16");
  EXPECT_EQ(int4.quantization_mode, "int4");
  EXPECT_EQ(int4.block_size, 128);
  EXPECT_EQ(int4.serialize()["config"]["mode"], "int4/128");
  EXPECT_EQ(DTypePolicy::deserialize(int4.serialize()).name, int4.name);
  EXPECT_THROW(DTypePolicy::from_name("int8_from_float16"), ValueError);
  EXPECT_THROW(DTypePolicy::from_name("int3_from_float32"), ValueError);
  EXPECT_THROW(DTypePolicy::from_name("int4/0_from_float32"), ValueError);
  EXPECT_THROW(DTypePolicy::from_name("int8_from_float99"), ValueError);
}

TEST(Quantize, DenseGainsKerasInt8Variables) {
  auto dense = layers::Dense(3, {.name = "d"});
  (*dense)(ops::zeros({1, 4}));
  std::vector<float> w = {0.5f, -1.0f, 0.25f, 2.0f, 0.0f, -0.5f, 1.0f, 0.1f, -2.0f, 0.0f, 0.3f, 1.0f};
  dense->set_weights({ops::convert_to_tensor(w, {4, 3}), ops::zeros({3})});
  dense->quantize("int8");
  EXPECT_EQ(dense->dtype_policy().name, "int8_from_float32");
  EXPECT_EQ(dense->kernel().dtype(), DType::Int8);
  EXPECT_FALSE(dense->kernel_variable().trainable());
  EXPECT_EQ(dense->kernel_scale().shape(), (Shape{3}));
  // Column 0: max |w| = 2, so scale 127 / 2 and 0.5 -> round(31.75) = 32, 2 -> 127.
  auto k = dense->kernel().to_vector<int8_t>();
  EXPECT_EQ(k[0], 32);
  EXPECT_EQ(k[3], 127);
  EXPECT_EQ(k[9], 0);
  EXPECT_NEAR(dense->kernel_scale().value().to_vector<float>()[0], 127 / (2 + 1e-7), 1e-4);
  std::vector<std::string> names;
  for (const Variable& v : dense->variables_to_save()) names.push_back(v.name());
  EXPECT_EQ(names, (std::vector<std::string>{"kernel", "bias", "kernel_scale"}));
  EXPECT_EQ(dense->get_config()["quantization_config"]["class_name"], "Int8QuantizationConfig");
}

TEST(Quantize, KerassChecks) {
  auto unbuilt = layers::Dense(2);
  EXPECT_THROW(unbuilt->quantize("int8"), ValueError);
  auto dense = layers::Dense(2);
  (*dense)(ops::zeros({1, 3}));
  EXPECT_THROW(dense->quantize("int3"), ValueError);
  EXPECT_THROW(dense->quantize("gptq"), ValueError);  // needs a config, as Keras
  dense->quantize("int8");
  EXPECT_THROW(dense->quantize("int8"), ValueError);  // already quantized
  auto half = layers::Dense(2, {.dtype = "float16"});
  (*half)(ops::zeros({1, 3}, DType::Float16));
  EXPECT_THROW(half->quantize("int8"), ValueError);
  auto flatten = layers::Flatten();
  (*flatten)(ops::zeros({1, 3}));
  EXPECT_THROW(flatten->quantize("int8"), NotImplementedError);
}

TEST(Quantize, EinsumDenseWithEllipsisIsRefusedAsKerasFails) {
  auto layer = layers::EinsumDense("...b,bc->...c", 5);
  (*layer)(ops::zeros({1, 2, 7}));
  EXPECT_THROW(layer->quantize("int8"), TypeError);
  EXPECT_EQ(layer->kernel().dtype(), DType::Float32);  // untouched
}

TEST(Quantize, ModelQuantizeSkipsLayersWithoutWeightsToQuantize) {
  auto model = Sequential({Input({4}), layers::Dense(5), layers::Flatten(), layers::Dense(2)});
  model->quantize("int8");
  int quantized = 0;
  for (const auto& layer : model->layers()) quantized += layer->quantization_mode() == "int8";
  EXPECT_EQ(quantized, 2);
  Tensor y = model->predict(TensorStruct(ops::ones({3, 4})), {.verbose = 0}).flat().at(0);
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
}

TEST(Quantize, DensePolicyBuildsQuantizedVariables) {
  auto dense = layers::Dense(4, {.dtype = "int8_from_float32"});
  (*dense)(ops::zeros({2, 6}));
  EXPECT_EQ(dense->kernel().dtype(), DType::Int8);
  EXPECT_EQ(dense->kernel().shape(), (Shape{6, 4}));
  EXPECT_EQ(dense->kernel_scale().shape(), (Shape{4}));
  auto embed = layers::Embedding(9, 3, {.dtype = "int8_from_float32"});
  (*embed)(ops::zeros({2}, DType::Int32));
  EXPECT_EQ(embed->embeddings().dtype(), DType::Int8);
  EXPECT_EQ(embed->embeddings_scale().shape(), (Shape{9}));
}

TEST(QuantizeOracle, Int8InputGradientIsKerassCustomGradient) {
  auto fx = utils::load_npz(test::oracle_path("quantize"));
  for (const std::string name : {"dense_mlp", "dense_rank3", "einsum_dense", "einsum_heads"}) {
    backend::clear_session();
    auto model = saving::load_model(std::string(KERAS_ORACLE_DIR) + "/quantize/" + name +
                                    "_int8.keras");
    GradientTape tape;
    Tensor x = fx.at(name + ".x");
    tape.watch(x);
    Tensor loss = ops::sum((*model)(x));
    Tensor g = tape.gradient(loss, x);
    auto got = g.to_vector<float>(), want = fx.at(name + ".int8.grad").to_vector<float>();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], want[i], 1e-5 + 1e-5 * std::abs(want[i])) << name << "[" << i << "]";
  }
}

}  // namespace
}  // namespace keras
