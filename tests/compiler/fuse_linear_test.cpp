// The linear pass (compiler/fuse_linear.h): a compiled function written with ops::matmul +
// ops::add + an activation (as a subclassed model writes a dense layer) replays one linear
// call, a conv + bias add + activation one conv_bias_activation call; the results equal the
// eager (unfused) ones within the pass's documented tolerance and a host computation in double
// within float32 rounding; an activation whose input the backward pass reads stays its own
// call; a product something else reads, or a sum with a full-size operand, is not fused.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <random>

#include "compiler/fuse_linear.h"
#include "compiler/program.h"
#include "program_helpers.h"
#include "keras/keras.h"

namespace keras {
namespace {

using compiler::detail::LinearFusionOff;
using compiler::detail::Program;
using compiler::detail::Trace;
using test_compiler::compile;
using test_compiler::relative_difference;
using test_compiler::Step;

// The documented bound (fuse_linear.h): max |fused - eager| relative to the largest magnitude.
constexpr double kTolerance = 1e-6;

bool fuses_linear() { return backend::current().supports(backend::Capability::Linear); }
bool fuses_conv() { return backend::current().supports(backend::Capability::Epilogue); }


std::vector<float> random_floats(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

constexpr int64_t M = 37, K = 29, N = 19;

struct Dense {
  std::vector<float> w = random_floats(K * N, 1), b = random_floats(N, 2);
  Variable kernel{Tensor::from_vector(w, {K, N})}, bias{Tensor::from_vector(b, {N})};
};

Tensor activate(const std::string& act, const Tensor& z) {
  if (act == "relu") return ops::relu(z);
  if (act == "sigmoid") return ops::sigmoid(z);
  if (act == "tanh") return ops::tanh(z);
  if (act == "gelu") return ops::gelu(z, false);
  if (act == "silu") return ops::silu(z);
  if (act == "relu6") return ops::relu6(z);
  return z;
}

double host_activation(const std::string& act, double z) {
  if (act == "relu") return std::max(z, 0.0);
  if (act == "sigmoid") return 1 / (1 + std::exp(-z));
  if (act == "tanh") return std::tanh(z);
  if (act == "gelu") return 0.5 * z * (1 + std::erf(z / std::sqrt(2.0)));
  if (act == "silu") return z / (1 + std::exp(-z));
  if (act == "relu6") return std::min(std::max(z, 0.0), 6.0);
  return z;
}

TEST(FuseLinear, MatmulAddActivationIsOneLinearCall) {
  for (const std::string act : {"none", "relu", "sigmoid", "tanh", "gelu", "silu", "relu6"}) {
    Dense d;
    const Step step = [&](const TensorList& in) {
      return TensorList{activate(act, ops::add(ops::matmul(in[0], d.kernel.value()), d.bias.value()))};
    };
    auto program = compile(step, {Tensor::from_vector(random_floats(M * K, 3), {M, K})});
    EXPECT_EQ(program->stats().fused_linears, fuses_linear() ? 1u : 0u) << act;
    const std::vector<float> xv = random_floats(M * K, 4);
    const Tensor x = Tensor::from_vector(xv, {M, K});
    const Tensor fused = program->replay({x})[0], eager = step({x})[0];
    EXPECT_LE(relative_difference(fused, eager), kTolerance) << act;
    const std::vector<float> got = fused.to_vector<float>();
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double z = d.b[j];
        for (int64_t k = 0; k < K; ++k) z += double(xv[i * K + k]) * d.w[k * N + j];
        ASSERT_NEAR(got[i * N + j], host_activation(act, z), 1e-5 * (1 + std::abs(z)))
            << act << " " << i << "," << j;
      }
  }
}

// In a training step relu's and relu6's gradients read their input, so the sum is written and
// the activation stays; sigmoid's reads its output, so it joins the call.
TEST(FuseLinear, TrainingStepKeepsWhatTheBackwardReads) {
  double worst = 0;
  for (const std::string act : {"relu", "sigmoid", "relu6"}) {
    Dense d;
    const Step step = [&](const TensorList& in) {
      GradientTape tape;
      Tensor y = activate(act, ops::add(ops::matmul(in[0], d.kernel.value()), d.bias.value()));
      Tensor loss = ops::mean(ops::square(ops::subtract(y, in[1])));
      std::vector<Tensor> g =
          tape.gradient(loss, std::vector<Tensor>{d.kernel.value(), d.bias.value()});
      return TensorList{loss, g[0], g[1]};
    };
    auto batch = [](uint32_t seed) {
      return TensorList{Tensor::from_vector(random_floats(M * K, seed), {M, K}),
                        Tensor::from_vector(random_floats(M * N, seed + 1), {M, N})};
    };
    auto program = compile(step, batch(5));
    EXPECT_EQ(program->stats().fused_linears, fuses_linear() ? 1u : 0u) << act;
    const TensorList in = batch(7);
    const TensorList fused = program->replay(in), eager = step(in);
    for (size_t i = 0; i < fused.size(); ++i) {
      const double diff = relative_difference(fused[i], eager[i]);
      worst = std::max(worst, diff);
      EXPECT_LE(diff, kTolerance) << act << " output " << i;
    }
  }
  std::cout << "[ measured ] max relative difference linear vs eager (training): " << worst << "\n";
}

TEST(FuseLinear, ConvAddActivationIsOneConvBiasActivationCall) {
  Variable kernel(random::normal({3, 3, 4, 6}, 0.0, 0.3, DType::Float32, 1));
  Variable bias(random::normal({6}, 0.0, 0.3, DType::Float32, 2));
  const Step step = [&](const TensorList& in) {
    return TensorList{ops::relu(ops::add(ops::conv(in[0], kernel.value()), bias.value()))};
  };
  auto program = compile(step, {random::normal({2, 9, 8, 4}, 0.0, 1.0, DType::Float32, 3)});
  EXPECT_EQ(program->stats().fused_linears, fuses_conv() ? 1u : 0u);
  const Tensor x = random::normal({2, 9, 8, 4}, 0.0, 1.0, DType::Float32, 4);
  const double diff = relative_difference(program->replay({x})[0], step({x})[0]);
  EXPECT_LE(diff, kTolerance);
  std::cout << "[ measured ] max relative difference conv_bias_activation vs eager: " << diff
            << "\n";
}

// ReLU(max_value=6) after a convolution and its bias (MobileNet's block: Conv2D,
// BatchNormalization folded into it, ReLU6) is one conv_bias_activation call; relu6 is clip with
// bounds 0 and 6, and clip with other bounds stays its own call.
TEST(FuseLinear, ConvBiasRelu6IsOneCall) {
  Variable kernel(random::normal({3, 3, 8, 16}, 0.0, 1.0, DType::Float32, 1));
  Variable bias(random::normal({16}, 0.0, 1.0, DType::Float32, 2));
  for (const double high : {6.0, 5.0}) {
    const Step step = [&](const TensorList& in) {
      Tensor z = ops::add(ops::conv(in[0], kernel.value()), bias.value());
      return TensorList{high == 6.0 ? ops::relu6(z) : ops::clip(z, 0.0, high)};
    };
    auto program = compile(step, {random::normal({2, 9, 8, 8}, 0.0, 1.0, DType::Float32, 3)});
    EXPECT_EQ(program->stats().fused_linears, fuses_conv() ? 1u : 0u) << high;
    if (fuses_conv()) {
      EXPECT_EQ(program->stats().replayed_calls, high == 6.0 ? 1u : 2u) << high;
    }
    const std::vector<float> xv = random_floats(2 * 9 * 8 * 8, 4);
    const Tensor x = Tensor::from_vector(xv, {2, 9, 8, 8});
    const Tensor fused = program->replay({x})[0];
    EXPECT_LE(relative_difference(fused, step({x})[0]), kTolerance) << high;
    const std::vector<float> got = fused.to_vector<float>(), w = kernel.value().to_vector<float>(),
                             b = bias.value().to_vector<float>();
    int below = 0, above = 0;
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t i = 0; i < 7; ++i)
        for (int64_t j = 0; j < 6; ++j)
          for (int64_t o = 0; o < 16; ++o) {
            double z = b[o];
            for (int64_t a = 0; a < 3; ++a)
              for (int64_t c = 0; c < 3; ++c)
                for (int64_t k = 0; k < 8; ++k)
                  z += double(xv[((n * 9 + i + a) * 8 + j + c) * 8 + k]) *
                       w[((a * 3 + c) * 8 + k) * 16 + o];
            if (z < 0) ++below;
            if (z > high) ++above;
            ASSERT_NEAR(got[((n * 7 + i) * 6 + j) * 16 + o], std::min(std::max(z, 0.0), high),
                        1e-5 * (1 + std::abs(z)))
                << high << " at " << n << "," << i << "," << j << "," << o;
          }
    EXPECT_GT(below, 0);
    EXPECT_GT(above, 0);
  }
}

TEST(FuseLinear, OnlyAPrivateProductAndARowBiasFuse) {
  Dense d;
  const Tensor x = Tensor::from_vector(random_floats(M * K, 3), {M, K});
  const Tensor full = Tensor::from_vector(random_floats(M * N, 8), {M, N});
  // The product is also a result.
  auto shared = compile(
      [&](const TensorList& in) {
        Tensor p = ops::matmul(in[0], d.kernel.value());
        return TensorList{ops::relu(ops::add(p, d.bias.value())), p};
      },
      {x});
  EXPECT_EQ(shared->stats().fused_linears, 0u);
  // The other operand of the add is a full matrix, not a bias.
  auto not_bias = compile(
      [&](const TensorList& in) {
        return TensorList{ops::relu(ops::add(ops::matmul(in[0], d.kernel.value()), full))};
      },
      {x});
  EXPECT_EQ(not_bias->stats().fused_linears, 0u);
  // A bias broadcast along the columns ((M, 1)) is not Linear's bias either.
  const Tensor column = Tensor::from_vector(random_floats(M, 9), {M, 1});
  auto columns = compile(
      [&](const TensorList& in) {
        return TensorList{ops::add(ops::matmul(in[0], d.kernel.value()), column)};
      },
      {x});
  EXPECT_EQ(columns->stats().fused_linears, 0u);
  LinearFusionOff off;
  auto plain = compile(
      [&](const TensorList& in) {
        return TensorList{ops::add(ops::matmul(in[0], d.kernel.value()), d.bias.value())};
      },
      {x});
  EXPECT_EQ(plain->stats().fused_linears, 0u);
}

}  // namespace
}  // namespace keras
