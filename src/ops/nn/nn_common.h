#pragma once
// What the keras.ops.nn files share: running a composite forward pass as one recorded op, and
// small differentiable helpers for ops that other families own but that are not on main yet.

#include <initializer_list>
#include <string_view>
#include <utility>

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::nn_detail {

/// Runs `forward()` and, when a gradient is being recorded for one of `inputs`, links its
/// result to them with the single rule `rule` (instead of one node per op of the forward pass).
/// `forward` must return a new tensor, never one of `inputs` itself.
template <typename Forward, typename Rule>
Tensor with_rule(std::string_view name, std::initializer_list<Tensor> inputs, Forward&& forward,
                 Rule&& rule) {
  bool record = false;
  for (const Tensor& t : inputs) record = record || autograd::should_record(t);
  if (!record) return forward();
  Tensor y;
  {
    NoGradScope no_grad;
    y = forward();
  }
  autograd::record(name, inputs, y, std::forward<Rule>(rule));
  return y;
}

/// The float dtype an elementwise op computes in for `x` (floatx() for integers and bool).
DType float_dtype(const Tensor& x);

// ---- private helpers, differentiable --------------------------------------------------------

/// log10(x). TODO(integration): use ops::log10.
Tensor log10(const Tensor& x);
/// 1 / sqrt(x). TODO(integration): use ops::rsqrt.
Tensor rsqrt(const Tensor& x);
/// erf(x). TODO(integration): use ops::erf.
Tensor erf(const Tensor& x);
/// min(max(x, lo), hi) for a float x (NaN propagates). TODO(integration): use ops::clip.
Tensor clip(const Tensor& x, double lo, double hi);
/// Elementwise a && b (bool). TODO(integration): use ops::logical_and.
Tensor logical_and(const Tensor& a, const Tensor& b);

/// x[..., index[..., j, ...], ...] along `axis`; index (int32/int64, in range: the caller
/// checks) has x's shape except along `axis`. Differentiable in x.
/// TODO(integration): use ops::take_along_axis.
Tensor gather_along(const Tensor& x, const Tensor& index, int axis);
/// zeros(shape) with each element of src added at its index along `axis`; index has src's
/// shape, and src has `shape` except along `axis`. Differentiable in src.
Tensor scatter_add_along(const Tensor& src, const Tensor& index, int axis, const Shape& shape);

}  // namespace keras::ops::nn_detail
