// The cpu backend's int8 GEMM (backends/cpu/src/int8_gemm.h) at every instruction-set level
// this CPU runs (IsaOverride), against a naive int32 loop: exact, including the extremes of
// int8 (-128 * -128 sums, which saturate vpmaddubsw's int16 pairs) and every tail of the
// kernels' panels (columns not a multiple of 16 or 32, depths not a multiple of 4, row counts
// not a multiple of the micro-kernel's), on one thread and on the pool.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../../backends/cpu/src/int8_gemm.h"
#include "../../backends/cpu/src/isa.h"
#include "../../backends/cpu/src/thread_pool.h"
#include "keras/keras.h"

namespace keras {
namespace {

using cpu::Isa;

std::vector<int32_t> naive(int64_t m, int64_t n, int64_t k, const std::vector<int8_t>& a,
                           const std::vector<int8_t>& b) {
  std::vector<int32_t> c(static_cast<size_t>(m * n), 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int64_t kk = 0; kk < k; ++kk) sum += int64_t{a[i * k + kk]} * b[kk * n + j];
      c[i * n + j] = static_cast<int32_t>(sum);
    }
  return c;
}

std::vector<int8_t> random_int8(size_t count, std::mt19937& rng, bool extremes) {
  std::uniform_int_distribution<int> any(-128, 127), pick(0, 3);
  std::vector<int8_t> out(count);
  for (auto& v : out) {
    v = static_cast<int8_t>(any(rng));
    if (extremes && pick(rng) == 0) v = pick(rng) < 2 ? int8_t{-128} : int8_t{127};
  }
  return out;
}

struct Dims {
  int64_t m, n, k;
};

TEST(Int8Gemm, ExactAtEveryIsaLevel) {
  const std::vector<Dims> dims = {{1, 1, 1},    {3, 5, 7},     {6, 32, 4},   {7, 33, 5},
                                  {13, 17, 130}, {32, 64, 784}, {32, 10, 512}, {64, 96, 300},
                                  {5, 48, 0}};
  std::mt19937 rng(7);
  std::vector<std::string> kernels;
  for (Isa level : {Isa::Baseline, Isa::Avx2, Isa::Avx512}) {
    if (level > cpu::supported_isa()) continue;
    cpu::detail::IsaOverride scope(level);
    kernels.push_back(cpu::int8_gemm_kernel());
    for (const Dims& d : dims)
      for (bool extremes : {false, true}) {
        auto a = random_int8(static_cast<size_t>(d.m * d.k), rng, extremes);
        auto b = random_int8(static_cast<size_t>(d.k * d.n), rng, extremes);
        std::vector<int32_t> c(static_cast<size_t>(d.m * d.n), -1);
        cpu::int8_gemm(d.m, d.n, d.k, a.data(), b.data(), c.data());
        EXPECT_EQ(c, naive(d.m, d.n, d.k, a, b))
            << cpu::int8_gemm_kernel() << " m=" << d.m << " n=" << d.n << " k=" << d.k
            << (extremes ? " with extremes" : "");
      }
  }
  std::cout << "[int8 gemm] kernels checked:";
  for (const auto& k : kernels) std::cout << " " << k;
  std::cout << "\n";
}

TEST(Int8Gemm, AllMinusOneTwentyEightSumsPastInt16) {
  // -128 * -128 * k: each pair sum (32768) overflows int16; the int32 result must not.
  const int64_t m = 4, n = 40, k = 1000;
  std::vector<int8_t> a(m * k, -128), b(k * n, -128);
  for (Isa level : {Isa::Baseline, Isa::Avx2, Isa::Avx512}) {
    if (level > cpu::supported_isa()) continue;
    cpu::detail::IsaOverride scope(level);
    std::vector<int32_t> c(m * n, 0);
    cpu::int8_gemm(m, n, k, a.data(), b.data(), c.data());
    for (int32_t v : c) ASSERT_EQ(v, 128 * 128 * 1000) << cpu::int8_gemm_kernel();
  }
}

TEST(Int8Gemm, OpsMatmulOfInt8UsesTheKernelAndMatchesTheInt32Product) {
  // ops::matmul(int8, int8) is int32 (Keras's preferred_element_type): the fused kernel and the
  // decomposition (cast to int32, matmul) agree, for a rank-3 left operand too.
  std::mt19937 rng(3);
  auto av = random_int8(2 * 5 * 37, rng, true), bv = random_int8(37 * 19, rng, true);
  Tensor a = ops::convert_to_tensor(av, {2, 5, 37});
  Tensor b = ops::convert_to_tensor(bv, {37, 19});
  Tensor fused = ops::matmul(a, b);
  EXPECT_EQ(fused.dtype(), DType::Int32);
  EXPECT_EQ(fused.shape(), (Shape{2, 5, 19}));
  Tensor reference = ops::matmul(ops::cast(a, DType::Int32), ops::cast(b, DType::Int32));
  EXPECT_EQ(fused.to_vector<int32_t>(), reference.to_vector<int32_t>());
  backend::DecomposeScope decompose;
  EXPECT_EQ(ops::matmul(a, b).to_vector<int32_t>(), reference.to_vector<int32_t>());
}

}  // namespace
}  // namespace keras
