#include "layers/attention/attention_utils.h"

#include "keras/layers/keras_tensor.h"
#include "keras/ops/ops.h"

namespace keras::layers::detail {

Tensor causal_mask(int64_t query_length, int64_t key_length) {
  Tensor rows = ops::reshape(ops::arange(0, query_length, 1, DType::Int32), {query_length, 1});
  Tensor cols = ops::arange(0, key_length, 1, DType::Int32);
  return ops::expand_dims(ops::greater_equal(rows, cols), 0);
}

Tensor sliding_window_mask(int64_t query_length, int64_t key_length, int64_t window) {
  Tensor rows = ops::reshape(ops::arange(0, query_length, 1, DType::Int32), {query_length, 1});
  Tensor cols = ops::arange(0, key_length, 1, DType::Int32);
  Tensor distance = ops::absolute(ops::subtract(rows, cols));
  return ops::expand_dims(ops::less(distance, window), 0);
}

Tensor expand_mask(const Tensor& mask, int rank, int axis, const char* layer_kind) {
  check(mask.ndim() <= rank, layer_kind, ": the attention mask of shape ", mask.shape(),
        " has more axes than the attention scores (rank ", rank, ").");
  Tensor out = mask;
  while (out.ndim() < rank) out = ops::expand_dims(out, axis);
  return out;
}

double large_negative(DType dtype) { return dtype == DType::Float16 ? -3e4 : -1e9; }

Tensor masked_softmax(const Tensor& logits, const Tensor& mask) {
  if (!mask.defined()) return ops::softmax(logits, -1);
  Tensor masked = ops::where(mask, logits, large_negative(logits.dtype()));
  return ops::where(mask, ops::softmax(masked, -1), 0.0);
}

std::optional<uint64_t> as_seed(const std::optional<int64_t>& seed) {
  if (!seed) return std::nullopt;
  return static_cast<uint64_t>(*seed);
}

Tensor attached_mask(const Tensor& t) {
  return t.defined() && t.impl()->keras_mask ? Tensor(t.impl()->keras_mask) : Tensor();
}

}  // namespace keras::layers::detail
