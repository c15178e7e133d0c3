// Conv2D -> MaxPooling2D() as one fused op (Capability::ConvPool, ops/nn/conv_pool.h), which a
// compiled step gets from the compiler pass (compiler/fuse_conv_pool.h; its tests, which count
// the fused calls, are tests/compiler/fuse_conv_pool_test.cpp): the op against the two layers
// called one by one, on every schedule of the cpu kernel (direct loops, im2col + GEMM, groups),
// both float dtypes, every fusable activation, with and without bias; ties and NaNs; central
// differences and second derivatives of the op in float64; and fit with jit_compile "true"
// (the pass fuses) against eager fit (the layers one by one).
// tests/golden/layers_conv.npz checks the pair against PyTorch.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/keras.h"
#include "ops/nn/conv_pool.h"

namespace keras {
namespace {

using backend::Activation;
using test::randn;

struct Config {
  std::string name;
  Shape x;
  int64_t filters;
  std::optional<ops::IntOrTuple> strides;
  std::string padding = "valid";
  int64_t groups = 1;
  int64_t dilation = 1;
};

const std::vector<Config>& configs() {
  static const std::vector<Config> c = {
      {"short patch, odd output", {2, 13, 11, 1}, 32},
      {"short patch, strided same", {3, 9, 8, 3}, 20, 2, "same"},
      {"long patch, 20 channels", {2, 8, 7, 5}, 20, std::nullopt, "same"},
      {"groups", {2, 8, 9, 4}, 6, std::nullopt, "valid", 2},
      {"16 channels, dilated same", {2, 12, 11, 16}, 16, std::nullopt, "same", 1, 2},
      {"32 channels, strided same", {2, 11, 12, 32}, 24, 2, "same"},
  };
  return c;
}

std::string grad_fn_name(const Tensor& t) {
  return t.impl()->grad_fn ? std::string(t.impl()->grad_fn->name()) : std::string();
}

// The op at the top of the fused op's output: the fused one where the backend has ConvPool
// (cpu), else the pooling of the two separate ops (torch).
std::string fused_op() {
  return backend::current().supports(backend::Capability::ConvPool)
             ? "conv_bias_activation_max_pool"
             : "max_pool";
}

struct Pair {
  LayerPtr<layers::Conv2DLayer> conv;
  LayerPtr<layers::MaxPooling2DLayer> pool;
  Activation activation = Activation::None;
  ops::ConvOptions options;
};

Activation activation_of(const std::string& name) {
  if (name == "relu") return Activation::Relu;
  if (name == "sigmoid") return Activation::Sigmoid;
  if (name == "tanh") return Activation::Tanh;
  return Activation::None;
}

Pair make_pair(const Config& c, const std::string& activation, bool use_bias, DType dtype) {
  utils::set_random_seed(5);
  const std::string d(dtype_name(dtype));
  Pair p;
  layers::Conv2DOptions options{.padding = c.padding,
                                .dilation_rate = c.dilation,
                                .groups = c.groups,
                                .activation = activation,
                                .use_bias = use_bias,
                                .bias_initializer = "random_normal",
                                .dtype = d};
  if (c.strides) options.strides = *c.strides;
  p.conv = layers::Conv2D(c.filters, 3, options);
  p.pool = layers::MaxPooling2D(2, {.dtype = d});
  p.conv->ensure_built({c.x}, false);
  p.activation = activation_of(activation);
  p.options = ops::ConvOptions{.strides = c.strides.value_or(ops::IntOrTuple(1)),
                               .padding = c.padding,
                               .dilation_rate = c.dilation};
  return p;
}

// pool(conv(x)) through the fused op, or through the two layers called one by one.
Tensor forward(const Pair& p, const Tensor& x, bool fused) {
  if (!fused) return (*p.pool)((*p.conv)(x));
  return ops::detail::conv_bias_activation_max_pool(
      x, p.conv->kernel_variable().value(), p.conv->options().use_bias ? p.conv->bias().value() : Tensor(),
      p.activation, p.options);
}

// The output and the gradients of sum(y * r) for x, kernel (and bias).
std::vector<Tensor> run(const Pair& p, const Tensor& x, bool fused) {
  std::vector<Tensor> watched{x};
  GradientTape tape;
  tape.watch(watched);
  Tensor y = forward(p, watched[0], fused);
  EXPECT_EQ(grad_fn_name(y), fused ? fused_op() : "max_pool");
  Tensor r = ops::cast(random::normal(y.shape(), 0.0, 1.0, DType::Float64, 2), x.dtype());
  std::vector<Tensor> sources = watched;
  for (const auto& w : p.conv->trainable_weights()) sources.push_back(w.value());
  std::vector<Tensor> out{y};
  for (const Tensor& g : tape.gradient(ops::sum(ops::multiply(y, r)), sources)) out.push_back(g);
  return out;
}

TEST(FusedConvPool, OpMatchesTheLayersOneByOne) {
  for (DType dtype : {DType::Float32, DType::Float64})
    for (const Config& c : configs())
      for (const char* act : {"linear", "relu", "sigmoid", "tanh"})
        for (bool bias : {true, false}) {
          Pair p = make_pair(c, act, bias, dtype);
          Tensor x = ops::cast(random::normal(c.x, 0.0, 1.0, DType::Float64, 1), dtype);
          auto fused = run(p, x, true), separate = run(p, x, false);
          ASSERT_EQ(fused.size(), separate.size());
          const double tol = dtype == DType::Float32 ? 2e-5 : 1e-12;
          for (size_t i = 0; i < fused.size(); ++i)
            EXPECT_TENSOR_NEAR(fused[i], separate[i], tol, tol)
                << c.name << " " << act << (bias ? " with bias" : " no bias") << " "
                << dtype_name(dtype) << " output " << i;
        }
}

// Integer-valued data makes ties in most windows (relu's zeros too): the first maximum of a
// window takes the gradient, as in the separate MaxPooling2D.
TEST(FusedConvPool, TiesGoToTheFirstMaximum) {
  for (const char* act : {"linear", "relu"}) {
    Pair p = make_pair(configs()[0], act, true, DType::Float32);
    Variable kernel = p.conv->kernel_variable(), bias = p.conv->bias();
    kernel.assign(ops::round(ops::multiply(kernel.value(), 4.0)));
    bias.assign(ops::zeros({32}));
    Tensor x = ops::round(random::normal(configs()[0].x, 0.0, 1.0, DType::Float32, 3));
    auto fused = run(p, x, true), separate = run(p, x, false);
    for (size_t i = 0; i < fused.size(); ++i)
      EXPECT_TENSOR_NEAR(fused[i], separate[i], 1e-6, 1e-6) << act << " output " << i;
  }
}

TEST(FusedConvPool, NaNWinsItsWindow) {
  Pair p = make_pair(configs()[2], "linear", true, DType::Float32);
  Tensor x = random::normal(configs()[2].x, 0.0, 1.0, DType::Float32, 4);
  std::vector<float> v = x.to_vector<float>();
  v[7] = std::nanf("");
  x = Tensor::from_vector(v, x.shape());
  Tensor fused = forward(p, x, true), separate = forward(p, x, false);
  auto a = fused.to_vector<float>(), b = separate.to_vector<float>();
  ASSERT_EQ(a.size(), b.size());
  int nans = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(std::isnan(a[i]), std::isnan(b[i])) << i;
    if (std::isnan(a[i]))
      ++nans;
    else
      EXPECT_NEAR(a[i], b[i], 2e-5) << i;
  }
  EXPECT_GT(nans, 0);
}

TEST(FusedConvPool, GradcheckFloat64) {
  for (const Config& c : configs()) {
    if (c.x.numel() > 1000) continue;  // (central differences cost two calls per input value)
    for (Activation act :
         {Activation::None, Activation::Relu, Activation::Sigmoid, Activation::Tanh}) {
      const Shape k{3, 3, c.x[3] / c.groups, c.filters};
      const ops::ConvOptions options{.strides = c.strides.value_or(ops::IntOrTuple(1)),
                                     .padding = c.padding,
                                     .dilation_rate = c.dilation};
      test::expect_gradcheck(c.name,
                             [&](const std::vector<Tensor>& in) {
                               return ops::detail::conv_bias_activation_max_pool(
                                   in[0], in[1], in[2], act, options);
                             },
                             {randn(c.x, 1), randn(k, 2, 0.3), randn({c.filters}, 3)});
    }
  }
}

// The gradient of sum(grad^2): recorded through the unfused ops, so it matches them.
TEST(FusedConvPool, SecondOrderMatchesTheUnfusedOps) {
  const Config& c = configs()[2];
  const ops::ConvOptions options{.padding = c.padding};
  auto second = [&](bool decomposed) {
    std::optional<backend::DecomposeScope> scope;
    if (decomposed) scope.emplace();
    std::vector<Tensor> v{randn(c.x, 1), randn({3, 3, 5, 20}, 2, 0.3), randn({20}, 3)};
    GradientTape outer;
    outer.watch(v);
    GradientTape inner;
    inner.watch(v);
    Tensor y =
        ops::detail::conv_bias_activation_max_pool(v[0], v[1], v[2], Activation::Tanh, options);
    auto g = inner.gradient(ops::sum(ops::square(y)), v);
    Tensor total = ops::add(ops::sum(ops::square(g[0])), ops::sum(ops::square(g[1])));
    return outer.gradient(total, v);
  };
  auto fused = second(false), ops_path = second(true);
  for (size_t i = 0; i < fused.size(); ++i)
    EXPECT_TENSOR_NEAR(fused[i], ops_path[i], 1e-10, 1e-10) << "input " << i;
}

// fit with jit_compile "true", whose compiled steps fuse each pair and its backward chain,
// trains as eager fit, which calls the layers one by one. Two pairs: the first layer takes the
// kernel-gradient-only schedule (patch length 9 or 18), the second the sparse one with an input
// gradient (16 channels, 3x3: accumulators in registers). The fused backward sums in another
// order (fuse_conv_pool.h): 1e-5 after 2 epochs of Adam, as for the op above.
TEST(FusedConvPool, CompiledFitTrainsAsEagerFit) {
  for (int64_t channels : {1, 2}) {
    auto build = [&] {
      utils::set_random_seed(21);
      return Sequential({Input({14, 14, channels}), layers::Conv2D(16, 3, {.activation = "relu"}),
                         layers::MaxPooling2D(2), layers::Conv2D(32, 3, {.activation = "relu"}),
                         layers::MaxPooling2D(2), layers::Flatten(), layers::Dense(3)});
    };
    Tensor x = random::normal({64, 14, 14, channels}, 0.0, 1.0, DType::Float32, 7);
    Tensor y = random::normal({64, 3}, 0.0, 1.0, DType::Float32, 8);
    std::vector<std::vector<Tensor>> weights;
    for (const char* jit : {"true", "false"}) {
      auto model = build();
      model->compile({.optimizer = "adam", .loss = "mse", .jit_compile = jit});
      model->fit(x, y, {.batch_size = 16, .epochs = 2, .verbose = 0, .shuffle = false});
      EXPECT_EQ(model->train_function().tracing_count(), std::string(jit) == "true" ? 1 : 0);
      weights.push_back(model->get_weights());
    }
    ASSERT_EQ(weights[0].size(), weights[1].size());
    for (size_t i = 0; i < weights[0].size(); ++i)
      EXPECT_TENSOR_NEAR(weights[0][i], weights[1][i], 1e-5, 1e-5)
          << channels << " input channels, weight " << i;
  }
}

}  // namespace
}  // namespace keras
