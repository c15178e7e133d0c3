// split, array_split, hsplit, vsplit, dsplit and core's unstack: every piece is a view.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {

namespace {

// The pieces between consecutive cut points, each as Python's x[start:stop] along `axis`.
TensorList cut(std::string_view op, const Tensor& x, int axis, const std::vector<int64_t>& cuts) {
  TensorList pieces;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    std::vector<detail::AxisIndex> spec = detail::full_spec(x.shape());
    spec[axis] = detail::resolve_slice(op, Slice(cuts[i], cuts[i + 1]), x.shape()[axis], axis);
    pieces.push_back(detail::basic_view(x, spec));
  }
  return pieces;
}

}  // namespace

inline namespace numpy {

TensorList split(const Tensor& x, const SplitSpec& indices_or_sections, int axis) {
  constexpr std::string_view op = "split";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() > 0, op, ": cannot split a 0-d tensor.");
  const int a = detail::normalize_axis(op, axis, x.ndim());
  const int64_t n = x.shape()[a];
  std::vector<int64_t> cuts{0};
  if (indices_or_sections.is_sections()) {
    const int64_t s = indices_or_sections.sections();
    check(s > 0, op, ": the number of sections must be positive; got ", s, ".");
    check(n % s == 0, op, ": a tensor of shape ", x.shape(), " cannot be split into ", s,
          " equal sections along axis ", axis, " (extent ", n,
          "). Use array_split for unequal pieces.");
    for (int64_t i = 1; i <= s; ++i) cuts.push_back(i * (n / s));
  } else {
    for (int64_t i : indices_or_sections.indices()) cuts.push_back(i);
    cuts.push_back(n);
  }
  return cut(op, x, a, cuts);
}

TensorList array_split(const Tensor& x, int64_t sections, int axis) {
  constexpr std::string_view op = "array_split";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() > 0, op, ": cannot split a 0-d tensor.");
  check(sections > 0, op, ": the number of sections must be positive; got ", sections, ".");
  const int a = detail::normalize_axis(op, axis, x.ndim());
  const int64_t n = x.shape()[a], q = n / sections, r = n % sections;
  std::vector<int64_t> cuts{0};
  for (int64_t i = 0; i < sections; ++i) cuts.push_back(cuts.back() + q + (i < r ? 1 : 0));
  return cut(op, x, a, cuts);
}

TensorList hsplit(const Tensor& x, const SplitSpec& indices_or_sections) {
  check(x.defined(), "hsplit: the input is an undefined tensor.");
  check(x.ndim() >= 1, "hsplit: the input must have at least 1 axis; got shape ", x.shape(), ".");
  return split(x, indices_or_sections, x.ndim() == 1 ? 0 : 1);
}

TensorList vsplit(const Tensor& x, const SplitSpec& indices_or_sections) {
  check(x.defined(), "vsplit: the input is an undefined tensor.");
  check(x.ndim() >= 2, "vsplit: the input must have at least 2 axes; got shape ", x.shape(), ".");
  return split(x, indices_or_sections, 0);
}

TensorList dsplit(const Tensor& x, const SplitSpec& indices_or_sections) {
  check(x.defined(), "dsplit: the input is an undefined tensor.");
  check(x.ndim() >= 3, "dsplit: the input must have at least 3 axes; got shape ", x.shape(), ".");
  return split(x, indices_or_sections, 2);
}

}  // namespace numpy

inline namespace core {

TensorList unstack(const Tensor& x, std::optional<int64_t> num, int axis) {
  constexpr std::string_view op = "unstack";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() > 0, op, ": cannot unstack a 0-d tensor.");
  const int a = detail::normalize_axis(op, axis, x.ndim());
  const int64_t n = x.shape()[a];
  check(!num || *num == n, op, ": num=", num.value_or(0), " does not match the extent ", n,
        " of axis ", axis, " of a tensor of shape ", x.shape(), ".");
  // Views of each slice, linked to x by one node whose rule stacks their gradients: a loop
  // over the slices then costs O(size) in the backward pass, not O(size * n).
  Shape inner = x.shape();
  inner.erase(static_cast<size_t>(a));
  Strides inner_strides = x.strides();
  inner_strides.erase(static_cast<size_t>(a));
  TensorList pieces;
  pieces.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    pieces.push_back(detail::make_view(x, inner, inner_strides, x.offset() + i * x.strides()[a]));
  if (n > 0 && autograd::should_record(x)) {
    Tensor inputs[1] = {x};
    autograd::record_multi(op, inputs, pieces,
                           [a](const autograd::Context&, std::span<const Tensor> grads) {
                             return TensorList{stack(TensorList(grads.begin(), grads.end()), a)};
                           });
  }
  return pieces;
}

}  // namespace core
}  // namespace keras::ops
