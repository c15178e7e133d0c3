// argmax, argmin, nanargmax, nanargmin (int32 results, as Keras).

#include <limits>

#include "keras/ops/ops.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

using backend::ArgReduceOp;

namespace {

Tensor arg_reduce(std::string_view op, ArgReduceOp kind, const Tensor& x, std::optional<int> axis,
                  bool keepdims) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  std::optional<int> ax = detail::resolve_axis(op, axis, x.ndim());
  Tensor src = ax ? x : reshape(x, Shape{x.size()});
  const int a = ax.value_or(0);
  if (src.shape()[a] == 0)
    throw ValueError(keras::detail::cat(op, ": attempt to get ", op,
                                        " of an empty sequence (input shape ", x.shape(), ", axis ",
                                        ax ? std::to_string(*ax) : "None", ")."));
  Shape kept = src.shape();
  kept[a] = 1;
  Tensor out = detail::empty(kept, DType::Int32, x.backend());
  if (out.size() > 0) x.backend().arg_reduce(kind, out.array(), src.array(), a);
  if (ax) return keepdims ? out : squeeze(out, a);
  return reshape(out, keepdims ? Shape(std::vector<int64_t>(x.ndim(), 1)) : Shape{});
}

Tensor nan_arg_reduce(std::string_view op, ArgReduceOp kind, const Tensor& x,
                      std::optional<int> axis, bool keepdims) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (!is_floating(x.dtype())) return arg_reduce(op, kind, x, axis, keepdims);
  // NaN becomes the value that never wins; a slice of only NaN gives -1 (as JAX).
  const double loser = kind == ArgReduceOp::ArgMax ? -std::numeric_limits<double>::infinity()
                                                   : std::numeric_limits<double>::infinity();
  Tensor nan = detail::isnan_mask(x);
  Tensor idx = arg_reduce(op, kind, where(nan, loser, x), axis, keepdims);
  Axes reduce_axes = axis ? Axes(*axis) : Axes();
  return where(all(nan, reduce_axes, keepdims), -1, idx);
}

}  // namespace

Tensor argmax(const Tensor& x, std::optional<int> axis, bool keepdims) {
  return arg_reduce("argmax", ArgReduceOp::ArgMax, x, axis, keepdims);
}
Tensor argmin(const Tensor& x, std::optional<int> axis, bool keepdims) {
  return arg_reduce("argmin", ArgReduceOp::ArgMin, x, axis, keepdims);
}
Tensor nanargmax(const Tensor& x, std::optional<int> axis, bool keepdims) {
  return nan_arg_reduce("nanargmax", ArgReduceOp::ArgMax, x, axis, keepdims);
}
Tensor nanargmin(const Tensor& x, std::optional<int> axis, bool keepdims) {
  return nan_arg_reduce("nanargmin", ArgReduceOp::ArgMin, x, axis, keepdims);
}

}  // namespace numpy
}  // namespace keras::ops
