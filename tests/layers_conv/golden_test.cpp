// The convolution and pooling layers against PyTorch (tools/golden/layers_conv.py): outputs and
// the gradients of sum(output * upstream) for the input and every trainable weight, in both
// data formats, on the fused kernels and on the decompositions; Conv2D -> MaxPooling2D as a
// Sequential model (fused into one op on the cpu backend).

#include <gtest/gtest.h>

#include "golden.h"
#include "keras/keras.h"
#include "layer_harness.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

ops::IntOrTuple int_or_tuple(const json& v) {
  if (v.is_number_integer()) return ops::IntOrTuple(v.get<int64_t>());
  return ops::IntOrTuple(v.get<std::vector<int64_t>>());
}

std::string dtype_of(const Tensor& t) {
  return std::string(dtype_name(t.dtype()));
}

TensorList conv(const TensorList& in, const json& kw) {
  layers::Conv2DOptions o{.strides = int_or_tuple(kw["strides"]),
                          .padding = kw["padding"].get<std::string>(),
                          .data_format = kw["data_format"].get<std::string>(),
                          .dilation_rate = int_or_tuple(kw["dilation_rate"]),
                          .groups = kw["groups"].get<int64_t>(),
                          .activation = kw["activation"].get<std::string>(),
                          .use_bias = kw["use_bias"].get<bool>(),
                          .dtype = dtype_of(in[0])};
  const int64_t filters = kw["filters"].get<int64_t>();
  const ops::IntOrTuple k = int_or_tuple(kw["kernel_size"]);
  switch (kw["rank"].get<int>()) {
    case 1:
      return run_layer_fixture(*layers::Conv1D(filters, k, o), in, kw);
    case 2:
      return run_layer_fixture(*layers::Conv2D(filters, k, o), in, kw);
    default:
      return run_layer_fixture(*layers::Conv3D(filters, k, o), in, kw);
  }
}

// Sequential([Conv2D, MaxPooling2D()]): the pair the cpu backend fuses into one op.
TensorList conv_max_pool(const TensorList& in, const json& kw) {
  layers::Conv2DOptions o{.strides = int_or_tuple(kw["strides"]),
                          .padding = kw["padding"].get<std::string>(),
                          .groups = kw["groups"].get<int64_t>(),
                          .activation = kw["activation"].get<std::string>(),
                          .use_bias = kw["use_bias"].get<bool>(),
                          .dtype = dtype_of(in[0])};
  auto model = Sequential({layers::Conv2D(kw["filters"].get<int64_t>(),
                                          int_or_tuple(kw["kernel_size"]), o),
                           layers::MaxPooling2D(2, {.dtype = dtype_of(in[0])})});
  return run_layer_fixture(*model, in, kw);
}

TensorList conv_transpose(const TensorList& in, const json& kw) {
  layers::BaseConvTransposeOptions o{.strides = int_or_tuple(kw["strides"]),
                                     .padding = kw["padding"].get<std::string>(),
                                     .data_format = kw["data_format"].get<std::string>(),
                                     .dilation_rate = int_or_tuple(kw["dilation_rate"]),
                                     .activation = kw["activation"].get<std::string>(),
                                     .use_bias = kw["use_bias"].get<bool>(),
                                     .dtype = dtype_of(in[0])};
  if (!kw["output_padding"].is_null()) o.output_padding = int_or_tuple(kw["output_padding"]);
  const int64_t filters = kw["filters"].get<int64_t>();
  const ops::IntOrTuple k = int_or_tuple(kw["kernel_size"]);
  switch (kw["rank"].get<int>()) {
    case 1:
      return run_layer_fixture(*layers::Conv1DTranspose(filters, k, o), in, kw);
    case 2:
      return run_layer_fixture(*layers::Conv2DTranspose(filters, k, o), in, kw);
    default:
      return run_layer_fixture(*layers::Conv3DTranspose(filters, k, o), in, kw);
  }
}

TensorList depthwise_conv(const TensorList& in, const json& kw) {
  layers::DepthwiseConv2DOptions o{.strides = int_or_tuple(kw["strides"]),
                                   .padding = kw["padding"].get<std::string>(),
                                   .depth_multiplier = kw["depth_multiplier"].get<int64_t>(),
                                   .data_format = kw["data_format"].get<std::string>(),
                                   .dilation_rate = int_or_tuple(kw["dilation_rate"]),
                                   .activation = kw["activation"].get<std::string>(),
                                   .use_bias = kw["use_bias"].get<bool>(),
                                   .dtype = dtype_of(in[0])};
  const ops::IntOrTuple k = int_or_tuple(kw["kernel_size"]);
  if (kw["rank"].get<int>() == 1) return run_layer_fixture(*layers::DepthwiseConv1D(k, o), in, kw);
  return run_layer_fixture(*layers::DepthwiseConv2D(k, o), in, kw);
}

TensorList separable_conv(const TensorList& in, const json& kw) {
  layers::SeparableConv2DOptions o{.strides = int_or_tuple(kw["strides"]),
                                   .padding = kw["padding"].get<std::string>(),
                                   .data_format = kw["data_format"].get<std::string>(),
                                   .dilation_rate = int_or_tuple(kw["dilation_rate"]),
                                   .depth_multiplier = kw["depth_multiplier"].get<int64_t>(),
                                   .activation = kw["activation"].get<std::string>(),
                                   .use_bias = kw["use_bias"].get<bool>(),
                                   .dtype = dtype_of(in[0])};
  const int64_t filters = kw["filters"].get<int64_t>();
  const ops::IntOrTuple k = int_or_tuple(kw["kernel_size"]);
  if (kw["rank"].get<int>() == 1)
    return run_layer_fixture(*layers::SeparableConv1D(filters, k, o), in, kw);
  return run_layer_fixture(*layers::SeparableConv2D(filters, k, o), in, kw);
}

TensorList pool(const TensorList& in, const json& kw) {
  layers::BasePoolingOptions o{.padding = kw["padding"].get<std::string>(),
                               .data_format = kw["data_format"].get<std::string>(),
                               .dtype = dtype_of(in[0])};
  if (!kw["strides"].is_null()) o.strides = int_or_tuple(kw["strides"]);
  const ops::IntOrTuple p = int_or_tuple(kw["pool_size"]);
  const bool max = kw["mode"] == "max";
  switch (kw["rank"].get<int>()) {
    case 1:
      return max ? run_layer_fixture(*layers::MaxPooling1D(p, o), in, kw)
                 : run_layer_fixture(*layers::AveragePooling1D(p, o), in, kw);
    case 2:
      return max ? run_layer_fixture(*layers::MaxPooling2D(p, o), in, kw)
                 : run_layer_fixture(*layers::AveragePooling2D(p, o), in, kw);
    default:
      return max ? run_layer_fixture(*layers::MaxPooling3D(p, o), in, kw)
                 : run_layer_fixture(*layers::AveragePooling3D(p, o), in, kw);
  }
}

TensorList global_pool(const TensorList& in, const json& kw) {
  layers::BaseGlobalPoolingOptions o{.data_format = kw["data_format"].get<std::string>(),
                                     .keepdims = kw["keepdims"].get<bool>(),
                                     .dtype = dtype_of(in[0])};
  const bool max = kw["mode"] == "max";
  switch (kw["rank"].get<int>()) {
    case 1:
      return max ? run_layer_fixture(*layers::GlobalMaxPooling1D(o), in, kw)
                 : run_layer_fixture(*layers::GlobalAveragePooling1D(o), in, kw);
    case 2:
      return max ? run_layer_fixture(*layers::GlobalMaxPooling2D(o), in, kw)
                 : run_layer_fixture(*layers::GlobalAveragePooling2D(o), in, kw);
    default:
      return max ? run_layer_fixture(*layers::GlobalMaxPooling3D(o), in, kw)
                 : run_layer_fixture(*layers::GlobalAveragePooling3D(o), in, kw);
  }
}

TensorList adaptive_pool(const TensorList& in, const json& kw) {
  layers::BaseAdaptivePoolingOptions o{.data_format = kw["data_format"].get<std::string>(),
                                       .dtype = dtype_of(in[0])};
  const ops::IntOrTuple s = int_or_tuple(kw["output_size"]);
  const bool max = kw["mode"] == "max";
  switch (kw["rank"].get<int>()) {
    case 1:
      return max ? run_layer_fixture(*layers::AdaptiveMaxPooling1D(s, o), in, kw)
                 : run_layer_fixture(*layers::AdaptiveAveragePooling1D(s, o), in, kw);
    case 2:
      return max ? run_layer_fixture(*layers::AdaptiveMaxPooling2D(s, o), in, kw)
                 : run_layer_fixture(*layers::AdaptiveAveragePooling2D(s, o), in, kw);
    default:
      return max ? run_layer_fixture(*layers::AdaptiveMaxPooling3D(s, o), in, kw)
                 : run_layer_fixture(*layers::AdaptiveAveragePooling3D(s, o), in, kw);
  }
}

// GlobalAveragePooling1D called with a (batch, steps) mask: inputs x, mask, upstream.
TensorList gap1d_masked(const TensorList& in, const json& kw) {
  auto layer = layers::GlobalAveragePooling1D({.data_format = kw["data_format"].get<std::string>(),
                                               .keepdims = kw["keepdims"].get<bool>()});
  GradientTape tape;
  Tensor x = ops::stop_gradient(in[0]);
  tape.watch(x);
  Tensor y = layer(x, {.mask = in[1]});
  Tensor loss =
      ops::sum(ops::multiply(ops::cast(y, DType::Float64), ops::cast(in[2], DType::Float64)));
  return {y, tape.gradient(loss, x)};
}

GoldenOps conv_ops() {
  return {{"conv", conv},
          {"conv_max_pool", conv_max_pool},
          {"conv_transpose", conv_transpose},
          {"depthwise_conv", depthwise_conv},
          {"separable_conv", separable_conv}};
}

GoldenOps pooling_ops() {
  return {{"pool", pool},
          {"global_pool", global_pool},
          {"adaptive_pool", adaptive_pool},
          {"gap1d_masked", gap1d_masked}};
}

TEST(ConvGolden, FusedKernelsMatchTorch) {
  EXPECT_EQ(run_golden("layers_conv", conv_ops()).size(), 5u);
}

TEST(ConvGolden, DecomposedMatchesTorch) {
  backend::DecomposeScope decompose;
  run_golden("layers_conv", conv_ops());
}

TEST(PoolingGolden, FusedKernelsMatchTorch) {
  EXPECT_EQ(run_golden("layers_conv_pooling", pooling_ops()).size(), 4u);
}

TEST(PoolingGolden, DecomposedMatchesTorch) {
  backend::DecomposeScope decompose;
  run_golden("layers_conv_pooling", pooling_ops());
}

}  // namespace
}  // namespace keras
