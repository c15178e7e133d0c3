#include "chain_kernels.h"

#include <array>
#include <atomic>
#include <cmath>
#include <utility>

#include "chain_patterns.h"
#include "isa.h"

namespace keras::cpu {
namespace {

using backend::BinaryOp;
using backend::ChainLayout;
using backend::ElementwiseStep;
using backend::UnaryOp;
using Kind = ElementwiseStep::Kind;
using namespace chain_patterns;

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
  // No element depends on another (same_meaning): each index is one pass through the steps.
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
        if constexpr (op == BinaryOp::Maximum) {
          // float_binary_rows' maximum: NaN-propagating, x's NaN first.
          const float m = x > y ? x : y;
          v[st.out] = x != x ? x : m;
        }
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
      if (op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::Mul &&
          op != BinaryOp::Div && op != BinaryOp::Maximum)
        return false;
    } else {
      return false;
    }
  }
  return true;
}
static_assert(uses_known_ops(kAdam) && uses_known_ops(kAdamAfterDecay) &&
              uses_known_ops(kWeightDecay) && uses_known_ops(kSgdMomentum) &&
              uses_known_ops(kRmsprop) && uses_known_ops(kAdamAmsgrad) && uses_known_ops(kSgd) &&
              uses_known_ops(kSgdNesterov) && uses_known_ops(kAdagrad));

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

// The step that reads an array register last (-1: none), and the step that writes it first (S:
// none).
template <size_t S>
constexpr std::array<int, 32> last_reads(const Pattern<S>& p) {
  std::array<int, 32> last{};
  last.fill(-1);
  for (int k = 0; k < static_cast<int>(S); ++k)
    for (int r : {p.steps[k].a, p.steps[k].b})
      if (r >= 0 && r < p.num_arrays) last[r] = k;
  return last;
}
template <size_t S>
constexpr std::array<int, 32> first_writes(const Pattern<S>& p) {
  std::array<int, 32> first{};
  first.fill(static_cast<int>(S));
  for (int k = static_cast<int>(S) - 1; k >= 0; --k)
    if (p.steps[k].out < p.num_arrays) first[p.steps[k].out] = k;
  return first;
}

// Whether the kernel means what the chain does on these arrays. A kernel reads an element of
// every array before it writes any, where the chain, step by step, would see an earlier step's
// write through another view of the same memory. So an array the chain writes must be apart
// from the others, or be exactly the same memory as one it only reads and reads no more once
// the write has happened (AdamW: the decay reads the variable and writes it).
template <const auto& P>
bool same_meaning(const backend::ElementwiseChain& chain, std::span<const backend::Array> arrays) {
  constexpr uint32_t kWritten = written_arrays(P);
  constexpr std::array<int, 32> kLastRead = last_reads(P), kFirstWrite = first_writes(P);
  auto extent = [&](size_t r) {
    const auto* first = static_cast<const char*>(arrays[r].data());
    const int64_t n = chain.layouts[r] == ChainLayout::Scalar ? 1 : chain.numel;
    return std::pair(first, first + n * static_cast<int64_t>(sizeof(float)));
  };
  for (size_t i = 0; i < arrays.size(); ++i)
    for (size_t j = i + 1; j < arrays.size(); ++j) {
      const bool wi = kWritten >> i & 1, wj = kWritten >> j & 1;
      if (!wi && !wj) continue;
      const auto [a0, a1] = extent(i);
      const auto [b0, b1] = extent(j);
      if (a1 <= b0 || b1 <= a0) continue;
      if ((wi && wj) || a0 != b0 || a1 != b1) return false;
      const size_t written = wi ? i : j, read = wi ? j : i;
      if (kLastRead[read] > kFirstWrite[written]) return false;
    }
  return true;
}

template <const auto& P>
ChainKernel kernel_if_matching(const backend::ElementwiseChain& chain,
                               std::span<const backend::Array> arrays) {
  return matches(P, chain, arrays) && same_meaning<P>(chain, arrays) ? pattern_kernel<P> : nullptr;
}

std::atomic<uint64_t> kernel_runs{0};

}  // namespace

ChainKernel find_chain_kernel(const backend::ElementwiseChain& chain,
                              std::span<const backend::Array> arrays) {
  for (auto find :
       {kernel_if_matching<kAdam>, kernel_if_matching<kAdamAfterDecay>,
        kernel_if_matching<kWeightDecay>, kernel_if_matching<kSgdMomentum>,
        kernel_if_matching<kRmsprop>, kernel_if_matching<kAdamAmsgrad>, kernel_if_matching<kSgd>,
        kernel_if_matching<kSgdNesterov>, kernel_if_matching<kAdagrad>})
    if (ChainKernel kernel = find(chain, arrays)) return kernel;
  return nullptr;
}

uint64_t chain_kernel_runs() {
  return kernel_runs.load(std::memory_order_relaxed);
}
void count_chain_kernel_run() {
  kernel_runs.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace keras::cpu
