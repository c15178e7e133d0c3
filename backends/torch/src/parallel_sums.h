#pragma once
// The fused bias-and-activation gradient's passes over memory, on ATen's intra-op pool.
//
// ops::sum accumulates float32 in float64, and the fused bias gradient must agree with it.
// ATen's sum with a float64 result converts its whole input first (a copy twice the input's
// size, written and read back), and its column sums of a narrow matrix (a convolution's 32
// channels over 170 000 positions) run one short row at a time; ReLU's gradient through ATen is
// two passes more (`y > 0` into a bool tensor, then `where`). Together 12-14% of a small CNN's
// training step on the main thread. Here each is one pass that reads every float once.

#include <ATen/ATen.h>

namespace keras::torch_backend {

/// The float64 sum over the rows of `rows` (2-D, float32, contiguous): blocks of rows summed
/// on ATen's threads, each into its own float64 row, then those rows added in block order, so
/// the result does not depend on the number of threads.
at::Tensor sum_float_rows_in_float64(const at::Tensor& rows);

/// dz = g where y > 0, else 0 (also where y is NaN, as where(y > 0, g, 0) gives), over
/// float32 tensors of one shape, contiguous, dz sharing no memory with y or g. Returns dz's
/// float64 sums over every axis but the last (as sum_float_rows_in_float64) when `sums`, else
/// an undefined tensor.
at::Tensor relu_backward_and_sums(at::Tensor& dz, const at::Tensor& y, const at::Tensor& g,
                                  bool sums);

}  // namespace keras::torch_backend
