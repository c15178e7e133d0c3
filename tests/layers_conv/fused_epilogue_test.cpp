// The fused conv + bias + activation (Capability::Epilogue) behind the Conv layers and the
// fused bias-and-activation backward behind Dense: central differences in float64, and
// agreement with the unfused ops (DecomposeScope) on every schedule of the cpu kernels (short
// patches by direct loops, long ones by im2col + GEMM, float64 tiles), with and without bias.
// tests/golden/layers_conv.npz checks the same layers against PyTorch.

#include <gtest/gtest.h>

#include <optional>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/backend/backend.h"
#include "keras/keras.h"
#include "ops/nn/conv_ops.h"

namespace keras {
namespace {

using backend::Activation;
using test::randn;

struct Config {
  std::string name;
  Shape x;
  int64_t filters;
  ops::ConvOptions options;
};

const std::vector<Config>& configs() {
  static const std::vector<Config> c = {
      {"short patch", {3, 9, 8, 1}, 20, {.strides = 2, .padding = "same"}},
      {"long patch", {2, 8, 7, 5}, 20, {.padding = "same"}},
      {"1-d", {2, 11, 3}, 7, {}},
  };
  return c;
}

// The Conv layer's forward pass and the gradients of sum(y * r) for x, kernel and bias.
std::vector<Tensor> layer_run(const Config& c, const std::string& activation, bool use_bias,
                              DType dtype, bool decomposed) {
  std::optional<backend::DecomposeScope> scope;
  if (decomposed) scope.emplace();
  utils::set_random_seed(5);
  const layers::BaseConvOptions options{.strides = c.options.strides,
                                        .padding = c.options.padding,
                                        .activation = activation,
                                        .use_bias = use_bias,
                                        .bias_initializer = "random_normal",
                                        .dtype = std::string(dtype_name(dtype))};
  Tensor x = ops::cast(random::normal(c.x, 0.0, 1.0, DType::Float64, 1), dtype);
  auto run = [&](auto layer) {
    std::vector<Tensor> watched{x};
    GradientTape tape;
    tape.watch(watched);
    Tensor y = layer(watched[0]);
    Tensor r = ops::cast(random::normal(y.shape(), 0.0, 1.0, DType::Float64, 2), dtype);
    std::vector<Tensor> sources = watched;
    for (const auto& w : layer->trainable_weights()) sources.push_back(w.value());
    std::vector<Tensor> out{y};
    for (const Tensor& g : tape.gradient(ops::sum(ops::multiply(y, r)), sources))
      out.push_back(g);
    return out;
  };
  return c.x.rank() == 3 ? run(layers::Conv1D(c.filters, 3, options))
                         : run(layers::Conv2D(c.filters, 3, options));
}

TEST(FusedConvEpilogue, MatchesUnfusedOps) {
  for (DType dtype : {DType::Float32, DType::Float64})
    for (const Config& c : configs())
      for (const char* act : {"linear", "relu", "sigmoid", "tanh"})
        for (bool bias : {true, false}) {
          auto fused = layer_run(c, act, bias, dtype, false);
          auto ops_path = layer_run(c, act, bias, dtype, true);
          ASSERT_EQ(fused.size(), ops_path.size());
          const double tol = dtype == DType::Float32 ? 2e-5 : 1e-12;
          for (size_t i = 0; i < fused.size(); ++i)
            EXPECT_TENSOR_NEAR(fused[i], ops_path[i], tol, tol)
                << c.name << " " << act << (bias ? " with bias" : " no bias") << " "
                << dtype_name(dtype) << " output " << i;
        }
}

TEST(FusedConvEpilogue, GradcheckFloat64) {
  for (const Config& c : configs())
    for (Activation act : {Activation::None, Activation::Relu, Activation::Sigmoid,
                           Activation::Tanh}) {
      const int64_t cin = c.x[c.x.rank() - 1];
      Shape k = c.x.rank() == 3 ? Shape{3, cin, c.filters} : Shape{3, 3, cin, c.filters};
      test::expect_gradcheck(
          c.name,
          [&](const std::vector<Tensor>& in) {
            return ops::detail::conv_bias_activation(in[0], in[1], in[2], act, c.options);
          },
          {randn(c.x, 1), randn(k, 2, 0.3), randn({c.filters}, 3)});
    }
}

// Dense's fused backward (bias_activation_backward) against the unfused ops.
TEST(FusedDenseEpilogue, MatchesUnfusedOps) {
  for (const char* act : {"relu", "sigmoid", "tanh"}) {
    auto run = [&](bool decomposed) {
      std::optional<backend::DecomposeScope> scope;
      if (decomposed) scope.emplace();
      utils::set_random_seed(9);
      auto layer = layers::Dense(13, {.activation = act, .bias_initializer = "random_normal"});
      std::vector<Tensor> x{random::normal({37, 6}, 0.0, 1.0, DType::Float32, 4)};
      GradientTape tape;
      tape.watch(x);
      Tensor y = layer(x[0]);
      Tensor r = random::normal(y.shape(), 0.0, 1.0, DType::Float32, 5);
      std::vector<Tensor> sources = x;
      for (const auto& w : layer->trainable_weights()) sources.push_back(w.value());
      auto grads = tape.gradient(ops::sum(ops::multiply(y, r)), sources);
      grads.insert(grads.begin(), y);
      return grads;
    };
    auto fused = run(false), ops_path = run(true);
    for (size_t i = 0; i < fused.size(); ++i)
      EXPECT_TENSOR_NEAR(fused[i], ops_path[i], 1e-5, 1e-5) << act << " output " << i;
  }
}

}  // namespace
}  // namespace keras
