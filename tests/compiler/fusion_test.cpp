// The elementwise fusion pass: a run of elementwise calls becomes one backend call whose
// results equal the unfused program's bit for bit (the pass must not change rounding) and a
// host computation in double within float rounding; buffers only the run uses leave the
// arena; and the run stops where fusing would read a buffer through a view it also writes.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "compiler/fuse_elementwise.h"
#include "compiler/program.h"
#include "keras/keras.h"
#include "program_helpers.h"

namespace keras {
namespace {

using compiler::detail::ElementwiseFusionOff;
using compiler::detail::Program;
using compiler::detail::Trace;
using test_compiler::random_floats;

bool backend_fuses() {
  return backend::use_fused(backend::current(), backend::Capability::Elementwise);
}

// Adam's update of one variable (as the optimizer writes it with ops), traced into a program.
// n is not a multiple of the backend's block, so the last block is partial.
struct AdamStep {
  static constexpr int64_t n = 10007;
  Variable w{Tensor::from_vector(random_floats(n, 1, -1, 1), {n})};
  Variable m{ops::zeros({n})}, v{ops::zeros({n})};

  TensorList run(const TensorList& in) {
    const Tensor& g = in[0];
    m.assign(ops::add(ops::multiply(m.value(), 0.9), ops::multiply(g, 0.1)));
    v.assign(ops::add(ops::multiply(v.value(), 0.999), ops::multiply(ops::square(g), 0.001)));
    Tensor step = ops::divide(ops::multiply(m.value(), 0.01),
                              ops::add(ops::sqrt(v.value()), 1e-7));
    w.assign(ops::subtract(w.value(), step));
    return {ops::sum(w.value())};
  }

  std::unique_ptr<Program> compile(const Tensor& g) {
    auto trace = std::make_unique<Trace>(TensorList{g});
    TensorList out = run(trace->inputs);
    trace->stop();
    trace->set_outputs(out);
    return std::make_unique<Program>(std::move(trace));
  }
};

TEST(ElementwiseFusion, AdamsUpdateIsOneCallWithTheUnfusedBits) {
  AdamStep fused_step, plain_step;
  const Tensor g0 = Tensor::from_vector(random_floats(AdamStep::n, 2, -1, 1), {AdamStep::n});
  std::unique_ptr<Program> fused = fused_step.compile(g0), plain;
  {
    ElementwiseFusionOff off;
    plain = plain_step.compile(g0);
  }
  if (backend_fuses()) {
    EXPECT_GE(fused->stats().fused_chains, 1u);
    EXPECT_GE(fused->stats().fused_calls, 10u);
    // Each assign copies a value the step before computed (m, v, w): written in place.
    EXPECT_EQ(fused->stats().chain_copies_in_place, 3u);
    EXPECT_LT(fused->stats().replayed_calls, plain->stats().replayed_calls);
    EXPECT_LT(fused->stats().arena_bytes, plain->stats().arena_bytes);
  }
  EXPECT_EQ(plain->stats().fused_chains, 0u);

  // The host reference in double, from the traced call's state on.
  auto doubles = [](const Variable& var) {
    const std::vector<float> f = var.value().to_vector<float>();
    return std::vector<double>(f.begin(), f.end());
  };
  std::vector<double> w = doubles(fused_step.w), m = doubles(fused_step.m),
                      v = doubles(fused_step.v);
  for (int call = 0; call < 4; ++call) {
    const std::vector<float> gv = random_floats(AdamStep::n, 10 + call, -2, 2);
    const Tensor g = Tensor::from_vector(gv, {AdamStep::n});
    fused->replay({g});
    plain->replay({g});
    for (int64_t i = 0; i < AdamStep::n; ++i) {
      m[i] = 0.9 * m[i] + 0.1 * gv[i];
      v[i] = 0.999 * v[i] + 0.001 * double(gv[i]) * gv[i];
      w[i] -= 0.01 * m[i] / (std::sqrt(v[i]) + 1e-7);
    }
  }
  EXPECT_EQ(fused_step.w.value().to_vector<float>(), plain_step.w.value().to_vector<float>());
  EXPECT_EQ(fused_step.m.value().to_vector<float>(), plain_step.m.value().to_vector<float>());
  EXPECT_EQ(fused_step.v.value().to_vector<float>(), plain_step.v.value().to_vector<float>());
  const std::vector<float> got = fused_step.w.value().to_vector<float>();
  for (int64_t i = 0; i < AdamStep::n; ++i) ASSERT_NEAR(got[i], w[i], 1e-5 * (1 + std::abs(w[i]))) << i;
}

// A value assigned to a variable and read again afterwards keeps its own register: only a
// copy whose source nothing reads later becomes the step before it writing the target. The
// fused program gives the unfused bits and a host computation's values.
TEST(ElementwiseFusion, AssignedValuesReadAgainKeepTheirCopies) {
  const int64_t n = 4099;
  const std::vector<float> w0 = random_floats(n, 3, -1, 1), gv = random_floats(n, 4, -1, 1);
  struct Step {
    Variable w, u;
    TensorList run(const TensorList& in) {
      Tensor t = ops::add(w.value(), in[0]);
      w.assign(t);                                          // t is read again below
      u.assign(ops::multiply(ops::subtract(t, 0.5), 3.0));  // this copy's source is not
      return {ops::multiply(t, 2.0), ops::sum(u.value())};
    }
  };
  auto program = [&](Step& step, bool fuse) {
    auto trace = std::make_unique<Trace>(TensorList{Tensor::from_vector(gv, {n})});
    TensorList out = step.run(trace->inputs);
    trace->stop();
    trace->set_outputs(out);
    if (fuse) return std::make_unique<Program>(std::move(trace));
    ElementwiseFusionOff off;
    return std::make_unique<Program>(std::move(trace));
  };
  Step fused_step{Variable(Tensor::from_vector(w0, {n})), Variable(ops::zeros({n}))};
  Step plain_step{Variable(Tensor::from_vector(w0, {n})), Variable(ops::zeros({n}))};
  auto fused = program(fused_step, true), plain = program(plain_step, false);
  if (backend_fuses()) {
    EXPECT_EQ(fused->stats().chain_copies_in_place, 1u);
  }
  const Tensor g = Tensor::from_vector(gv, {n});
  const std::vector<float> start = fused_step.w.value().to_vector<float>();
  TensorList a = fused->replay({g}), b = plain->replay({g});
  EXPECT_EQ(a[0].to_vector<float>(), b[0].to_vector<float>());
  EXPECT_EQ(fused_step.w.value().to_vector<float>(), plain_step.w.value().to_vector<float>());
  EXPECT_EQ(fused_step.u.value().to_vector<float>(), plain_step.u.value().to_vector<float>());
  const std::vector<float> doubled = a[0].to_vector<float>();
  const std::vector<float> u = fused_step.u.value().to_vector<float>();
  for (int64_t i = 0; i < n; ++i) {
    const double t = double(start[i]) + gv[i];
    ASSERT_NEAR(doubled[i], 2 * t, 1e-5) << i;
    ASSERT_NEAR(u[i], (t - 0.5) * 3, 1e-5) << i;
  }
}

// Random chains of unary, binary, comparison, where and cast calls over dense operands and
// broadcast ones (a scalar, a bias-like row broadcast over the batch, a per-row value as a
// mean is): fused and unfused programs agree bit for bit on fresh inputs.
TEST(ElementwiseFusion, RandomChainsKeepTheUnfusedBits) {
  const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 7}, {64, 64}, {17, 241}, {233, 301}};
  for (uint32_t seed = 0; seed < 30; ++seed) {
    const auto [rows, cols] = sizes[seed % 5];
    auto inputs = [&, rows = rows, cols = cols](uint32_t s) {
      return TensorList{
          Tensor::from_vector(random_floats(rows * cols, s, -3, 3), {rows, cols}),
          Tensor::from_vector(random_floats(rows * cols, s + 1, -3, 3), {rows, cols}),
          Tensor::from_vector(random_floats(cols, s + 2, -1, 1), {cols}),
          Tensor::from_vector(random_floats(rows, s + 3, -1, 1), {rows, 1})};
    };
    auto chain = [seed](const TensorList& in) {
      std::mt19937 pick(seed * 7919u + 1);
      std::vector<Tensor> pool = {in[0], in[1], ops::multiply(in[0], 0.5)};
      for (int k = 0; k < 12; ++k) {
        const Tensor& a = pool[pick() % pool.size()];
        const Tensor& b = pool[pick() % pool.size()];
        Tensor r;
        switch (pick() % 10) {
          case 0: r = ops::add(a, b); break;
          case 1: r = ops::multiply(a, b); break;
          case 2: r = ops::tanh(a); break;
          case 3: r = ops::where(ops::greater(a, b), a, ops::multiply(b, -2.0)); break;
          case 4: r = ops::cast(ops::cast(a, DType::Float64), DType::Float32); break;
          case 5: r = ops::subtract(a, 1.5); break;       // a scalar
          case 6: r = ops::sigmoid(b); break;
          case 7: r = ops::maximum(a, in[2]); break;      // a row over every row (a bias)
          case 8: r = ops::divide(a, ops::add(ops::abs(in[3]), 1.0)); break;  // one per row
          default: r = ops::exp(ops::negative(ops::abs(a))); break;
        }
        pool.push_back(r);
      }
      return TensorList{pool.back(), pool[pool.size() - 4]};
    };
    auto program = [&](bool fuse) {
      auto trace = std::make_unique<Trace>(inputs(seed));
      TensorList out = chain(trace->inputs);
      trace->stop();
      trace->set_outputs(out);
      if (fuse) return std::make_unique<Program>(std::move(trace));
      ElementwiseFusionOff off;
      return std::make_unique<Program>(std::move(trace));
    };
    auto fused = program(true), plain = program(false);
    if (backend_fuses()) {
      EXPECT_GE(fused->stats().fused_chains, 1u) << seed;
    }
    TensorList in = inputs(seed + 1000);
    TensorList a = fused->replay(in), b = plain->replay(in);
    for (size_t k = 0; k < a.size(); ++k)
      ASSERT_EQ(a[k].to_vector<float>(), b[k].to_vector<float>())
          << "seed " << seed << " shape " << rows << "x" << cols;
  }
}

// Layer normalization written with ops (as a subclassed layer would): the per-row mean and
// variance and the per-column scale and offset join one chain with the dense operands; the
// result matches a host computation in double.
TEST(ElementwiseFusion, LayerNormalizationWithRowAndColumnOperandsFuses) {
  const int64_t rows = 50, cols = 96;
  const std::vector<float> gamma = random_floats(cols, 3, 0.5, 1.5), beta = random_floats(cols, 4, -1, 1);
  Tensor g = Tensor::from_vector(gamma, {cols}), b = Tensor::from_vector(beta, {cols});
  auto norm = [&](const TensorList& in) {
    Tensor mean = ops::mean(in[0], -1, true);
    Tensor centered = ops::subtract(in[0], mean);
    Tensor var = ops::mean(ops::square(centered), -1, true);
    Tensor y = ops::multiply(ops::multiply(centered, ops::rsqrt(ops::add(var, 1e-5))), g);
    return TensorList{ops::add(y, b)};
  };
  auto trace = std::make_unique<Trace>(
      TensorList{Tensor::from_vector(random_floats(rows * cols, 1, -2, 2), {rows, cols})});
  TensorList out = norm(trace->inputs);
  trace->stop();
  trace->set_outputs(out);
  Program program(std::move(trace));
  if (backend_fuses()) {
    EXPECT_GE(program.stats().fused_calls, 4u);
  }
  const std::vector<float> x = random_floats(rows * cols, 2, -2, 2);
  const std::vector<float> got =
      program.replay({Tensor::from_vector(x, {rows, cols})})[0].to_vector<float>();
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < cols; ++c) mean += x[r * cols + c];
    mean /= cols;
    for (int64_t c = 0; c < cols; ++c) var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    var /= cols;
    for (int64_t c = 0; c < cols; ++c) {
      const double want = (x[r * cols + c] - mean) / std::sqrt(var + 1e-5) * gamma[c] + beta[c];
      ASSERT_NEAR(got[r * cols + c], want, 2e-5) << r << "," << c;
    }
  }
}

// A copy into one half of a buffer from its other half, then arithmetic on the buffer: the
// buffer is written through one view and read through another, which a block-by-block pass
// could not do in order. The pass must leave such a pair unfused, and the result must hold.
TEST(ElementwiseFusion, ABufferWrittenAndReadThroughTwoViewsIsNotFusedTogether) {
  const int64_t n = 9000;
  auto run = [&](const TensorList& in) {
    Tensor buf = ops::concatenate({ops::add(in[0], 1.0), ops::multiply(in[0], 3.0)}, 0);  // 2n
    Tensor lo = buf.slice({{0, n}}), hi = buf.slice({{n, 2 * n}});
    Tensor mixed = ops::add(ops::exp(ops::negative(lo)), hi);
    return TensorList{ops::multiply(mixed, hi)};
  };
  std::vector<float> x = random_floats(n, 5, -1, 1);
  auto trace = std::make_unique<Trace>(TensorList{Tensor::from_vector(x, {n})});
  TensorList out = run(trace->inputs);
  trace->stop();
  trace->set_outputs(out);
  Program program(std::move(trace));
  std::vector<float> x2 = random_floats(n, 6, -1, 1);
  const std::vector<float> got = program.replay({Tensor::from_vector(x2, {n})})[0].to_vector<float>();
  for (int64_t i = 0; i < n; ++i) {
    const float lo = x2[i] + 1.0f, hi = x2[i] * 3.0f;
    ASSERT_NEAR(got[i], (std::exp(-lo) + hi) * hi, 1e-5f * (1 + std::abs(got[i]))) << i;
  }
}

}  // namespace
}  // namespace keras
