#include "chain_kernels.h"

#include <array>
#include <atomic>
#include <cmath>
#include <utility>

#include "isa.h"

namespace keras::cpu {
namespace {

using backend::BinaryOp;
using backend::ChainLayout;
using backend::ElementwiseStep;
using backend::UnaryOp;
using Kind = ElementwiseStep::Kind;

// One step of a pattern: the chain's step with the same kind, op and registers.
struct PatternStep {
  Kind kind;
  uint8_t op;
  int out, a, b;  // b is -1 for a unary step
};

constexpr PatternStep binary(BinaryOp op, int out, int a, int b) {
  return {Kind::Binary, static_cast<uint8_t>(op), out, a, b};
}
constexpr PatternStep unary(UnaryOp op, int out, int a) {
  return {Kind::Unary, static_cast<uint8_t>(op), out, a, -1};
}

// A chain as the compiler fuses it: arrays first (dense, or a broadcast scalar where `scalars`
// has the array's bit), then the temporaries.
template <size_t S>
struct Pattern {
  int num_arrays, num_temps;
  uint32_t scalars;
  std::array<PatternStep, S> steps;
};

// keras::optimizers::Adam's update of one float32 variable (amsgrad off), as the compiler
// fuses it: m += (g - m) * (1 - beta_1); v += (g^2 - v) * (1 - beta_2);
// variable -= m * alpha / (sqrt(v) + epsilon), alpha the bias-corrected learning rate.
// Registers: m, v, variable, gradient; then the scalars 1 - beta_1, 1 - beta_2, epsilon,
// alpha; then two temporaries.
constexpr Pattern<12> kAdam{
    8,
    2,
    0b11110000,
    {binary(BinaryOp::Sub, 8, 3, 0), binary(BinaryOp::Mul, 8, 8, 4), binary(BinaryOp::Add, 0, 0, 8),
     unary(UnaryOp::Square, 8, 3), binary(BinaryOp::Sub, 8, 8, 1), binary(BinaryOp::Mul, 8, 8, 5),
     binary(BinaryOp::Add, 1, 1, 8), unary(UnaryOp::Sqrt, 8, 1), binary(BinaryOp::Add, 8, 8, 6),
     binary(BinaryOp::Mul, 9, 0, 7), binary(BinaryOp::Div, 8, 9, 8),
     binary(BinaryOp::Sub, 2, 2, 8)}};

template <size_t S>
constexpr uint32_t written_arrays(const Pattern<S>& p) {
  uint32_t mask = 0;
  for (const PatternStep& s : p.steps)
    if (s.out < p.num_arrays) mask |= 1u << s.out;
  return mask;
}

template <int... I, typename F>
[[gnu::always_inline]] inline void unrolled(std::integer_sequence<int, I...>, F&& f) {
  (f(std::integral_constant<int, I>{}), ...);
}

// The pattern's steps per element, its registers in v (kept in vector registers once the loop
// over elements is vectorized: every index is a constant).
template <const auto& P>
[[gnu::always_inline]] inline void run_pattern(float* const* arrays, int64_t begin, int64_t end) {
  constexpr int kArrays = P.num_arrays, kRegs = P.num_arrays + P.num_temps;
  constexpr uint32_t kWritten = written_arrays(P);
  constexpr auto kArrayIndex = std::make_integer_sequence<int, kArrays>();
  float* d[kArrays];
  float s[kArrays];
  unrolled(kArrayIndex, [&](auto r) {
    if constexpr (P.scalars >> r & 1)
      s[r] = *arrays[r];
    else
      d[r] = arrays[r];
  });
  // The arrays were checked apart (find_chain_kernel): no element depends on another.
#pragma GCC ivdep
  for (int64_t i = begin; i < end; ++i) {
    float v[kRegs];
    unrolled(kArrayIndex, [&](auto r) {
      if constexpr (P.scalars >> r & 1)
        v[r] = s[r];
      else
        v[r] = d[r][i];
    });
    unrolled(std::make_integer_sequence<int, static_cast<int>(P.steps.size())>(), [&](auto k) {
      constexpr PatternStep st = P.steps[k];
      if constexpr (st.kind == Kind::Unary) {
        constexpr auto op = static_cast<UnaryOp>(st.op);
        const float x = v[st.a];
        if constexpr (op == UnaryOp::Neg) v[st.out] = -x;
        if constexpr (op == UnaryOp::Square) v[st.out] = x * x;
        if constexpr (op == UnaryOp::Sqrt) v[st.out] = std::sqrt(x);
        if constexpr (op == UnaryOp::Reciprocal) v[st.out] = 1.0f / x;
      } else {
        constexpr auto op = static_cast<BinaryOp>(st.op);
        const float x = v[st.a], y = v[st.b];
        if constexpr (op == BinaryOp::Add) v[st.out] = x + y;
        if constexpr (op == BinaryOp::Sub) v[st.out] = x - y;
        if constexpr (op == BinaryOp::Mul) v[st.out] = x * y;
        if constexpr (op == BinaryOp::Div) v[st.out] = x / y;
      }
    });
    unrolled(kArrayIndex, [&](auto r) {
      if constexpr (!(P.scalars >> r & 1) && (kWritten >> r & 1)) d[r][i] = v[r];
    });
  }
}

// The ops a pattern may use: those run_pattern computes.
template <size_t S>
constexpr bool uses_known_ops(const Pattern<S>& p) {
  for (const PatternStep& s : p.steps) {
    if (s.kind == Kind::Unary) {
      const auto op = static_cast<UnaryOp>(s.op);
      if (op != UnaryOp::Neg && op != UnaryOp::Square && op != UnaryOp::Sqrt &&
          op != UnaryOp::Reciprocal)
        return false;
    } else if (s.kind == Kind::Binary) {
      const auto op = static_cast<BinaryOp>(s.op);
      if (op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::Mul && op != BinaryOp::Div)
        return false;
    } else {
      return false;
    }
  }
  return true;
}
static_assert(uses_known_ops(kAdam));

template <const auto& P>
KERAS_TARGET_AVX512 void pattern_avx512(float* const* arrays, int64_t begin, int64_t end) {
  run_pattern<P>(arrays, begin, end);
}
template <const auto& P>
KERAS_TARGET_AVX2 void pattern_avx2(float* const* arrays, int64_t begin, int64_t end) {
  run_pattern<P>(arrays, begin, end);
}
template <const auto& P>
void pattern_baseline(float* const* arrays, int64_t begin, int64_t end) {
  run_pattern<P>(arrays, begin, end);
}
template <const auto& P>
void pattern_kernel(float* const* arrays, int64_t begin, int64_t end) {
  by_isa(pattern_avx512<P>, pattern_avx2<P>, pattern_baseline<P>, arrays, begin, end);
}

template <size_t S>
bool matches(const Pattern<S>& p, const backend::ElementwiseChain& chain,
             std::span<const backend::Array> arrays) {
  if (static_cast<int>(arrays.size()) != p.num_arrays ||
      static_cast<int>(chain.temp_dtypes.size()) != p.num_temps || chain.steps.size() != S)
    return false;
  for (int r = 0; r < p.num_arrays; ++r) {
    const ChainLayout want = p.scalars >> r & 1 ? ChainLayout::Scalar : ChainLayout::Dense;
    if (arrays[r].dtype != DType::Float32 || chain.layouts[r] != want) return false;
  }
  for (DType t : chain.temp_dtypes)
    if (t != DType::Float32) return false;
  for (size_t k = 0; k < S; ++k) {
    const ElementwiseStep& s = chain.steps[k];
    const PatternStep& w = p.steps[k];
    if (s.kind != w.kind || s.op != w.op || s.out != w.out || s.in[0] != w.a ||
        (w.b >= 0 && s.in[1] != w.b))
      return false;
  }
  return true;
}

// Whether every array the chain writes is apart from the other arrays: a kernel reads an
// element of every array before it writes any, where the chain step by step would see an
// earlier step's write through another view of the same memory.
bool apart(const backend::ElementwiseChain& chain, std::span<const backend::Array> arrays,
           uint32_t written) {
  auto extent = [&](size_t r) {
    const auto* first = static_cast<const char*>(arrays[r].data());
    const int64_t n = chain.layouts[r] == ChainLayout::Scalar ? 1 : chain.numel;
    return std::pair(first, first + n * static_cast<int64_t>(sizeof(float)));
  };
  for (size_t i = 0; i < arrays.size(); ++i)
    for (size_t j = i + 1; j < arrays.size(); ++j) {
      if (!(written >> i & 1) && !(written >> j & 1)) continue;
      const auto [a0, a1] = extent(i);
      const auto [b0, b1] = extent(j);
      if (a0 < b1 && b0 < a1) return false;
    }
  return true;
}

std::atomic<uint64_t> kernel_runs{0};

}  // namespace

ChainKernel find_chain_kernel(const backend::ElementwiseChain& chain,
                              std::span<const backend::Array> arrays) {
  if (matches(kAdam, chain, arrays) && apart(chain, arrays, written_arrays(kAdam)))
    return pattern_kernel<kAdam>;
  return nullptr;
}

uint64_t chain_kernel_runs() {
  return kernel_runs.load(std::memory_order_relaxed);
}
void count_chain_kernel_run() {
  kernel_runs.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace keras::cpu
