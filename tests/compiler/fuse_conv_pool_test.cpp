// The conv-pool pass (compiler/fuse_conv_pool.h): a compiled step of a model with Conv2D ->
// MaxPooling2D() pairs makes each pair one conv_bias_activation_max_pool call and its backward
// chain one conv_bias_activation_max_pool_backward; the replayed predictions equal the eager
// (unfused) ones bit for bit, the loss and gradients agree with them within the pass's
// documented tolerance (the fused backward sums in another order); pairs whose convolution
// output something else reads, other poolings, and backends without ConvPool keep their calls.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>

#include "assertions.h"
#include "blas_invariance.h"
#include "compiler/fuse_conv_pool.h"
#include "compiler/program.h"
#include "program_helpers.h"
#include "keras/keras.h"

namespace keras {
namespace {

using compiler::detail::ConvPoolFusionOff;
using compiler::detail::Program;
using compiler::detail::Trace;
using test_compiler::compile;
using test_compiler::relative_difference;
using test_compiler::Step;

// The documented bound of the pass (fuse_conv_pool.h): max |fused - eager| over a tensor,
// relative to the tensor's largest magnitude (float32; float64 within 1e-14).
constexpr double kFloat32Tolerance = 1e-6;
constexpr double kFloat64Tolerance = 1e-14;

bool backend_fuses() {
  return backend::current().supports(backend::Capability::ConvPool);
}


// Two conv-pool pairs (the second with an input gradient), then a dense head.
ModelPtr<SequentialModel> cnn(const std::string& activation, bool use_bias, DType dtype) {
  utils::set_random_seed(3);
  const std::string d(dtype_name(dtype));
  layers::Conv2DOptions conv{.activation = activation, .use_bias = use_bias,
                             .bias_initializer = "random_normal", .dtype = d};
  return Sequential({Input({12, 12, 3}, {.dtype = dtype}), layers::Conv2D(8, 3, conv),
                     layers::MaxPooling2D(2, {.dtype = d}), layers::Conv2D(16, 3, conv),
                     layers::MaxPooling2D(2, {.dtype = d}), layers::Flatten({.dtype = d}),
                     layers::Dense(4, {.dtype = d})});
}

// The loss of a batch and its gradients for every trainable weight (no update: the replay and
// the eager call then see the same weights).
Step gradients_of(const ModelPtr<SequentialModel>& model) {
  return [model](const TensorList& in) {
    GradientTape tape;
    Tensor out = (*model)(in[0]);
    Tensor loss = ops::mean(ops::square(ops::subtract(out, in[1])));
    std::vector<Tensor> sources;
    for (const Variable& w : model->trainable_weights()) sources.push_back(w.value());
    TensorList result{loss};
    for (const Tensor& g : tape.gradient(loss, sources)) result.push_back(g);
    return result;
  };
}

TensorList batch(DType dtype, uint64_t seed) {
  return {ops::cast(random::normal({4, 12, 12, 3}, 0.0, 1.0, DType::Float64, seed), dtype),
          ops::cast(random::normal({4, 4}, 0.0, 1.0, DType::Float64, seed + 1), dtype)};
}

TEST(FuseConvPool, TrainingStepFusesEachPairAndItsBackward) {
  double worst32 = 0, worst64 = 0;
  for (DType dtype : {DType::Float32, DType::Float64})
    for (const char* act : {"linear", "relu", "sigmoid", "tanh"})
      for (bool bias : {true, false}) {
        if (dtype == DType::Float64 && !bias) continue;
        auto model = cnn(act, bias, dtype);
        const Step step = gradients_of(model);
        auto program = compile(step, batch(dtype, 1));
        const auto& stats = program->stats();
        EXPECT_EQ(stats.fused_conv_pools, backend_fuses() ? 2u : 0u) << act;
        EXPECT_EQ(stats.fused_conv_pool_backwards, backend_fuses() ? 2u : 0u) << act;
        for (uint64_t seed : {10, 20}) {
          const TensorList in = batch(dtype, seed);
          const TensorList replayed = program->replay(in), eager = step(in);
          ASSERT_EQ(replayed.size(), eager.size());
          for (size_t i = 0; i < eager.size(); ++i) {
            const double d = relative_difference(replayed[i], eager[i]);
            (dtype == DType::Float32 ? worst32 : worst64) = std::max(dtype == DType::Float32 ? worst32 : worst64, d);
            EXPECT_LE(d, dtype == DType::Float32 ? kFloat32Tolerance : kFloat64Tolerance)
                << act << (bias ? " with bias " : " no bias ") << dtype_name(dtype) << " output "
                << i;
          }
        }
      }
  std::cout << "[ measured ] max relative difference fused vs eager: float32 " << worst32
            << ", float64 " << worst64 << "\n";
}

// Without a backward pass the fused forward call computes the very products, bias,
// activation and pooling of the separate calls (bit for bit where the BLAS rounds a row the same
// in any product: blas_invariance.h), with no argmax (an inference step computes none): in
// float32 and float64, with a NaN in the input (its windows are NaN in both).
TEST(FuseConvPool, PredictionsEqualTheEagerOnesBitForBit) {
  for (DType dtype : {DType::Float32, DType::Float64})
    for (const char* act : {"linear", "relu", "sigmoid", "tanh"}) {
      auto model = cnn(act, true, dtype);
      const Step predict = [model](const TensorList& in) { return TensorList{(*model)(in[0])}; };
      auto program = compile(predict, {batch(dtype, 1)[0]});
      EXPECT_EQ(program->stats().fused_conv_pools, backend_fuses() ? 2u : 0u);
      EXPECT_EQ(program->stats().fused_conv_pool_backwards, 0u);
      std::vector<double> values =
          ops::cast(batch(dtype, 5)[0], DType::Float64).to_vector<double>();
      values[7] = std::nan("");
      const Tensor x = ops::cast(Tensor::from_vector(values, {4, 12, 12, 3}), dtype);
      const auto got = ops::cast(program->replay({x})[0], DType::Float64).to_vector<double>();
      const auto want = ops::cast(predict({x})[0], DType::Float64).to_vector<double>();
      ASSERT_EQ(got.size(), want.size());
      int nans = 0;
      const bool exact = test::matmul_rows_are_invariant();
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(std::isnan(got[i]), std::isnan(want[i])) << act << " at " << i;
        if (std::isnan(got[i])) {
          ++nans;
        } else if (exact) {
          ASSERT_EQ(got[i], want[i]) << act << " " << dtype_name(dtype) << " at " << i;
        } else {
          ASSERT_NEAR(got[i], want[i], 1e-5 * std::max(1.0, std::abs(want[i])))
              << act << " at " << i;
        }
      }
      EXPECT_GT(nans, 0) << act;
    }
}

size_t fused_pairs(const std::shared_ptr<Layer>& pool) {
  auto model = Sequential({Input({13, 11, 1}), layers::Conv2D(8, 3, {.activation = "relu"}), pool});
  const Step predict = [model](const TensorList& in) { return TensorList{(*model)(in[0])}; };
  return compile(predict, {random::normal({2, 13, 11, 1}, 0.0, 1.0, DType::Float32, 9)})
      ->stats()
      .fused_conv_pools;
}

TEST(FuseConvPool, OnlyTwoByTwoUnpaddedMaxPoolingFuses) {
  EXPECT_EQ(fused_pairs(layers::MaxPooling2D(2)), backend_fuses() ? 1u : 0u);
  EXPECT_EQ(fused_pairs(layers::MaxPooling2D(2, {.padding = "same"})), 0u);
  EXPECT_EQ(fused_pairs(layers::MaxPooling2D(2, {.strides = 1})), 0u);
  EXPECT_EQ(fused_pairs(layers::MaxPooling2D(3)), 0u);
  EXPECT_EQ(fused_pairs(layers::AveragePooling2D(2)), 0u);
}

// The convolution's output is also a result of the model: it must be written, so no fusion.
TEST(FuseConvPool, AConvOutputSomethingElseReadsIsNotFused) {
  KerasTensor in = Input({13, 11, 1});
  KerasTensor conv = (*layers::Conv2D(8, 3, {.activation = "relu"}))(in);
  KerasTensor pooled = (*layers::MaxPooling2D(2))(conv);
  auto shared = Functional({in}, {pooled, conv});
  auto alone = Functional(in, pooled);
  const Tensor x = random::normal({2, 13, 11, 1}, 0.0, 1.0, DType::Float32, 9);
  auto program_of = [&](const ModelPtr<FunctionalModel>& m) {
    return compile([m](const TensorList& t) { return (*m)(t); }, {x});
  };
  auto fused = program_of(alone), unfused = program_of(shared);
  EXPECT_EQ(fused->stats().fused_conv_pools, backend_fuses() ? 1u : 0u);
  EXPECT_EQ(unfused->stats().fused_conv_pools, 0u);
  const Tensor x2 = random::normal({2, 13, 11, 1}, 0.0, 1.0, DType::Float32, 10);
  const TensorList a = fused->replay({x2}), b = unfused->replay({x2});
  EXPECT_EQ(a[0].to_vector<float>(), b[0].to_vector<float>());
}

TEST(FuseConvPool, CanBeTurnedOff) {
  auto model = cnn("relu", true, DType::Float32);
  ConvPoolFusionOff off;
  auto program = compile(gradients_of(model), batch(DType::Float32, 1));
  EXPECT_EQ(program->stats().fused_conv_pools, 0u);
  EXPECT_EQ(program->stats().fused_conv_pool_backwards, 0u);
}

// A subclassed model gets the pass too: it writes conv then max_pool with ops.
TEST(FuseConvPool, ASubclassedModelWritingOpsIsFused) {
  utils::set_random_seed(4);
  Variable kernel(random::normal({3, 3, 2, 5}, 0.0, 0.3, DType::Float32, 1));
  Variable bias(random::normal({5}, 0.0, 0.3, DType::Float32, 2));
  const Step step = [&](const TensorList& in) {
    GradientTape tape;
    Tensor z = ops::tanh(ops::add(ops::conv(in[0], kernel.value()), bias.value()));
    Tensor y = ops::max_pool(z, 2);
    Tensor loss = ops::sum(ops::square(y));
    std::vector<Tensor> g = tape.gradient(loss, std::vector<Tensor>{kernel.value(), bias.value()});
    return TensorList{y, g[0], g[1]};
  };
  const Tensor x = random::normal({2, 10, 9, 2}, 0.0, 1.0, DType::Float32, 3);
  auto program = compile(step, {x});
  const bool epilogue = backend::current().supports(backend::Capability::Epilogue);
  EXPECT_EQ(program->stats().fused_linears, epilogue ? 1u : 0u);
  // tanh's gradient is written with ops that read z, so the pair itself stays unfused here.
  EXPECT_EQ(program->stats().fused_conv_pools, 0u);
  const Tensor x2 = random::normal({2, 10, 9, 2}, 0.0, 1.0, DType::Float32, 4);
  const TensorList a = program->replay({x2}), b = step({x2});
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_LE(relative_difference(a[i], b[i]), kFloat32Tolerance) << "output " << i;
}

}  // namespace
}  // namespace keras
