// add, subtract, multiply, divide, negative, abs, fabs, square, sqrt, cbrt, reciprocal, sign,
// power, maximum, minimum, fmax, fmin.

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

using backend::BinaryOp;
using backend::UnaryOp;
using detail::Promotion;

namespace {

std::pair<Tensor, Tensor> add_grad(const Tensor&, const Tensor&, const Tensor&, const Tensor& g,
                                   bool, bool) {
  return {g, g};
}
std::pair<Tensor, Tensor> sub_grad(const Tensor&, const Tensor&, const Tensor&, const Tensor& g,
                                   bool, bool need_b) {
  return {g, need_b ? negative(g) : Tensor()};
}
std::pair<Tensor, Tensor> mul_grad(const Tensor& a, const Tensor& b, const Tensor&, const Tensor& g,
                                   bool need_a, bool need_b) {
  return {need_a ? multiply(g, b) : Tensor(), need_b ? multiply(g, a) : Tensor()};
}
std::pair<Tensor, Tensor> div_grad(const Tensor& a, const Tensor& b, const Tensor&, const Tensor& g,
                                   bool need_a, bool need_b) {
  // d(a/b)/db = -a / b^2, written without the output so it stays exact at b = 0 limits.
  return {need_a ? divide(g, b) : Tensor(),
          need_b ? negative(divide(multiply(g, a), square(b))) : Tensor()};
}
std::pair<Tensor, Tensor> pow_grad(const Tensor& a, const Tensor& b, const Tensor& y,
                                   const Tensor& g, bool need_a, bool need_b) {
  Tensor ga, gb;
  // d(a^b)/da = b a^(b-1); at a = 0 with b = 0 the NumPy/JAX convention is 0.
  if (need_a) ga = multiply(g, where(equal(b, 0.0), 0.0, multiply(b, power(a, subtract(b, 1.0)))));
  // d(a^b)/db = a^b log(a), taken as 0 where a = 0 (as JAX does).
  if (need_b)
    gb = multiply(g, where(equal(a, 0.0), 0.0, multiply(y, log(where(equal(a, 0.0), 1.0, a)))));
  return {ga, gb};
}
// `mask` (bool) says where a wins; the rest of the gradient goes to b.
std::pair<Tensor, Tensor> split_grad(const Tensor& mask, const Tensor& g, bool need_a,
                                     bool need_b) {
  Tensor zero = zeros_like(g);
  return {need_a ? where(mask, g, zero) : Tensor(), need_b ? where(mask, zero, g) : Tensor()};
}
std::pair<Tensor, Tensor> max_grad(const Tensor& a, const Tensor& b, const Tensor&, const Tensor& g,
                                   bool need_a, bool need_b) {
  // Ties split the gradient evenly, as JAX does.
  Tensor ta = cast(greater(a, b), g.dtype()), tie = cast(equal(a, b), g.dtype());
  Tensor wa = add(ta, multiply(tie, 0.5));
  return {need_a ? multiply(g, wa) : Tensor(), need_b ? multiply(g, subtract(1.0, wa)) : Tensor()};
}
std::pair<Tensor, Tensor> min_grad(const Tensor& a, const Tensor& b, const Tensor&, const Tensor& g,
                                   bool need_a, bool need_b) {
  Tensor ta = cast(less(a, b), g.dtype()), tie = cast(equal(a, b), g.dtype());
  Tensor wa = add(ta, multiply(tie, 0.5));
  return {need_a ? multiply(g, wa) : Tensor(), need_b ? multiply(g, subtract(1.0, wa)) : Tensor()};
}
// fmax/fmin pick a where it wins or b is NaN, else b (ties go to b), as JAX selects.
std::pair<Tensor, Tensor> fmax_grad(const Tensor& a, const Tensor& b, const Tensor&,
                                    const Tensor& g, bool need_a, bool need_b) {
  return split_grad(logical_or(greater(a, b), isnan(b)), g, need_a, need_b);
}
std::pair<Tensor, Tensor> fmin_grad(const Tensor& a, const Tensor& b, const Tensor&,
                                    const Tensor& g, bool need_a, bool need_b) {
  return split_grad(logical_or(less(a, b), isnan(b)), g, need_a, need_b);
}

}  // namespace

Tensor add(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("add", BinaryOp::Add, x1, x2, Promotion::Keep, add_grad);
}
Tensor subtract(const Tensor& x1, const Tensor& x2) {
  detail::reject_bool("subtract", {&x1, &x2}, "use logical_xor or bitwise_xor instead.");
  return detail::binary_op("subtract", BinaryOp::Sub, x1, x2, Promotion::Keep, sub_grad);
}
Tensor multiply(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("multiply", BinaryOp::Mul, x1, x2, Promotion::Keep, mul_grad);
}
Tensor divide(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("divide", BinaryOp::Div, x1, x2, Promotion::ToFloat, div_grad);
}
Tensor true_divide(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("true_divide", BinaryOp::Div, x1, x2, Promotion::ToFloat, div_grad);
}
Tensor power(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("power", BinaryOp::Pow, x1, x2, Promotion::Numeric, pow_grad);
}
Tensor maximum(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("maximum", BinaryOp::Maximum, x1, x2, Promotion::Keep, max_grad);
}
Tensor minimum(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("minimum", BinaryOp::Minimum, x1, x2, Promotion::Keep, min_grad);
}
Tensor fmax(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("fmax", BinaryOp::FMax, x1, x2, Promotion::Keep, fmax_grad);
}
Tensor fmin(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("fmin", BinaryOp::FMin, x1, x2, Promotion::Keep, fmin_grad);
}

Tensor negative(const Tensor& x) {
  detail::reject_bool("negative", {&x}, "use logical_not instead.");
  return detail::unary_op(
      "negative", UnaryOp::Neg, x, Promotion::Keep,
      [](const Tensor&, const Tensor&, const Tensor& g) { return negative(g); });
}
Tensor absolute(const Tensor& x) {
  return detail::unary_op(
      "absolute", UnaryOp::Abs, x, Promotion::Keep,
      [](const Tensor& x, const Tensor&, const Tensor& g) { return multiply(g, sign(x)); });
}
Tensor abs(const Tensor& x) {
  return absolute(x);
}
Tensor fabs(const Tensor& x) {
  return detail::unary_op(
      "fabs", UnaryOp::Abs, x, Promotion::ToFloat,
      [](const Tensor& x, const Tensor&, const Tensor& g) { return multiply(g, sign(x)); });
}
Tensor square(const Tensor& x) {
  return detail::unary_op("square", UnaryOp::Square, x, Promotion::Numeric,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return multiply(g, multiply(x, 2.0));
                          });
}
Tensor sqrt(const Tensor& x) {
  return detail::unary_op(
      "sqrt", UnaryOp::Sqrt, x, Promotion::ToFloat,
      [](const Tensor&, const Tensor& y, const Tensor& g) { return divide(g, multiply(y, 2.0)); });
}
Tensor cbrt(const Tensor& x) {
  return detail::unary_op("cbrt", UnaryOp::Cbrt, x, Promotion::Inexact,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return divide(g, multiply(square(y), 3.0));
                          });
}
Tensor reciprocal(const Tensor& x) {
  return detail::unary_op("reciprocal", UnaryOp::Reciprocal, x, Promotion::Inexact,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return negative(multiply(g, square(y)));
                          });
}
Tensor sign(const Tensor& x) {
  detail::reject_bool("sign", {&x}, "cast it to a numeric dtype first.");
  return detail::unary_op("sign", UnaryOp::Sign, x, Promotion::Keep, detail::zero_grad);
}

}  // namespace numpy
}  // namespace keras::ops
