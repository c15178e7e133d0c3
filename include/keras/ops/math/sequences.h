#pragma once
// keras.ops.math: extract_sequences, cdist, logdet.

#include <cstdint>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace math {

/// Windows of `sequence_length` taken every `sequence_stride` along the last axis:
/// (..., N) -> (..., 1 + (N - sequence_length) / sequence_stride, sequence_length). A view.
Tensor extract_sequences(const Tensor& x, int64_t sequence_length, int64_t sequence_stride);

/// Pairwise distances (..., M, N) between the rows of x (..., M, D) and y (..., N, D); batch
/// axes broadcast. p is the Minkowski order (Keras: 2, the Euclidean distance; inf: the largest
/// coordinate difference; 0: the number of differing coordinates).
Tensor cdist(const Tensor& x, const Tensor& y, double p = 2.0);

/// log|det| of square matrices (..., M, M) (for the positive-definite matrices it is meant
/// for, the log of the determinant).
Tensor logdet(const Tensor& x);

}  // namespace math
}  // namespace keras::ops

#pragma GCC visibility pop
