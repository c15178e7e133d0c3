#pragma once
// keras.ops.nn dot_product_attention.

#include <optional>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// The keyword arguments of dot_product_attention.
struct DotProductAttentionOptions {
  /// Added to the logits; broadcastable to (B, N, T, S), with 1 or N heads.
  Tensor bias;
  /// Which logits take part (true) or are masked out; bool, broadcastable to (B, N, T, S),
  /// with 1 or N heads.
  Tensor mask;
  /// Multiplies the logits; 1 / sqrt(H) when unset.
  std::optional<double> scale;
  /// Applies a causal (lower-triangular, top-left aligned) mask.
  bool is_causal = false;
  /// Accepted for Keras compatibility; the cpu backend has no flash kernel, so it is ignored.
  std::optional<bool> flash_attention;
};

/// softmax(Q K^T * scale + bias, masked) V, with query (B, T, N, H), key and value (B, S, K, H)
/// in Keras's layout; N must be a multiple of K (grouped-query attention). Returns (B, T, N, H).
Tensor dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                             const DotProductAttentionOptions& options = {});

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop
