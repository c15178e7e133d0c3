// dot_product_attention as jax.nn.dot_product_attention (implementation="xla") computes it:
// logits in at least float32, bias added, masked logits replaced by -0.7 * finfo.max, softmax,
// probabilities cast back to the inputs' dtype, then the product with the values. Grouped-query
// attention is a broadcast batch axis of the two matmuls, so keys and values are never copied.

#include <cmath>
#include <limits>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/nn_common.h"

namespace keras::ops {
inline namespace nn {

namespace {

constexpr std::string_view kOp = "dot_product_attention";

// A bias or mask made 4-d by leading axes (as JAX's _ensure_4d), checked to broadcast to
// (B, N, T, S) with 1 or N heads.
Tensor as_4d(std::string_view name, const Tensor& t, const Shape& logits_shape) {
  check(t.ndim() <= 4, kOp, ": `", name,
        "` must have rank <= 4 and broadcast to (B, N, T, S) = ", logits_shape, "; got shape ",
        t.shape(), ".");
  Tensor out = t;
  while (out.ndim() < 4) out = expand_dims(out, 0);
  for (int d = 0; d < 4; ++d)
    check(out.shape()[d] == 1 || out.shape()[d] == logits_shape[d], kOp, ": `", name, "` of shape ",
          t.shape(), " does not broadcast to (B, N, T, S) = ", logits_shape,
          " (its head axis must be 1 or N).");
  return out;
}

}  // namespace

Tensor dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                             const DotProductAttentionOptions& options) {
  check(query.defined() && key.defined() && value.defined(), kOp,
        ": query, key and value must be defined tensors.");
  check(query.ndim() == 4 && key.ndim() == 4 && value.ndim() == 4, kOp,
        ": only 4-d inputs (batch, time, heads, head_dim) are supported; got query.shape=",
        query.shape(), ", key.shape=", key.shape(), ", value.shape=", value.shape(), ".");
  const Shape& qs = query.shape();
  const Shape& ks = key.shape();
  const int64_t B = qs[0], T = qs[1], N = qs[2], H = qs[3], S = ks[1], K = ks[2];
  check(value.shape() == ks, kOp, ": value must have the shape of key; got key.shape=", ks,
        " and value.shape=", value.shape(), ".");
  check(ks[0] == B && ks[3] == H, kOp,
        ": query (B, T, N, H) and key (B, S, K, H) must agree on "
        "B and H; got query.shape=",
        qs, " and key.shape=", ks, ".");
  check(K > 0 && N % K == 0, kOp,
        ": the number of query heads must be a multiple of the number "
        "of key/value heads; got query.shape=",
        qs, " and key.shape=", ks, ".");
  auto& be = detail::common_backend(kOp, {&query, &key, &value, &options.bias, &options.mask});
  const DType dtype = float_result_type(detail::promote({&query, &key, &value}));
  // Logits and softmax in at least float32 (JAX even takes float64 logits down to float32 for
  // the softmax; keras-cpp keeps float64, so float64 attention is accurate to float64).
  const DType logits_dtype = result_type({dtype, DType::Float32});
  const int64_t G = N / K;
  const double scale = options.scale.value_or(1.0 / std::sqrt(static_cast<double>(H)));
  const Shape logits_shape{B, N, T, S};

  Tensor q = detail::prepare(query, dtype, be), k = detail::prepare(key, dtype, be);
  Tensor v = detail::prepare(value, dtype, be);
  // (B, K, G, T, H) @ (B, K, 1, H, S): the G query heads of a group share one key head.
  Tensor qg = transpose(reshape(q, {B, T, K, G, H}), {0, 2, 3, 1, 4});
  Tensor kg = expand_dims(transpose(k, {0, 2, 3, 1}), 2);
  Tensor logits =
      reshape(matmul(detail::cast(qg, logits_dtype), detail::cast(kg, logits_dtype)), logits_shape);
  logits = multiply(logits, scale);
  if (options.bias.defined()) {
    Tensor bias = as_4d("bias", detail::prepare(options.bias, dtype, be), logits_shape);
    logits = add(logits, detail::cast(bias, logits_dtype));
  }
  Tensor keep;
  if (options.mask.defined())
    keep = as_4d("mask", detail::prepare(options.mask, DType::Bool, be), logits_shape);
  if (options.is_causal) {
    // tril(ones(T, S)): query i sees keys j <= i.
    Tensor rows = detail::empty(Shape{T, 1}, DType::Int32, be);
    Tensor cols = detail::empty(Shape{S}, DType::Int32, be);
    if (T > 0) be.arange(rows.array(), 0, 1);
    if (S > 0) be.arange(cols.array(), 0, 1);
    Tensor causal = greater_equal(rows, cols);
    keep = keep.defined() ? logical_and(keep, causal) : causal;
  }
  if (keep.defined()) logits = where(keep, logits, -0.7 * max_finite(logits_dtype));
  Tensor probs = detail::cast(softmax(logits, -1), dtype);
  // (B, K, G, T, S) @ (B, K, 1, S, H) -> (B, K, G, T, H) -> (B, T, N, H).
  Tensor vg = expand_dims(transpose(v, {0, 2, 1, 3}), 2);
  Tensor out = matmul(reshape(probs, {B, K, G, T, S}), vg);
  return reshape(transpose(out, {0, 3, 1, 2, 4}), qs);
}

}  // namespace nn
}  // namespace keras::ops
