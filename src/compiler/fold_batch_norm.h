#pragma once
// The batch-norm folding pass: an inference BatchNormalization after a convolution,
//   z = conv(x, w) [+ b];  y = z * inv + res      (inv, res: per output channel)
// becomes a convolution with folded weights and bias,
//   w' = w * inv;  b' = b * inv + res;  y = conv(x, w') + b',
// which the linear pass then runs as one conv_bias_activation call with the activation that
// follows: the pass over the convolution's output that applied the normalization is gone (the
// form ONNX Runtime's optimizer gives such models). The folded weights are computed again on
// every replay from the variables' current values (a step never sees stale weights), so a fold
// is made only where the convolution's output has at least four times as many elements as its
// kernel: the weights' product then costs well under the pass it removes (with a factor of 1,
// EfficientNetB0's batch-1 inference was 7% slower; with 4 every model measured gained, see
// docs/performance.md). The values change by rounding only (the products are associated
// differently): within 1e-6 of the unfolded ones relative to the largest magnitude.

#include <cstddef>

#include "compiler/trace.h"

namespace keras::compiler::detail {

/// What fold_batch_norm did.
struct BatchNormFoldStats {
  size_t folds = 0;  ///< convolutions that took a normalization into their weights
};

/// Folds every per-channel scale-and-shift after a float32 channels-last convolution on a
/// backend that runs bias-and-activation epilogues, in a step that assigns no variable
/// (inference: predict, evaluate; a training step keeps the values of its eager run, which
/// training compares against); run before the linear pass.
BatchNormFoldStats fold_batch_norm(Trace& trace);

}  // namespace keras::compiler::detail
