// sum, mean, max, min.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

using backend::ReduceOp;

namespace {

// Keras sums bool and narrow integers in int32 (JAX's accumulation type).
DType sum_dtype(DType t) {
  switch (t) {
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::UInt8:
      return DType::Int32;
    default:
      return t;
  }
}

// The reduction result (keepdims form) reshaped to the caller's request.
Tensor finish(const Tensor& kept, const Shape& x_shape, uint64_t mask, bool keepdims) {
  return keepdims ? kept : reshape(kept, detail::reduced_shape(x_shape, mask, false));
}

// g of the reduced shape, back to x's shape (a broadcast view).
Tensor expand_grad(const Tensor& g, const Shape& x_shape, uint64_t mask) {
  return broadcast_to(reshape(g, detail::reduced_shape(x_shape, mask, true)), x_shape);
}

int64_t reduced_count(const Shape& shape, uint64_t mask) {
  int64_t n = 1;
  for (int d = 0; d < shape.rank(); ++d)
    if (mask >> d & 1) n *= shape[d];
  return n;
}

Tensor reduce_extreme(std::string_view op, ReduceOp kind, const Tensor& x, const Axes& axis,
                      bool keepdims) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  if (x.size() == 0 || reduced_count(x.shape(), mask) == 0)
    throw ValueError(keras::detail::cat(op, ": cannot reduce an empty tensor of shape ", x.shape(),
                                 " (the operation has no identity)."));
  Tensor kept = detail::run_reduce(kind, x, mask);
  Tensor out = finish(kept, x.shape(), mask, keepdims);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record(op, {x}, out, [x, xs, mask](const autograd::Context& ctx, const Tensor& g) {
      // The gradient goes to every position holding the extreme, split evenly among ties.
      Tensor y = reshape(ctx.output(), detail::reduced_shape(xs, mask, true));
      Tensor hit = cast(equal(x, broadcast_to(y, xs)), g.dtype());
      std::vector<int> axes;
      for (int d = 0; d < xs.rank(); ++d)
        if (mask >> d & 1) axes.push_back(d);
      Tensor ties = sum(hit, axes, true);
      return TensorList{multiply(expand_grad(g, xs, mask), divide(hit, ties))};
    });
  }
  return out;
}

}  // namespace

Tensor sum(const Tensor& x, const Axes& axis, bool keepdims) {
  constexpr std::string_view op = "sum";
  check(x.defined(), op, ": the input is an undefined tensor.");
  uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  Tensor xc = detail::cast(x, sum_dtype(x.dtype()));
  Tensor out = finish(detail::run_reduce(ReduceOp::Sum, xc, mask), x.shape(), mask, keepdims);
  if (autograd::should_record(xc)) {
    Shape xs = x.shape();
    autograd::record(op, {xc}, out, [xs, mask](const autograd::Context&, const Tensor& g) {
      return TensorList{expand_grad(g, xs, mask)};
    });
  }
  return out;
}

Tensor mean(const Tensor& x, const Axes& axis, bool keepdims) {
  constexpr std::string_view op = "mean";
  check(x.defined(), op, ": the input is an undefined tensor.");
  uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  Tensor xc = detail::cast(x, float_result_type(x.dtype()));
  Tensor out = finish(detail::run_reduce(ReduceOp::Mean, xc, mask), x.shape(), mask, keepdims);
  if (autograd::should_record(xc)) {
    Shape xs = x.shape();
    double n = static_cast<double>(reduced_count(xs, mask));
    autograd::record(op, {xc}, out, [xs, mask, n](const autograd::Context&, const Tensor& g) {
      return TensorList{expand_grad(divide(g, n), xs, mask)};
    });
  }
  return out;
}

Tensor max(const Tensor& x, const Axes& axis, bool keepdims) {
  return reduce_extreme("max", ReduceOp::Max, x, axis, keepdims);
}

Tensor min(const Tensor& x, const Axes& axis, bool keepdims) {
  return reduce_extreme("min", ReduceOp::Min, x, axis, keepdims);
}

}  // namespace numpy
}  // namespace keras::ops
