// The cpu backend's chain kernels (backends/cpu/src/chain_kernels.h). Adam's update (with and
// without amsgrad) as the compiler fuses it, run through the backend's elementwise call, against
// the same IEEE operations done one step at a time over whole arrays in plain C++: special values,
// tails of every vector width, the split over threads, each instruction set this CPU runs. A chain
// whose arrays overlap keeps the step-by-step meaning (it must not take the kernel), and every
// optimizer with a kernel, in a compiled training step, takes it, with the eager step's bits.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "../../backends/cpu/src/chain_kernels.h"
#include "../../backends/cpu/src/isa.h"
#include "keras/keras.h"

namespace keras {
namespace {

using backend::BinaryOp;
using backend::ChainLayout;
using backend::ElementwiseChain;
using backend::ElementwiseStep;
using backend::UnaryOp;
using Kind = ElementwiseStep::Kind;

bool on_cpu() {
  return backend::current().name() == "cpu";
}

ElementwiseStep step(BinaryOp op, int out, int a, int b) {
  ElementwiseStep s;
  s.kind = Kind::Binary, s.op = static_cast<uint8_t>(op), s.out = out, s.in = {a, b, -1};
  return s;
}
ElementwiseStep step(UnaryOp op, int out, int a) {
  ElementwiseStep s;
  s.kind = Kind::Unary, s.op = static_cast<uint8_t>(op), s.out = out, s.in = {a, -1, -1};
  return s;
}

// Adam's update of one variable as the compiler fuses keras::optimizers::Adam's ops: arrays m,
// v, variable, gradient, the scalars 1 - beta_1, 1 - beta_2, epsilon, alpha; two temporaries.
ElementwiseChain adam_chain(int64_t n) {
  ElementwiseChain c;
  c.steps = {
      step(BinaryOp::Sub, 8, 3, 0), step(BinaryOp::Mul, 8, 8, 4), step(BinaryOp::Add, 0, 0, 8),
      step(UnaryOp::Square, 8, 3),  step(BinaryOp::Sub, 8, 8, 1), step(BinaryOp::Mul, 8, 8, 5),
      step(BinaryOp::Add, 1, 1, 8), step(UnaryOp::Sqrt, 8, 1),    step(BinaryOp::Add, 8, 8, 6),
      step(BinaryOp::Mul, 9, 0, 7), step(BinaryOp::Div, 8, 9, 8), step(BinaryOp::Sub, 2, 2, 8)};
  c.layouts = {ChainLayout::Dense,  ChainLayout::Dense,  ChainLayout::Dense,  ChainLayout::Dense,
               ChainLayout::Scalar, ChainLayout::Scalar, ChainLayout::Scalar, ChainLayout::Scalar};
  c.temp_dtypes = {DType::Float32, DType::Float32};
  c.numel = n;
  c.num_arrays = 8;
  return c;
}

// The same with amsgrad: v_hat = maximum(v_hat, v) divides in v's place. Arrays m, v, v_hat,
// variable, gradient, then the four scalars.
ElementwiseChain amsgrad_chain(int64_t n) {
  ElementwiseChain c = adam_chain(n);
  c.steps = {
      step(BinaryOp::Sub, 9, 4, 0), step(BinaryOp::Mul, 9, 9, 5),     step(BinaryOp::Add, 0, 0, 9),
      step(UnaryOp::Square, 9, 4),  step(BinaryOp::Sub, 9, 9, 1),     step(BinaryOp::Mul, 9, 9, 6),
      step(BinaryOp::Add, 1, 1, 9), step(BinaryOp::Maximum, 2, 2, 1), step(UnaryOp::Sqrt, 9, 2),
      step(BinaryOp::Add, 9, 9, 7), step(BinaryOp::Mul, 10, 0, 8),    step(BinaryOp::Div, 9, 10, 9),
      step(BinaryOp::Sub, 3, 3, 9)};
  c.layouts.insert(c.layouts.begin(), ChainLayout::Dense);
  c.num_arrays = 9;
  return c;
}

// The chain one step at a time over whole arrays, registers as pointers (so that two registers
// may be one array), in plain float arithmetic.
void reference(const ElementwiseChain& c, std::vector<float*> regs, int64_t n) {
  std::vector<std::vector<float>> temps(c.temp_dtypes.size(), std::vector<float>(n));
  for (auto& t : temps) regs.push_back(t.data());
  auto at = [&](int r, int64_t i) {
    return r < c.num_arrays && c.layouts[r] == ChainLayout::Scalar ? regs[r][0] : regs[r][i];
  };
  for (const ElementwiseStep& s : c.steps)
    for (int64_t i = 0; i < n; ++i) {
      const float x = at(s.in[0], i);
      float y = s.kind == Kind::Binary ? at(s.in[1], i) : 0.0f, r = 0;
      if (s.kind == Kind::Unary) {
        r = static_cast<UnaryOp>(s.op) == UnaryOp::Square ? x * x : std::sqrt(x);
      } else {
        switch (static_cast<BinaryOp>(s.op)) {
          case BinaryOp::Add:
            r = x + y;
            break;
          case BinaryOp::Sub:
            r = x - y;
            break;
          case BinaryOp::Mul:
            r = x * y;
            break;
          case BinaryOp::Maximum:  // NaN-propagating, the first operand's NaN first
            r = std::isnan(x) ? x : std::isnan(y) ? y : (x > y ? x : y);
            break;
          default:
            r = x / y;
            break;
        }
      }
      regs[s.out][i] = r;
    }
}

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof(float)) == 0;
}

// Values in Adam's ranges, with zeros, signed zeros, infinities, NaN, subnormals and negative
// second moments (sqrt of a negative: NaN) sprinkled in.
std::vector<float> values(int64_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  const float special[] = {0.0f,
                           -0.0f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN(),
                           1e-40f,
                           -1e-40f,
                           -1.0f};
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = gen() % 13 == 0 ? special[gen() % 8] : dist(gen);
  return v;
}

Tensor tensor(const std::vector<float>& v) {
  return Tensor::from_vector(v, {static_cast<int64_t>(v.size())});
}

TEST(ChainKernels, AdamEqualsItsStepsOneAtATimeOnEveryInstructionSet) {
  if (!on_cpu()) GTEST_SKIP() << "the cpu backend's kernels";
  struct Case {
    const char* name;
    ElementwiseChain (*chain)(int64_t);
    int moments;  // m, v (and v_hat): the dense arrays before the variable and the gradient
  };
  for (const Case& c : {Case{"Adam", adam_chain, 2}, Case{"Adam(amsgrad)", amsgrad_chain, 3}}) {
    // Tails of every vector width, and 70001: more than one task's grain, split over threads.
    for (int64_t n : {1, 7, 15, 16, 17, 33, 1031, 70001}) {
      for (cpu::Isa level : {cpu::Isa::Baseline, cpu::Isa::Avx2, cpu::Isa::Avx512}) {
        if (level > cpu::supported_isa()) continue;
        cpu::detail::IsaOverride scope(level);
        uint32_t seed = static_cast<uint32_t>(n) * 4 + static_cast<uint32_t>(level);
        std::vector<std::vector<float>> host = {values(n, seed++, -0.1f, 0.1f)};
        for (int k = 1; k < c.moments; ++k) host.push_back(values(n, seed++, 0.0f, 0.01f));
        host.push_back(values(n, seed++, -1.0f, 1.0f));  // the variable
        host.push_back(values(n, seed++, -2.0f, 2.0f));  // the gradient
        for (float s : {0.1f, 0.001f, 1e-7f, 0.00031f}) host.push_back({s});
        std::vector<Tensor> tensors;
        std::vector<backend::Array> arrays;
        for (const auto& h : host) tensors.push_back(tensor(h));
        for (const Tensor& t : tensors) arrays.push_back(t.array());
        const ElementwiseChain chain = c.chain(n);
        const uint64_t runs = cpu::chain_kernel_runs();
        backend::current().elementwise(chain, arrays);
        EXPECT_EQ(cpu::chain_kernel_runs(), runs + 1) << c.name << "'s chain took no kernel";

        std::vector<float*> regs;
        for (auto& h : host) regs.push_back(h.data());
        reference(chain, regs, n);
        for (int r = 0; r <= c.moments; ++r) {  // the moments and the variable
          const std::vector<float> got = tensors[r].to_vector<float>();
          for (int64_t i = 0; i < n; ++i)
            ASSERT_TRUE(same_bits(got[i], host[r][i]))
                << c.name << " " << cpu::name_of(level) << " n " << n << " register " << r << " at "
                << i << ": " << got[i] << " != " << host[r][i];
        }
      }
    }
  }
}

// The gradient is the first moment's own memory: step by step, m's new value is read where the
// gradient is (by g^2); a kernel, reading every input first, would read the old one.
TEST(ChainKernels, ArraysThatOverlapKeepTheStepByStepMeaning) {
  if (!on_cpu()) GTEST_SKIP() << "the cpu backend's kernels";
  const int64_t n = 1000;
  std::vector<std::vector<float>> host = {values(n, 1, -0.1f, 0.1f),
                                          values(n, 2, 0.0f, 0.01f),
                                          values(n, 3, -1.0f, 1.0f),
                                          {0.1f},
                                          {0.001f},
                                          {1e-7f},
                                          {0.00031f}};
  std::vector<Tensor> tensors;
  for (const auto& h : host) tensors.push_back(tensor(h));
  std::vector<backend::Array> arrays = {tensors[0].array(), tensors[1].array(), tensors[2].array(),
                                        tensors[0].array()};
  for (int r = 3; r < 7; ++r) arrays.push_back(tensors[r].array());
  const ElementwiseChain chain = adam_chain(n);
  const uint64_t runs = cpu::chain_kernel_runs();
  backend::current().elementwise(chain, arrays);
  EXPECT_EQ(cpu::chain_kernel_runs(), runs);

  std::vector<float*> regs = {host[0].data(), host[1].data(), host[2].data(), host[0].data(),
                              host[3].data(), host[4].data(), host[5].data(), host[6].data()};
  reference(chain, regs, n);
  for (int r = 0; r < 3; ++r) {
    const std::vector<float> got = tensors[r].to_vector<float>();
    for (int64_t i = 0; i < n; ++i)
      ASSERT_TRUE(same_bits(got[i], host[r][i])) << "register " << r << " at " << i;
  }
}

// The optimizers with chain kernels, compiled into the training step, take them (one chain per
// variable and step, AdamW's weight decay a second) and train to the eager step's bits.
TEST(ChainKernels, CompiledOptimizersTakeTheirKernelsWithTheEagerBits) {
  if (!on_cpu()) GTEST_SKIP() << "the cpu backend's kernels";
  struct Case {
    const char* name;
    optimizers::OptimizerPtr (*make)();
    uint64_t kernels_per_step;
  };
  const Case cases[] = {
      {"Adam", [] { return optimizers::OptimizerPtr(optimizers::Adam(1e-2)); }, 4},
      {"AdamW", [] { return optimizers::OptimizerPtr(optimizers::AdamW(1e-2)); }, 8},
      {"SGD",
       [] {
         return optimizers::OptimizerPtr(optimizers::SGD({.learning_rate = 0.05, .momentum = 0.9}));
       },
       4},
      {"RMSprop", [] { return optimizers::OptimizerPtr(optimizers::RMSprop(1e-2)); }, 4},
      {"Adam(amsgrad)",
       [] {
         return optimizers::OptimizerPtr(
             optimizers::Adam({.learning_rate = 1e-2, .amsgrad = true}));
       },
       4},
      {"SGD(plain)", [] { return optimizers::OptimizerPtr(optimizers::SGD(0.05)); }, 4},
      {"SGD(nesterov)",
       [] {
         return optimizers::OptimizerPtr(
             optimizers::SGD({.learning_rate = 0.05, .momentum = 0.9, .nesterov = true}));
       },
       4},
      {"Adagrad", [] { return optimizers::OptimizerPtr(optimizers::Adagrad(1e-1)); }, 4}};
  for (const Case& c : cases) {
    auto trained = [&](bool jit, uint64_t* kernel_runs) {
      auto model =
          Sequential({Input({20}), layers::Dense(8, {.activation = "relu"}), layers::Dense(3)});
      std::vector<Tensor> init;
      for (int k = 0; k < 4; ++k) {
        const int64_t rows = k == 0 ? 20 : k == 2 ? 8 : 1, cols = k < 2 ? 8 : 3;
        std::vector<float> w = values(rows * cols, 100 + k, -0.5f, 0.5f);
        for (float& x : w) x = std::isfinite(x) ? x : 0.25f;
        init.push_back(Tensor::from_vector(w, rows == 1 ? Shape{cols} : Shape{rows, cols}));
      }
      model->set_weights(init);
      model->compile({.optimizer = c.make(),
                      .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                      .jit_compile = jit ? "true" : "false"});
      std::vector<float> xv(32 * 20);
      for (size_t i = 0; i < xv.size(); ++i) xv[i] = std::sin(0.37f * static_cast<float>(i));
      const Tensor x = Tensor::from_vector(xv, {32, 20});
      std::vector<int32_t> yv(32);
      for (int i = 0; i < 32; ++i) yv[i] = i % 3;
      const Tensor y = Tensor::from_vector(yv, {32});
      // The compiled step replays from the fourth call on (keras/compiler/jit.h).
      for (int s = 0; s < 6; ++s) model->train_on_batch(x, y);
      const uint64_t before = cpu::chain_kernel_runs();
      for (int s = 0; s < 3; ++s) model->train_on_batch(x, y);
      *kernel_runs = cpu::chain_kernel_runs() - before;
      return model->get_weights();
    };
    uint64_t compiled_runs = 0, eager_runs = 0;
    const std::vector<Tensor> compiled = trained(true, &compiled_runs);
    const std::vector<Tensor> eager = trained(false, &eager_runs);
    EXPECT_EQ(compiled_runs, c.kernels_per_step * 3) << c.name;
    EXPECT_EQ(eager_runs, 0u) << c.name;
    ASSERT_EQ(compiled.size(), eager.size());
    for (size_t k = 0; k < compiled.size(); ++k)
      EXPECT_EQ(compiled[k].to_vector<float>(), eager[k].to_vector<float>())
          << c.name << " weight " << k;
  }
}

}  // namespace
}  // namespace keras
