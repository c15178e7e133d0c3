#pragma once
// keras.ops.math reductions: logsumexp, top_k, in_top_k, segment_*.

#include <optional>
#include <utility>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace math {

/// log(sum(exp(x))) along the axes, computed stably (floats; integers become floatx()).
Tensor logsumexp(const Tensor& x, const Axes& axis = {}, bool keepdims = false);

/// The k largest entries along the last axis and their int32 indices, largest first (ties:
/// lower index first). `sorted` is accepted for Keras compatibility; results are always
/// sorted.
std::pair<Tensor, Tensor> top_k(const Tensor& x, int64_t k, bool sorted = true);

/// Whether targets[i] (int) is among the k largest of predictions[i, :] (bool, targets'
/// shape). A NaN prediction for the target, or a target out of range, gives false.
Tensor in_top_k(const Tensor& targets, const Tensor& predictions, int64_t k);

// Segment reductions: out[s] reduces data[i] over the i with segment_ids[i] == s, for s in
// [0, num_segments). segment_ids is 1-d with data's leading extent; ids outside the range are
// dropped (as JAX does). num_segments defaults to max(segment_ids) + 1 (a host read).
// `sorted` says the ids are sorted (a hint; results do not depend on it). Empty segments get
// the reduction's identity (0, 1, the lowest or the highest value).

/// Sum of each segment.
Tensor segment_sum(const Tensor& data, const Tensor& segment_ids,
                   std::optional<int64_t> num_segments = std::nullopt, bool sorted = false);
/// Maximum of each segment.
Tensor segment_max(const Tensor& data, const Tensor& segment_ids,
                   std::optional<int64_t> num_segments = std::nullopt, bool sorted = false);
/// Minimum of each segment.
Tensor segment_min(const Tensor& data, const Tensor& segment_ids,
                   std::optional<int64_t> num_segments = std::nullopt, bool sorted = false);
/// Product of each segment.
Tensor segment_prod(const Tensor& data, const Tensor& segment_ids,
                    std::optional<int64_t> num_segments = std::nullopt, bool sorted = false);

}  // namespace math
}  // namespace keras::ops

#pragma GCC visibility pop
