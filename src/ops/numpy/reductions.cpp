// sum, prod, mean, count_nonzero, max, min, amax, amin, ptp, all, any.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

using backend::ReduceOp;
using detail::expand_reduced;
using detail::finish_reduce;

namespace {

// Keras sums and multiplies bool and narrow integers in int32 (JAX's accumulation type).
// Keras gives uint32 for uint8; keras-cpp has no uint32 and uses int32, as Keras's torch
// backend does.
DType accumulation_dtype(DType t) {
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

Tensor reduce_extreme(std::string_view op, ReduceOp kind, const Tensor& x, const Axes& axis,
                      bool keepdims) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  if (detail::reduced_count(x.shape(), mask) == 0)
    throw ValueError(keras::detail::cat(op, ": cannot reduce an empty tensor of shape ", x.shape(),
                                        " (the operation has no identity; pass `initial`)."));
  if (is_complex(x.dtype()))
    return complex_detail::extreme(x, mask, keepdims, kind == ReduceOp::Max);
  Tensor kept = detail::run_reduce(kind, x, mask);
  Tensor out = finish_reduce(kept, x.shape(), mask, keepdims);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record(op, {x}, out, [x, xs, mask](const autograd::Context& ctx, const Tensor& g) {
      // The gradient goes to every position holding the extreme, split evenly among ties.
      Tensor y = expand_reduced(ctx.output(), xs, mask);
      Tensor hit = cast(equal(x, y), g.dtype());
      Tensor ties = sum(hit, detail::mask_axes(mask, xs.rank()), true);
      return TensorList{multiply(expand_reduced(g, xs, mask), divide(hit, ties))};
    });
  }
  return out;
}

Tensor reduce_extreme_initial(std::string_view op, ReduceOp kind, const Tensor& x, const Axes& axis,
                              bool keepdims, const Scalar& initial) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  if (detail::reduced_count(x.shape(), mask) == 0)
    return detail::filled(detail::reduced_shape(x.shape(), mask, keepdims), initial, x.dtype(),
                          x.backend());
  Tensor r = reduce_extreme(op, kind, x, axis, keepdims);
  Tensor init = detail::scalar_tensor(initial, x.dtype(), x.backend());
  if (is_complex(x.dtype())) {
    // The extreme of each result and `initial`, in the lexicographic order.
    Tensor both = stack({r, broadcast_to(init, r.shape())}, -1);
    return complex_detail::extreme(both, uint64_t{1} << (both.ndim() - 1), false,
                                   kind == ReduceOp::Max);
  }
  return kind == ReduceOp::Max ? maximum(r, init) : minimum(r, init);
}

// The gradient of a product over `mask`: each element receives the product of the others,
// as exclusive prefix and suffix products along the merged reduced axes (exact with zeros).
Tensor prod_grad(const Tensor& x, const Tensor& g, uint64_t mask) {
  const Shape& xs = x.shape();
  Tensor m = detail::merge_axes_last(x, mask);
  const int last = m.ndim() - 1;
  const int64_t n = m.shape()[last];
  Shape one_shape = m.shape();
  one_shape[last] = 1;
  Tensor one = detail::filled(one_shape, 1, x.dtype(), x.backend());
  Tensor before = cumprod(concatenate({one, detail::slice_axis(m, last, 0, n - 1)}, last), last);
  Tensor after = detail::flip_axis(
      cumprod(detail::flip_axis(concatenate({detail::slice_axis(m, last, 1, n), one}, last), last),
              last),
      last);
  Tensor gk = reshape(g, one_shape);
  return detail::split_axes_last(multiply(multiply(before, after), gk), xs, mask);
}

}  // namespace

Tensor sum(const Tensor& x, const Axes& axis, bool keepdims) {
  constexpr std::string_view op = "sum";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (is_complex(x.dtype())) return complex_detail::reduce(op, x, axis, keepdims);
  uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  Tensor xc = detail::cast(x, accumulation_dtype(x.dtype()));
  Tensor out =
      finish_reduce(detail::run_reduce(ReduceOp::Sum, xc, mask), x.shape(), mask, keepdims);
  if (autograd::should_record(xc)) {
    Shape xs = x.shape();
    autograd::record(op, {xc}, out, [xs, mask](const autograd::Context&, const Tensor& g) {
      return TensorList{expand_reduced(g, xs, mask)};
    });
  }
  return out;
}

Tensor prod(const Tensor& x, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  constexpr std::string_view op = "prod";
  check(x.defined(), op, ": the input is an undefined tensor.");
  uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  Tensor xc = detail::cast(x, dtype.value_or(accumulation_dtype(x.dtype())));
  if (is_complex(xc.dtype())) return complex_detail::product(xc, mask, keepdims);
  Tensor out =
      finish_reduce(detail::run_reduce(ReduceOp::Prod, xc, mask), x.shape(), mask, keepdims);
  if (autograd::should_record(xc)) {
    autograd::record(op, {xc}, out, [xc, mask](const autograd::Context&, const Tensor& g) {
      if (xc.size() == 0) return TensorList{zeros_like(xc)};
      return TensorList{prod_grad(xc, g, mask)};
    });
  }
  return out;
}

Tensor mean(const Tensor& x, const Axes& axis, bool keepdims) {
  constexpr std::string_view op = "mean";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (is_complex(x.dtype())) return complex_detail::reduce(op, x, axis, keepdims);
  uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  Tensor xc = detail::cast(x, float_result_type(x.dtype()));
  Tensor out =
      finish_reduce(detail::run_reduce(ReduceOp::Mean, xc, mask), x.shape(), mask, keepdims);
  if (autograd::should_record(xc)) {
    Shape xs = x.shape();
    double n = static_cast<double>(detail::reduced_count(xs, mask));
    autograd::record(op, {xc}, out, [xs, mask, n](const autograd::Context&, const Tensor& g) {
      return TensorList{expand_reduced(divide(g, n), xs, mask)};
    });
  }
  return out;
}

Tensor count_nonzero(const Tensor& x, const Axes& axis) {
  check(x.defined(), "count_nonzero: the input is an undefined tensor.");
  return sum(not_equal(x, 0), axis);
}

Tensor max(const Tensor& x, const Axes& axis, bool keepdims) {
  return reduce_extreme("max", ReduceOp::Max, x, axis, keepdims);
}
Tensor max(const Tensor& x, const Axes& axis, bool keepdims, const Scalar& initial) {
  return reduce_extreme_initial("max", ReduceOp::Max, x, axis, keepdims, initial);
}
Tensor min(const Tensor& x, const Axes& axis, bool keepdims) {
  return reduce_extreme("min", ReduceOp::Min, x, axis, keepdims);
}
Tensor min(const Tensor& x, const Axes& axis, bool keepdims, const Scalar& initial) {
  return reduce_extreme_initial("min", ReduceOp::Min, x, axis, keepdims, initial);
}
Tensor amax(const Tensor& x, const Axes& axis, bool keepdims) {
  return reduce_extreme("amax", ReduceOp::Max, x, axis, keepdims);
}
Tensor amin(const Tensor& x, const Axes& axis, bool keepdims) {
  return reduce_extreme("amin", ReduceOp::Min, x, axis, keepdims);
}

Tensor ptp(const Tensor& x, const Axes& axis, bool keepdims) {
  return subtract(reduce_extreme("ptp", ReduceOp::Max, x, axis, keepdims),
                  reduce_extreme("ptp", ReduceOp::Min, x, axis, keepdims));
}

Tensor all(const Tensor& x, const Axes& axis, bool keepdims) {
  check(x.defined(), "all: the input is an undefined tensor.");
  if (is_complex(x.dtype())) return all(complex_detail::is_nonzero(x), axis, keepdims);
  uint64_t mask = detail::axes_mask("all", axis, x.ndim());
  return finish_reduce(detail::run_reduce(ReduceOp::All, x, mask), x.shape(), mask, keepdims);
}

Tensor any(const Tensor& x, const Axes& axis, bool keepdims) {
  check(x.defined(), "any: the input is an undefined tensor.");
  if (is_complex(x.dtype())) return any(complex_detail::is_nonzero(x), axis, keepdims);
  uint64_t mask = detail::axes_mask("any", axis, x.ndim());
  return finish_reduce(detail::run_reduce(ReduceOp::Any, x, mask), x.shape(), mask, keepdims);
}

}  // namespace numpy
}  // namespace keras::ops
