// Products large enough that the cpu backend splits them over its thread pool (gemm.h: by rows
// when c is taller than wide, by columns otherwise), with transposed operands and batches,
// against a float64 triple loop.

#include <gtest/gtest.h>

#include <random>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

std::vector<double> uniform(int64_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = static_cast<double>(gen() >> 11) * 0x1p-52 - 1.0;
  return v;
}

// (B, M, K) @ (B, K, N) in float64 loops.
std::vector<double> reference(const std::vector<double>& a, const std::vector<double>& b,
                              int64_t B, int64_t M, int64_t K, int64_t N) {
  std::vector<double> c(static_cast<size_t>(B * M * N), 0.0);
  for (int64_t s = 0; s < B; ++s)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k)
        for (int64_t j = 0; j < N; ++j)
          c[(s * M + i) * N + j] += a[(s * M + i) * K + k] * b[(s * K + k) * N + j];
  return c;
}

TEST(MatmulSplit, LargeProductsMatchLoops) {
  struct Case {
    int64_t B, M, K, N;
  };
  // Tall (split by rows), wide (by columns), a part count that does not divide, a batch, and
  // sides long enough for two parts per thread (parts of at least 512), the last one partial.
  for (Case c : {Case{1, 300, 200, 70}, Case{1, 70, 200, 300}, Case{1, 129, 257, 131},
                 Case{3, 100, 90, 80}, Case{1, 2100, 40, 24}, Case{1, 24, 40, 2100}}) {
    std::vector<double> a = uniform(c.B * c.M * c.K, 1), b = uniform(c.B * c.K * c.N, 2);
    Tensor want = ops::convert_to_tensor(reference(a, b, c.B, c.M, c.K, c.N), {c.B, c.M, c.N});
    for (DType dt : {DType::Float32, DType::Float64}) {
      Tensor ta = ops::cast(ops::convert_to_tensor(a, {c.B, c.M, c.K}), dt);
      Tensor tb = ops::cast(ops::convert_to_tensor(b, {c.B, c.K, c.N}), dt);
      const double tol = dt == DType::Float32 ? 1e-4 : 1e-12;
      EXPECT_TENSOR_NEAR(ops::cast(ops::matmul(ta, tb), DType::Float64), want, tol, tol);
      // The same operands as transposed views (BLAS's transpose flags).
      Tensor at = ops::transpose(ops::transpose(ta, {0, 2, 1}).contiguous(), {0, 2, 1});
      Tensor bt = ops::transpose(ops::transpose(tb, {0, 2, 1}).contiguous(), {0, 2, 1});
      EXPECT_FALSE(at.is_contiguous());
      EXPECT_TENSOR_NEAR(ops::cast(ops::matmul(at, bt), DType::Float64), want, tol, tol);
    }
  }
}

}  // namespace
}  // namespace keras
