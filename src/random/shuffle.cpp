// shuffle, and the gather along an axis it (and the samplers) select with.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "random/draw.h"

namespace keras::random {

namespace detail {
namespace {

// zeros(shape) with src added at the positions `index` names along `axis`: the adjoint of
// take_along. Differentiable in src.
Tensor scatter_add_along(const Tensor& src, const Tensor& index, int axis, const Shape& shape) {
  auto& be = src.backend();
  Tensor out = ops::detail::empty(shape, src.dtype(), be);
  be.fill(out.array(), Scalar(0.0));
  if (src.size() > 0)
    be.scatter(out.array(), index.array(), src.array(), axis, backend::ScatterReduce::Add);
  if (autograd::should_record(src)) {
    autograd::record("scatter_add_along", {src}, out,
                     [index, axis](const autograd::Context&, const Tensor& g) {
                       return TensorList{take_along(g, index, axis)};
                     });
  }
  return out;
}

}  // namespace

Tensor take_along(const Tensor& x, const Tensor& index, int axis) {
  auto& be = x.backend();
  Tensor out = ops::detail::empty(index.shape(), x.dtype(), be);
  if (out.size() > 0) be.gather(out.array(), x.array(), index.array(), axis);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record("take_along", {x}, out,
                     [index, axis, xs](const autograd::Context&, const Tensor& g) {
                       return TensorList{scatter_add_along(g, index, axis, xs)};
                     });
  }
  return out;
}

}  // namespace detail

Tensor shuffle(const Tensor& x, int axis, const Seed& seed) {
  constexpr std::string_view op = "random::shuffle";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() >= 1, op, ": needs a tensor with at least one axis; got a 0-d tensor.");
  const int rank = x.ndim();
  const int a = ops::detail::normalize_axis(op, axis, rank);
  auto key = detail::DrawKey::from(seed);
  if (x.size() == 0) return x;
  auto& be = x.backend();
  // The sort keys are laid out with `axis` last, so that each line is contiguous in the draw.
  std::vector<int> to_last, from_last(static_cast<size_t>(rank));
  for (int d = 0; d < rank; ++d)
    if (d != a) to_last.push_back(d);
  to_last.push_back(a);
  for (int d = 0; d < rank; ++d) from_last[static_cast<size_t>(to_last[d])] = d;
  Shape moved;
  for (int d : to_last) moved.push_back(x.shape()[d]);
  Tensor keys = key.stream(backend::RandomKind::Bits, moved, DType::Int64, be);
  Tensor order = ops::detail::empty(moved, DType::Int64, be);
  be.sort(backend::Array{}, order.array(), keys.array(), /*descending=*/false);
  return detail::take_along(x, ops::transpose(order, from_last), a);
}

}  // namespace keras::random
