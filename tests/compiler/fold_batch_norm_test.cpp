// The batch-norm folding pass (compiler/fold_batch_norm.h): a compiled convolution [+ bias] +
// inference BatchNormalization (ops::batch_normalization with moving statistics) + ReLU replays
// as one conv_bias_activation call with folded weights; its results equal the eager (unfolded)
// ones within the pass's documented bound and a host computation in double within float32
// rounding, also after the normalization's variables change between replays (the folded weights
// are computed again each replay). Not folded: a kernel larger than a quarter of the output, a
// normalization by the batch's own moments, and any step that assigns variables (training).

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "compiler/program.h"
#include "keras/keras.h"
#include "program_helpers.h"

namespace keras {
namespace {

using test_compiler::compile;
using test_compiler::random_floats;
using test_compiler::relative_difference;
using test_compiler::Step;

constexpr double kTolerance = 1e-6;  // fold_batch_norm.h
constexpr double kEpsilon = 1e-3;

bool folds() {
  return backend::current().supports(backend::Capability::Epilogue);
}

// A convolution (kh, kw, c, o) with a bias and a BatchNormalization's four variables.
struct ConvBn {
  int64_t kh, kw, c, o;
  std::vector<float> w = random_floats(kh * kw * c * o, 1, -0.5f, 0.5f);
  std::vector<float> b = random_floats(o, 2, -1.0f, 1.0f);
  Variable kernel{Tensor::from_vector(w, {kh, kw, c, o})}, bias{Tensor::from_vector(b, {o})};
  Variable gamma{Tensor::from_vector(random_floats(o, 3, 0.5f, 2.0f), {o})};
  Variable beta{Tensor::from_vector(random_floats(o, 4, -1.0f, 1.0f), {o})};
  Variable mean{Tensor::from_vector(random_floats(o, 5, -1.0f, 1.0f), {o})};
  Variable variance{Tensor::from_vector(random_floats(o, 6, 0.2f, 3.0f), {o})};

  ConvBn(int64_t kh_, int64_t kw_, int64_t c_, int64_t o_) : kh(kh_), kw(kw_), c(c_), o(o_) {}

  Tensor operator()(const Tensor& x, bool with_bias, bool with_relu) const {
    Tensor z = ops::conv(x, kernel.value());
    if (with_bias) z = ops::add(z, bias.value());
    Tensor y = ops::batch_normalization(z, mean.value(), variance.value(), -1, beta.value(),
                                        gamma.value(), kEpsilon);
    return with_relu ? ops::relu(y) : y;
  }

  // The same in double on the host ('valid' padding, stride 1).
  std::vector<double> host(const Tensor& x, bool with_bias, bool with_relu) const {
    const std::vector<double> xv = x.to_vector<double>();
    const std::vector<double> g = gamma.value().to_vector<double>(),
                              be = beta.value().to_vector<double>(),
                              mu = mean.value().to_vector<double>(),
                              var = variance.value().to_vector<double>();
    const Shape& s = x.shape();
    const int64_t n = s[0], h = s[1] - kh + 1, wd = s[2] - kw + 1;
    std::vector<double> out;
    for (int64_t b0 = 0; b0 < n; ++b0)
      for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < wd; ++j)
          for (int64_t q = 0; q < o; ++q) {
            double z = with_bias ? b[q] : 0.0;
            for (int64_t di = 0; di < kh; ++di)
              for (int64_t dj = 0; dj < kw; ++dj)
                for (int64_t ci = 0; ci < c; ++ci)
                  z += xv[((b0 * s[1] + i + di) * s[2] + j + dj) * c + ci] *
                       double(w[((di * kw + dj) * c + ci) * o + q]);
            double y = (z - mu[q]) / std::sqrt(var[q] + kEpsilon) * g[q] + be[q];
            out.push_back(with_relu ? std::max(y, 0.0) : y);
          }
    return out;
  }
};

void expect_near_host(const Tensor& got, const std::vector<double>& want) {
  const std::vector<double> g = got.to_vector<double>();
  ASSERT_EQ(g.size(), want.size());
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::abs(v));
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], want[i], 2e-6 * (1 + scale)) << i;
}

TEST(FoldBatchNorm, ConvBiasNormalizationReluIsOneConvCall) {
  for (bool with_bias : {true, false}) {
    for (bool with_relu : {true, false}) {
      ConvBn layer(3, 3, 4, 6);
      const Step step = [&](const TensorList& in) {
        return TensorList{layer(in[0], with_bias, with_relu)};
      };
      auto program = compile(step, {random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 7)});
      EXPECT_EQ(program->stats().folded_batch_norms, folds() ? 1u : 0u) << with_bias << with_relu;
      EXPECT_EQ(program->stats().fused_linears, folds() ? 1u : 0u) << with_bias << with_relu;
      const Tensor x = random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 8);
      const Tensor folded = program->replay({x})[0];
      EXPECT_LE(relative_difference(folded, step({x})[0]), kTolerance);
      expect_near_host(folded, layer.host(x, with_bias, with_relu));
    }
  }
}

// Keras layers: Conv2D records a conv_bias_activation without activation, BatchNormalization
// (inference) its scale and shift, then ReLU.
TEST(FoldBatchNorm, Conv2DBatchNormalizationReluLayers) {
  for (bool use_bias : {true, false}) {
    utils::set_random_seed(5);
    auto model = Sequential(
        {Input({16, 16, 4}),
         layers::Conv2D(6, 3, {.use_bias = use_bias, .bias_initializer = "random_normal"}),
         layers::BatchNormalization(), layers::ReLU()});
    auto* bn = model->layers()[1].get();
    bn->set_weights({Tensor::from_vector(random_floats(6, 21, 0.5f, 2.0f), {6}),
                     Tensor::from_vector(random_floats(6, 22, -1.0f, 1.0f), {6}),
                     Tensor::from_vector(random_floats(6, 23, -1.0f, 1.0f), {6}),
                     Tensor::from_vector(random_floats(6, 24, 0.2f, 3.0f), {6})});
    const Step predict = [&](const TensorList& in) { return TensorList{(*model)(in[0])}; };
    auto program = compile(predict, {random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 7)});
    EXPECT_EQ(program->stats().folded_batch_norms, folds() ? 1u : 0u) << use_bias;
    EXPECT_EQ(program->stats().fused_linears, folds() ? 1u : 0u) << use_bias;
    const Tensor x = random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 8);
    EXPECT_LE(relative_difference(program->replay({x})[0], predict({x})[0]), kTolerance);
  }
}

// The folded weights come from the variables' values of each replay.
TEST(FoldBatchNorm, ReplaysSeeNewNormalizationAndKernelValues) {
  ConvBn layer(3, 3, 4, 6);
  const Step step = [&](const TensorList& in) { return TensorList{layer(in[0], true, true)}; };
  auto program = compile(step, {random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 7)});
  layer.gamma.assign(Tensor::from_vector(random_floats(6, 11, -2.0f, 2.0f), {6}));
  layer.variance.assign(Tensor::from_vector(random_floats(6, 12, 0.1f, 5.0f), {6}));
  layer.mean.assign(Tensor::from_vector(random_floats(6, 13, -2.0f, 2.0f), {6}));
  layer.w = random_floats(3 * 3 * 4 * 6, 14, -0.5f, 0.5f);
  layer.kernel.assign(Tensor::from_vector(layer.w, {3, 3, 4, 6}));
  const Tensor x = random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 9);
  const Tensor folded = program->replay({x})[0];
  EXPECT_LE(relative_difference(folded, step({x})[0]), kTolerance);
  expect_near_host(folded, layer.host(x, true, true));
}

// A 1x1 output of a 3x3x8x64 kernel: the weights' product would cost more than it saves.
TEST(FoldBatchNorm, KernelLargerThanItsOutputIsNotFolded) {
  ConvBn layer(3, 3, 8, 64);
  const Step step = [&](const TensorList& in) { return TensorList{layer(in[0], true, true)}; };
  auto program = compile(step, {random::normal({1, 3, 3, 8}, 0.0, 1.0, DType::Float32, 7)});
  EXPECT_EQ(program->stats().folded_batch_norms, 0u);
  const Tensor x = random::normal({1, 3, 3, 8}, 0.0, 1.0, DType::Float32, 8);
  expect_near_host(program->replay({x})[0], layer.host(x, true, true));
}

// Training normalizes by the batch's moments, which read the convolution's output.
TEST(FoldBatchNorm, NormalizationByTheBatchMomentsIsNotFolded) {
  ConvBn layer(3, 3, 4, 6);
  const Step step = [&](const TensorList& in) {
    Tensor z = ops::add(ops::conv(in[0], layer.kernel.value()), layer.bias.value());
    auto [mean, variance] = ops::moments(z, {0, 1, 2});
    return TensorList{ops::relu(ops::batch_normalization(z, mean, variance, -1, layer.beta.value(),
                                                         layer.gamma.value(), kEpsilon))};
  };
  auto program = compile(step, {random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 7)});
  EXPECT_EQ(program->stats().folded_batch_norms, 0u);
  const Tensor x = random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 8);
  EXPECT_LE(relative_difference(program->replay({x})[0], step({x})[0]), kTolerance);
}

// A training step (it assigns variables) keeps its eager values, even with the normalization
// in inference mode (a frozen BatchNormalization while fine-tuning).
TEST(FoldBatchNorm, StepsThatAssignVariablesAreNotFolded) {
  ConvBn layer(3, 3, 4, 6);
  const Step step = [&](const TensorList& in) {
    GradientTape tape;
    Tensor loss = ops::mean(ops::square(layer(in[0], true, true)));
    Tensor g = tape.gradient(loss, std::vector<Tensor>{layer.kernel.value()})[0];
    layer.kernel.assign(ops::subtract(layer.kernel.value(), ops::multiply(g, 0.01)));
    return TensorList{loss};
  };
  auto program = compile(step, {random::normal({2, 16, 16, 4}, 0.0, 1.0, DType::Float32, 7)});
  EXPECT_EQ(program->stats().folded_batch_norms, 0u);
}

}  // namespace
}  // namespace keras
