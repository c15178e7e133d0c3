// sort, argsort, argpartition: the axis is moved last (a view) for the backend's sort along
// the last axis, then moved back.

#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// The tensor to sort and the axis: x flattened when axis is nullopt (and, where Keras does so,
// when x is 0-d).
std::pair<Tensor, int> sort_input(std::string_view op, const Tensor& x, std::optional<int> axis,
                                  bool flatten_0d = true) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (!axis || (flatten_0d && x.ndim() == 0)) return {reshape(x, Shape{x.size()}), 0};
  return {x, detail::normalize_axis(op, *axis, x.ndim())};
}

Tensor argsort_along(const Tensor& x, int axis) {
  Tensor last = detail::move_axis_last(x, axis);
  Tensor idx = is_complex(x.dtype()) ? complex_detail::lexicographic_order(last)
                                     : detail::sort_last(last, false, false, true).second;
  return detail::move_last_axis_to(detail::cast(idx, DType::Int32), axis);
}

}  // namespace

Tensor sort(const Tensor& x, std::optional<int> axis) {
  auto [src, a] = sort_input("sort", x, axis, false);
  if (is_complex(x.dtype())) {
    Tensor last = detail::move_axis_last(src, a);
    return detail::move_last_axis_to(
        take_along_axis(last, complex_detail::lexicographic_order(last), -1), a);
  }
  Tensor values = detail::sort_last(detail::move_axis_last(src, a), false, true, false).first;
  return detail::move_last_axis_to(values, a);
}

Tensor argsort(const Tensor& x, std::optional<int> axis) {
  auto [src, a] = sort_input("argsort", x, axis);
  return argsort_along(src, a);
}

Tensor argpartition(const Tensor& x, int64_t kth, std::optional<int> axis) {
  constexpr std::string_view op = "argpartition";
  auto [src, a] = sort_input(op, x, axis);
  const int64_t n = src.shape()[a];
  if (kth < -n || kth >= n)
    throw ValueError(keras::detail::cat(op, ": kth=", kth, " is out of bounds for extent ", n,
                                        " along axis ", a, " (input shape ", x.shape(), ")."));
  // A full stable sort is one valid partition (NumPy's introselect gives another).
  return argsort_along(src, a);
}

}  // namespace numpy
}  // namespace keras::ops
