// concatenate and stack.

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
    if (p.size() > 0) be.copy(detail::basic_view(out, spec).array(), p.array());
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

}  // namespace numpy
}  // namespace keras::ops
