// Convolutions and pooling against PyTorch (tools/golden/nn_conv.py), on the fused cpu kernels
// and on the decompositions into primitives.

#include <gtest/gtest.h>

#include "golden.h"
#include "keras/backend/backend.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;

ops::IntOrTuple int_or_tuple(const json& j) {
  if (j.is_array()) return ops::IntOrTuple(j.get<std::vector<int64_t>>());
  return ops::IntOrTuple(j.get<int64_t>());
}

std::optional<std::string> data_format(const json& kw) {
  if (!kw.contains("data_format")) return std::nullopt;
  return kw["data_format"].get<std::string>();
}

ops::ConvOptions conv_options(const json& kw) {
  ops::ConvOptions o;
  if (kw.contains("strides")) o.strides = int_or_tuple(kw["strides"]);
  if (kw.contains("padding")) o.padding = kw["padding"].get<std::string>();
  o.data_format = data_format(kw);
  if (kw.contains("dilation_rate")) o.dilation_rate = int_or_tuple(kw["dilation_rate"]);
  return o;
}

ops::ConvTransposeOptions conv_transpose_options(const json& kw) {
  ops::ConvOptions c = conv_options(kw);
  ops::ConvTransposeOptions o{c.strides, c.padding, std::nullopt, c.data_format, c.dilation_rate};
  if (kw.contains("output_padding")) o.output_padding = int_or_tuple(kw["output_padding"]);
  return o;
}

ops::PoolOptions pool_options(const json& kw) {
  ops::PoolOptions o;
  if (kw.contains("strides")) o.strides = int_or_tuple(kw["strides"]);
  if (kw.contains("padding")) o.padding = kw["padding"].get<std::string>();
  o.data_format = data_format(kw);
  return o;
}

ops::IntOrTuple kw_or(const json& kw, const char* key, int64_t fallback) {
  return kw.contains(key) ? int_or_tuple(kw[key]) : ops::IntOrTuple(fallback);
}

// The gradients of <g, f(inputs)> with respect to every input.
TensorList vjp(const std::function<Tensor(const TensorList&)>& f, TensorList inputs,
               const Tensor& g) {
  GradientTape tape;
  tape.watch(inputs);
  Tensor y = f(inputs);
  return tape.gradient(y, inputs, g);
}

GoldenOps conv_ops() {
  GoldenOps m;
  m["conv"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::conv(in[0], in[1], conv_options(kw))};
  };
  m["conv_transpose"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::conv_transpose(in[0], in[1], conv_transpose_options(kw))};
  };
  m["depthwise_conv"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::depthwise_conv(in[0], in[1], conv_options(kw))};
  };
  m["separable_conv"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::separable_conv(in[0], in[1], in[2], conv_options(kw))};
  };
  m["conv_vjp"] = [](const TensorList& in, const json& kw) {
    auto o = conv_options(kw);
    return vjp([&](const TensorList& x) { return ops::conv(x[0], x[1], o); }, {in[0], in[1]},
               in[2]);
  };
  m["conv_transpose_vjp"] = [](const TensorList& in, const json& kw) {
    auto o = conv_transpose_options(kw);
    return vjp([&](const TensorList& x) { return ops::conv_transpose(x[0], x[1], o); },
               {in[0], in[1]}, in[2]);
  };
  m["max_pool"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::max_pool(in[0], int_or_tuple(kw["pool_size"]), pool_options(kw))};
  };
  m["average_pool"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::average_pool(in[0], int_or_tuple(kw["pool_size"]), pool_options(kw))};
  };
  m["max_pool_vjp"] = [](const TensorList& in, const json& kw) {
    auto o = pool_options(kw);
    auto size = int_or_tuple(kw["pool_size"]);
    return vjp([&](const TensorList& x) { return ops::max_pool(x[0], size, o); }, {in[0]}, in[1]);
  };
  m["average_pool_vjp"] = [](const TensorList& in, const json& kw) {
    auto o = pool_options(kw);
    auto size = int_or_tuple(kw["pool_size"]);
    return vjp([&](const TensorList& x) { return ops::average_pool(x[0], size, o); }, {in[0]},
               in[1]);
  };
  m["adaptive_average_pool"] = [](const TensorList& in, const json& kw) {
    return TensorList{
        ops::adaptive_average_pool(in[0], int_or_tuple(kw["output_size"]), data_format(kw))};
  };
  m["adaptive_max_pool"] = [](const TensorList& in, const json& kw) {
    return TensorList{
        ops::adaptive_max_pool(in[0], int_or_tuple(kw["output_size"]), data_format(kw))};
  };
  m["depth_to_space"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::depth_to_space(in[0], kw["block_size"].get<int64_t>(),
                                          kw.value("data_format", "channels_last"))};
  };
  m["space_to_depth"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::space_to_depth(in[0], kw["block_size"].get<int64_t>(),
                                          kw.value("data_format", "channels_last"))};
  };
  m["unfold"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::unfold(in[0], int_or_tuple(kw["kernel_size"]), kw_or(kw, "dilation", 1),
                                  kw_or(kw, "padding", 0), kw_or(kw, "stride", 1))};
  };
  m["fold"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::fold(in[0], int_or_tuple(kw["output_size"]),
                                int_or_tuple(kw["kernel_size"]), kw_or(kw, "dilation", 1),
                                kw_or(kw, "padding", 0), kw_or(kw, "stride", 1))};
  };
  return m;
}

TEST(ConvGolden, FusedKernelsMatchTorch) {
  ASSERT_TRUE(backend::use_fused(backend::current(), backend::Capability::Conv));
  ASSERT_TRUE(backend::use_fused(backend::current(), backend::Capability::Pool));
  auto exercised = test::run_golden("nn_conv", conv_ops());
  EXPECT_EQ(exercised.size(), conv_ops().size());
}

TEST(ConvGolden, DecompositionsMatchTorch) {
  backend::DecomposeScope decompose;
  ASSERT_FALSE(backend::use_fused(backend::current(), backend::Capability::Conv));
  test::run_golden("nn_conv", conv_ops());
}

// The same cases with the outputs of real Keras 3.15 (tools/keras_oracle/ops.py).
TEST(ConvOracle, MatchKeras) { test::run_oracle("ops_nn_conv", conv_ops()); }

}  // namespace
}  // namespace keras
