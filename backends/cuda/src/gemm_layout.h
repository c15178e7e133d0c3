#pragma once
// How cuBLAS reads an operand of a batched product in place, so that matmul copies an operand
// only when cuBLAS cannot read it as it is: each matrix row-major or column-major (a transposed
// view, as the gradients of a product pass them) with unit stride along one axis, and the batch
// axes stepping by one stride (0 when the operand is broadcast over the batch). Plain integers,
// no CUDA types: tested on any machine.

#include <cstdint>
#include <optional>

#include "keras/core/shape.h"

namespace keras::cuda {

/// One operand as cublas<T>gemmStridedBatched takes it.
struct GemmMatrix {
  bool transposed = false;   // column-major in memory (the view is a transpose)
  int64_t ld = 1;            // the leading dimension: elements between rows (columns if transposed)
  int64_t batch_stride = 0;  // elements between the matrices of consecutive batches
};

/// The layout of a view of `strides` as `batch` (the product's batch axes) followed by a rows x
/// cols matrix, when cuBLAS can read it in place; nullopt when it needs a packed copy (a
/// non-unit inner stride, negative strides, batch axes that do not step by one stride, sizes
/// past cuBLAS's 32-bit dimensions).
std::optional<GemmMatrix> gemm_matrix(const Shape& batch, int64_t rows, int64_t cols,
                                      const Strides& strides);

/// The arguments of cublas<T>gemmStridedBatched, in cuBLAS's column-major terms, that compute
/// the row-major C (batch, M, N) = A (batch, M, K) B (batch, K, N) into a packed C: the
/// column-major C^T = B^T A^T, so cuBLAS's first operand is B and its second is A. A row-major
/// operand is its own transpose in column-major terms (no op), a transposed view takes op T.
struct GemmCall {
  bool trans_first = false, trans_second = false;  // op T for B, for A
  int64_t m = 0, n = 0, k = 0;                     // N, M, K
  int64_t ld_first = 0, stride_first = 0;          // B's
  int64_t ld_second = 0, stride_second = 0;        // A's
  int64_t ldc = 0, stride_c = 0;                   // N, M * N
};
GemmCall gemm_call(const GemmMatrix& a, const GemmMatrix& b, int64_t M, int64_t N, int64_t K);

}  // namespace keras::cuda
