#pragma once
// Helpers of the attention layers: the masks Keras builds and its masked softmax.

#include <optional>

#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// Boolean (1, T, S): query i sees key j when i >= j (Keras's _compute_causal_mask).
Tensor causal_mask(int64_t query_length, int64_t key_length);
/// Boolean (1, T, S): query i sees key j when |i - j| < window.
Tensor sliding_window_mask(int64_t query_length, int64_t key_length, int64_t window);
/// `mask` with axes of extent 1 inserted at `axis` until it has rank `rank` (Keras's mask
/// expansion before the softmax); ValueError when the mask has a higher rank.
Tensor expand_mask(const Tensor& mask, int rank, int axis, const char* layer_kind);
/// Keras's Softmax layer with a mask: masked logits set to -1e9 (-3e4 in float16), softmax
/// over the last axis, masked probabilities set to 0 (so a fully masked row is all zeros).
/// `mask` is boolean and broadcastable to `logits`.
Tensor masked_softmax(const Tensor& logits, const Tensor& mask);
/// Keras's large negative number for masked logits.
double large_negative(DType dtype);
/// A layer option's seed (an int) as the dropout ops take it.
std::optional<uint64_t> as_seed(const std::optional<int64_t>& seed);
/// The Keras mask attached to `t` by the layer that produced it, or an undefined tensor.
Tensor attached_mask(const Tensor& t);

}  // namespace keras::layers::detail
