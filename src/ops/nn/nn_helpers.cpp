// Private elementwise and gather/scatter helpers of the nn ops (see nn_common.h).

#include <cmath>

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/nn_common.h"

namespace keras::ops::nn_detail {

using backend::BinaryOp;
using backend::UnaryOp;
using detail::Promotion;

DType float_dtype(const Tensor& x) {
  return float_result_type(detail::promote({&x}));
}

Tensor log10(const Tensor& x) {
  return detail::unary_op("log10", UnaryOp::Log10, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, multiply(x, M_LN10));
                          });
}

Tensor rsqrt(const Tensor& x) {
  return detail::unary_op("rsqrt", UnaryOp::Rsqrt, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor& y, const Tensor& g) {
                            // d x^-1/2 = -1/2 x^-3/2 = -1/2 y / x
                            return multiply(g, divide(multiply(y, -0.5), x));
                          });
}

Tensor erf(const Tensor& x) {
  return detail::unary_op("erf", UnaryOp::Erf, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return multiply(g, multiply(exp(negative(square(x))), M_2_SQRTPI));
                          });
}

Tensor clip(const Tensor& x, double lo, double hi) {
  Tensor xc = detail::cast(x, float_dtype(x));
  Tensor y = detail::run_unary(UnaryOp::Clip, xc, lo, hi);
  if (autograd::should_record(xc)) {
    autograd::record("clip", {xc}, y, [xc, lo, hi](const autograd::Context&, const Tensor& g) {
      return TensorList{where(logical_and(greater_equal(xc, lo), less_equal(xc, hi)), g, 0.0)};
    });
  }
  return y;
}

Tensor logical_and(const Tensor& a, const Tensor& b) {
  return detail::predicate_op("logical_and", BinaryOp::LogicalAnd, a, b);
}

Tensor gather_along(const Tensor& x, const Tensor& index, int axis) {
  Shape shape = x.shape();
  shape[axis] = index.shape()[axis];
  Tensor out = detail::empty(shape, x.dtype(), x.backend());
  if (out.size() > 0) x.backend().gather(out.array(), x.array(), index.array(), axis);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record("gather_along", {x}, out,
                     [index, axis, xs](const autograd::Context&, const Tensor& g) {
                       return TensorList{scatter_add_along(g, index, axis, xs)};
                     });
  }
  return out;
}

Tensor scatter_add_along(const Tensor& src, const Tensor& index, int axis, const Shape& shape) {
  Tensor out = detail::empty(shape, src.dtype(), src.backend());
  src.backend().fill(out.array(), 0);
  if (src.size() > 0)
    src.backend().scatter(out.array(), index.array(), src.array(), axis,
                          backend::ScatterReduce::Add);
  if (autograd::should_record(src)) {
    autograd::record("scatter_add_along", {src}, out,
                     [index, axis](const autograd::Context&, const Tensor& g) {
                       return TensorList{gather_along(g, index, axis)};
                     });
  }
  return out;
}

}  // namespace keras::ops::nn_detail
