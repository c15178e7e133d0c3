// int4's configs, policies, variables and errors against what Keras 3.15 wrote and raised
// (tests/oracle/fixtures/quantize_int4.json, from tools/keras_oracle/quantize_int4.py).

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::json;
using quantizers::Int4QuantizationConfig;

const json& keras_json() {
  static const json* j = [] {
    std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/quantize_int4.json");
    return new json(json::parse(in));
  }();
  return *j;
}

TEST(Int4Config, SerializesAsKeras) {
  const json& configs = keras_json()["configs"];
  EXPECT_EQ(Int4QuantizationConfig()->serialize(), configs["default"]);
  EXPECT_EQ(Int4QuantizationConfig({.block_size = 64})->serialize(), configs["block_64"]);
  EXPECT_EQ(Int4QuantizationConfig({.block_size = std::nullopt})->serialize(),
            configs["per_channel_none"]);
  EXPECT_EQ(Int4QuantizationConfig({.block_size = -1})->serialize(), configs["per_channel_minus1"]);
  EXPECT_EQ(Int4QuantizationConfig(
                {.block_size = std::nullopt,
                 .weight_quantizer = quantizers::AbsMaxQuantizer{.axis = std::vector{0},
                                                                 .value_range = {-8, 7}}})
                ->serialize(),
            configs["weight_quantizer"]);
  EXPECT_EQ(Int4QuantizationConfig({.block_size = -1,
                                    .activation_quantizer = quantizers::AbsMaxQuantizer{}})
                ->serialize(),
            configs["activation_quantizer"]);
  // quantize("int4") without a config uses Keras's default (block_size 128, weight-only).
  EXPECT_EQ(quantizers::QuantizationConfig::default_for("int4").serialize(), configs["default"]);
  // Keras's objects read back and written again unchanged.
  for (const auto& [name, config] : configs.items())
    EXPECT_EQ(quantizers::QuantizationConfig::deserialize(config)->serialize(), config) << name;
}

TEST(Int4Config, PoliciesAreKerass) {
  for (const auto& [name, keras] : keras_json()["policies"].items()) {
    DTypePolicy p = DTypePolicy::from_name(name);
    EXPECT_EQ(p.name, keras["name"]) << name;
    EXPECT_EQ(p.quantization_mode, "int4") << name;
    EXPECT_EQ(p.serialize(), keras["serialized"]) << name;
    EXPECT_EQ(DTypePolicy::deserialize(keras["serialized"]).serialize(), keras["serialized"]);
  }
  EXPECT_EQ(DTypePolicy::from_name("int4/32_from_mixed_bfloat16").compute_dtype, DType::BFloat16);
}

TEST(Int4Config, KerassErrors) {
  const json& errors = keras_json()["errors"];
  for (const char* name : {"block_size_0", "block_size_-2", "sub_channel_with_quantizer",
                           "weight_range", "policy_block_0", "policy_block_x"})
    EXPECT_EQ(errors[name], "ValueError") << name;
  EXPECT_THROW(Int4QuantizationConfig({.block_size = 0}), ValueError);
  EXPECT_THROW(Int4QuantizationConfig({.block_size = -2}), ValueError);
  EXPECT_THROW(Int4QuantizationConfig(
                   {.block_size = 8, .activation_quantizer = quantizers::AbsMaxQuantizer{}}),
               ValueError);
  EXPECT_THROW(Int4QuantizationConfig({.block_size = std::nullopt,
                                       .weight_quantizer = quantizers::AbsMaxQuantizer{
                                           .axis = std::vector{0}}}),
               ValueError);  // value_range (-127, 127), not (-8, 7)
  EXPECT_THROW(DTypePolicy::from_name("int4/0_from_float32"), ValueError);
  EXPECT_THROW(DTypePolicy::from_name("int4/x_from_float32"), ValueError);
  // A file's config is checked as Keras's from_config checks it.
  json bad = keras_json()["configs"]["block_64"];
  bad["config"]["block_size"] = 0;
  EXPECT_THROW(quantizers::QuantizationConfig::deserialize(bad), ValueError);
  // Keras cannot quantize an EinsumDense equation with "..." (TypeError), in int4 too.
  EXPECT_EQ(errors["einsum_ellipsis"], "TypeError");
  auto layer = layers::EinsumDense("...b,bc->...c", 5);
  (*layer)(ops::zeros({1, 2, 7}));
  EXPECT_THROW(layer->quantize("int4"), TypeError);
  EXPECT_EQ(layer->kernel().dtype(), DType::Float32);  // untouched
  // pack_int4 / unpack_int4 take int8 (Keras: TypeError).
  EXPECT_THROW(quantizers::pack_int4(ops::zeros({2, 2})), TypeError);
  EXPECT_THROW(quantizers::unpack_int4(ops::zeros({2, 2}), 3), TypeError);
}

TEST(Int4Quantize, DenseGainsKerassVariables) {
  auto dense = layers::Dense(5, {.name = "d"});
  (*dense)(ops::zeros({1, 6}));
  dense->quantize("int4", Int4QuantizationConfig({.block_size = 4}));
  EXPECT_EQ(dense->dtype_policy().name, "int4/4_from_float32");
  EXPECT_EQ(dense->kernel_variable().shape(), (Shape{6, 3}));  // ceil(5 / 2) packed columns
  EXPECT_EQ(dense->kernel_variable().dtype(), DType::Int8);
  EXPECT_EQ(dense->kernel().shape(), (Shape{6, 5}));  // Keras's kernel property: unpacked
  EXPECT_EQ(dense->kernel_scale().shape(), (Shape{2, 5}));
  EXPECT_EQ(dense->kernel_zero().shape(), (Shape{2, 5}));
  EXPECT_EQ(dense->g_idx().value().to_vector<float>(), (std::vector<float>{0, 0, 0, 0, 1, 1}));
  std::vector<std::string> names;
  for (const Variable& v : dense->variables_to_save()) names.push_back(v.name());
  EXPECT_EQ(names,
            (std::vector<std::string>{"kernel", "bias", "kernel_scale", "kernel_zero", "g_idx"}));
  EXPECT_THROW(dense->quantize("int4"), ValueError);  // already quantized

  auto per_channel = layers::Dense(3);
  (*per_channel)(ops::zeros({1, 4}));
  per_channel->quantize("int4", Int4QuantizationConfig({.block_size = -1}));
  EXPECT_EQ(per_channel->dtype_policy().name, "int4/-1_from_float32");
  EXPECT_FALSE(per_channel->kernel_zero().defined());
  names.clear();
  for (const Variable& v : per_channel->variables_to_save()) names.push_back(v.name());
  EXPECT_EQ(names, (std::vector<std::string>{"kernel", "bias", "kernel_scale"}));
}

TEST(Int4Quantize, PoliciesBuildInt4Variables) {
  auto dense = layers::Dense(7, {.dtype = "int4/128_from_float32"});
  (*dense)(ops::zeros({2, 300}));
  EXPECT_EQ(dense->kernel_variable().shape(), (Shape{300, 4}));
  EXPECT_EQ(dense->kernel_scale().shape(), (Shape{3, 7}));  // ceil(300 / 128) groups
  EXPECT_EQ(dense->g_idx().shape(), (Shape{300}));
  // The legacy "int4_from_float32" (Keras's QuantizedDTypePolicy) is per channel.
  auto legacy = layers::Dense(7, {.dtype = "int4_from_float32"});
  (*legacy)(ops::zeros({2, 3}));
  EXPECT_EQ(legacy->kernel_scale().shape(), (Shape{7}));
  EXPECT_FALSE(legacy->kernel_zero().defined());
  auto embed = layers::Embedding(9, 5, {.dtype = "int4/2_from_float32"});
  (*embed)(ops::zeros({2}, DType::Int32));
  EXPECT_EQ(embed->embeddings_variable().shape(), (Shape{9, 3}));
  EXPECT_EQ(embed->embeddings_scale().shape(), (Shape{9, 3}));
  EXPECT_EQ(embed->g_idx().value().to_vector<float>(), (std::vector<float>{0, 0, 1, 1, 2}));
  auto einsum = layers::EinsumDense("abc,cde->abde", {layers::kNone, 2, 3},
                                    {.dtype = "int4/-1_from_float32"});
  (*einsum)(ops::zeros({1, 4, 5}));
  EXPECT_EQ(einsum->kernel_variable().shape(), (Shape{5, 3}));  // (c, d * e) packed: 6 -> 3
  EXPECT_EQ(einsum->kernel_scale().shape(), (Shape{6}));
  EXPECT_EQ(einsum->kernel().shape(), (Shape{5, 2, 3}));
}

int64_t weight_bytes(const Model& model) {
  int64_t bytes = 0;
  for (const Variable& v : model.weights())
    bytes += v.value().size() * static_cast<int64_t>(itemsize(v.dtype()));
  return bytes;
}

// The weights of a Fashion-MNIST-sized MLP (784-256-128-10): float32, int8, and int4 per channel
// and in Keras's default blocks of 128 (the figures docs/quantization.md quotes).
TEST(Int4Quantize, WeightsAreAboutEightTimesSmallerThanFloat32) {
  auto mlp = [] {
    return Sequential({Input({784}), layers::Dense(256, {.activation = "relu"}),
                       layers::Dense(128, {.activation = "relu"}), layers::Dense(10)});
  };
  auto float_model = mlp(), int8 = mlp(), int4 = mlp(), int4_blocks = mlp();
  int8->quantize("int8");
  int4->quantize("int4", Int4QuantizationConfig({.block_size = -1}));
  int4_blocks->quantize("int4");
  const int64_t f = weight_bytes(*float_model), i8 = weight_bytes(*int8),
                i4 = weight_bytes(*int4), i4b = weight_bytes(*int4_blocks);
  // Kernels 784*256 + 256*128 + 128*10 = 234752 values; 394 biases and per-channel scales.
  EXPECT_EQ(f, 234752 * 4 + 394 * 4);
  EXPECT_EQ(i8, 234752 + 394 * 4 * 2);
  EXPECT_EQ(i4, (784 * 128 + 256 * 64 + 128 * 5) + 394 * 4 * 2);
  // Blocks of 128: 7 + 2 + 1 groups of scales (float32) and zeros (int8) per unit, g_idx.
  EXPECT_EQ(i4b, 117376 + 394 * 4 + (7 * 256 + 2 * 128 + 10) * 5 + (784 + 256 + 128) * 4);
  std::cout << "weights of 784-256-128-10: float32 " << f << " B, int8 " << i8 << " B ("
            << static_cast<double>(f) / static_cast<double>(i8) << "x), int4 per channel " << i4
            << " B (" << static_cast<double>(f) / static_cast<double>(i4) << "x), int4/128 " << i4b
            << " B (" << static_cast<double>(f) / static_cast<double>(i4b) << "x)\n";
}

}  // namespace
}  // namespace keras
