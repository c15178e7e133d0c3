// concatenate, stack and the joins built on them: append, hstack, vstack, dstack, column_stack.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace numpy {

Tensor concatenate(const std::vector<Tensor>& xs, int axis) {
  constexpr std::string_view op = "concatenate";
  check(!xs.empty(), op, ": needs at least one tensor.");
  for (const Tensor& x : xs) check(x.defined(), op, ": an input is an undefined tensor.");
  auto& be = detail::common_backend(op, std::span<const Tensor>(xs));
  const int rank = xs[0].ndim();
  check(rank > 0, op, ": zero-dimensional tensors cannot be concatenated.");
  const int a = detail::normalize_axis(op, axis, rank);
  std::vector<DTypeLike> dtypes;
  for (const Tensor& x : xs) dtypes.emplace_back(x.dtype());
  const DType dtype = result_type(dtypes);
  Shape shape = xs[0].shape();
  shape[a] = 0;
  std::vector<Tensor> parts;
  for (size_t i = 0; i < xs.size(); ++i) {
    const Tensor& x = xs[i];
    check(x.ndim() == rank, op, ": all inputs must have the same rank; input 0 has shape ",
          xs[0].shape(), " and input ", i, " has shape ", x.shape(), ".");
    for (int d = 0; d < rank; ++d)
      check(d == a || x.shape()[d] == xs[0].shape()[d], op,
            ": all input dimensions except the concatenation axis must match; input 0 has "
            "shape ", xs[0].shape(), " and input ", i, " has shape ", x.shape(), " (axis ", a,
            ").");
    shape[a] += x.shape()[a];
    parts.push_back(detail::prepare(x, dtype, be));
  }
  Tensor out = detail::empty(shape, dtype, be);
  int64_t begin = 0;
  std::vector<int64_t> sizes;
  for (const Tensor& p : parts) {
    std::vector<detail::AxisIndex> spec(static_cast<size_t>(rank));
    for (int d = 0; d < rank; ++d) spec[d].length = shape[d];
    spec[a] = detail::AxisIndex{begin, 1, p.shape()[a], true};
    if (p.size() > 0) detail::copy_into(be, detail::spec_view(out, spec).array(), p.array());
    sizes.push_back(p.shape()[a]);
    begin += p.shape()[a];
  }
  if (autograd::should_record_list(parts)) {
    autograd::record(op, parts, out, [sizes, a, shape](const autograd::Context&, const Tensor& g) {
      TensorList grads;
      int64_t start = 0;
      for (int64_t n : sizes) {
        std::vector<detail::AxisIndex> spec(static_cast<size_t>(shape.rank()));
        for (int d = 0; d < shape.rank(); ++d) spec[d].length = shape[d];
        spec[a] = detail::AxisIndex{start, 1, n, true};
        grads.push_back(detail::basic_view(g, spec));
        start += n;
      }
      return grads;
    });
  }
  return out;
}

Tensor stack(const std::vector<Tensor>& xs, int axis) {
  constexpr std::string_view op = "stack";
  check(!xs.empty(), op, ": needs at least one tensor.");
  for (size_t i = 0; i < xs.size(); ++i) {
    check(xs[i].defined(), op, ": an input is an undefined tensor.");
    check(xs[i].shape() == xs[0].shape(), op, ": all inputs must have the same shape; input 0 has "
          "shape ", xs[0].shape(), " and input ", i, " has shape ", xs[i].shape(), ".");
  }
  const int a = detail::normalize_axis(op, axis, xs[0].ndim() + 1);
  std::vector<Tensor> expanded;
  for (const Tensor& x : xs) expanded.push_back(expand_dims(x, a));
  return concatenate(expanded, a);
}

namespace {

void check_inputs(std::string_view op, const std::vector<Tensor>& xs) {
  check(!xs.empty(), op, ": needs at least one tensor.");
  for (const Tensor& x : xs) check(x.defined(), op, ": an input is an undefined tensor.");
}

// x viewed with at least `rank` axes, the new axes of extent 1 placed where NumPy's
// atleast_2d / atleast_3d put them.
Tensor at_least(const Tensor& x, int rank) {
  if (x.ndim() >= rank) return x;
  if (x.ndim() == 0) return reshape(x, detail::ones_shape(rank));
  if (x.ndim() == 1) return reshape(x, rank == 2 ? Shape{1, x.size()} : Shape{1, x.size(), 1});
  return expand_dims(x, -1);  // (m, n) -> (m, n, 1)
}

}  // namespace

Tensor append(const Tensor& x1, const Tensor& x2, std::optional<int> axis) {
  check(x1.defined() && x2.defined(), "append: an input is an undefined tensor.");
  if (!axis) return concatenate({ravel(x1), ravel(x2)}, 0);
  return concatenate({x1, x2}, *axis);
}

Tensor hstack(const std::vector<Tensor>& xs) {
  check_inputs("hstack", xs);
  std::vector<Tensor> parts;
  for (const Tensor& x : xs) parts.push_back(x.ndim() == 0 ? reshape(x, {1}) : x);
  return concatenate(parts, parts[0].ndim() == 1 ? 0 : 1);
}

Tensor vstack(const std::vector<Tensor>& xs) {
  check_inputs("vstack", xs);
  std::vector<Tensor> parts;
  for (const Tensor& x : xs) parts.push_back(at_least(x, 2));
  return concatenate(parts, 0);
}

Tensor dstack(const std::vector<Tensor>& xs) {
  check_inputs("dstack", xs);
  std::vector<Tensor> parts;
  for (const Tensor& x : xs) parts.push_back(at_least(x, 3));
  return concatenate(parts, 2);
}

Tensor column_stack(const std::vector<Tensor>& xs) {
  check_inputs("column_stack", xs);
  std::vector<Tensor> parts;
  for (const Tensor& x : xs)
    parts.push_back(x.ndim() < 2 ? reshape(x, Shape{x.size(), 1}) : x);
  return concatenate(parts, 1);
}

}  // namespace numpy
}  // namespace keras::ops
