#pragma once
// keras.ops.nn cross-entropies and psnr.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// Elementwise binary cross-entropy between `target` and `output` (same shapes). Without
/// `from_logits`, `output` holds probabilities, clipped to [epsilon, 1 - epsilon] first.
Tensor binary_crossentropy(const Tensor& target, const Tensor& output, bool from_logits = false);
/// Cross-entropy along `axis` between a distribution `target` and `output` (same shapes).
/// Without `from_logits`, `output` is normalized to sum to 1 along `axis` and clipped to
/// [epsilon, 1 - epsilon].
Tensor categorical_crossentropy(const Tensor& target, const Tensor& output,
                                bool from_logits = false, int axis = -1);
/// Cross-entropy with integer class labels: `target` has the shape of `output` without `axis`
/// (or with a trailing 1); labels must lie in [0, output.shape[axis]) (IndexError otherwise).
Tensor sparse_categorical_crossentropy(const Tensor& target, const Tensor& output,
                                       bool from_logits = false, int axis = -1);
/// Peak signal-to-noise ratio 20 log10(max_val) - 10 log10(mean((x1 - x2)^2)), a 0-d tensor.
Tensor psnr(const Tensor& x1, const Tensor& x2, const Tensor& max_val);

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop
