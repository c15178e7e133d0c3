#pragma once
// keras.ops.nn normalization: moments, batch/layer/rms normalization, normalize.

#include <optional>
#include <utility>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// Mean and variance of `x` over `axes`. float16/bfloat16 inputs compute in float32 and are
/// clipped to the float16 range before the cast back, as Keras does. `synchronized`: in a job of
/// several processes (keras::distribution), the statistics of the global batch, summed over the
/// processes (Keras does this on TensorFlow only); without one it changes nothing.
std::pair<Tensor, Tensor> moments(const Tensor& x, const Axes& axes, bool keepdims = false,
                                  bool synchronized = false);
/// (x - mean) / sqrt(variance + epsilon) * scale + offset, where mean, variance and the
/// optional (undefined) offset and scale are vectors of length x.shape[axis].
Tensor batch_normalization(const Tensor& x, const Tensor& mean, const Tensor& variance, int axis,
                           const Tensor& offset = Tensor(), const Tensor& scale = Tensor(),
                           double epsilon = 1e-3);
/// Layer normalization over `axis`, with optional gamma (scale) and beta (offset); computes in
/// at least float32 and returns x's dtype. epsilon defaults to config::epsilon().
Tensor layer_normalization(const Tensor& x, const Tensor& gamma = Tensor(),
                           const Tensor& beta = Tensor(), const Axes& axis = -1,
                           std::optional<double> epsilon = std::nullopt);
/// x * rsqrt(mean(x^2 over axis) + epsilon) * scale; computes in at least float32 and returns
/// x's dtype. epsilon defaults to config::epsilon().
Tensor rms_normalization(const Tensor& x, const Tensor& scale = Tensor(), const Axes& axis = -1,
                         std::optional<double> epsilon = std::nullopt);
/// x / max(norm(x, order, axis), epsilon) (order an integer >= 1; over two axes, a matrix
/// norm as numpy.linalg.norm). epsilon defaults to config::epsilon().
Tensor normalize(const Tensor& x, const Axes& axis = -1, int order = 2,
                 std::optional<double> epsilon = std::nullopt);

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop
