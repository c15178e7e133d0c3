// Hyperbolic functions and their inverses.

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"

namespace keras::ops {
inline namespace numpy {

using backend::UnaryOp;
using detail::Promotion;

Tensor sinh(const Tensor& x) {
  return detail::unary_op(
      "sinh", UnaryOp::Sinh, x, Promotion::ToFloat,
      [](const Tensor& x, const Tensor&, const Tensor& g) { return multiply(g, cosh(x)); });
}
Tensor cosh(const Tensor& x) {
  return detail::unary_op(
      "cosh", UnaryOp::Cosh, x, Promotion::ToFloat,
      [](const Tensor& x, const Tensor&, const Tensor& g) { return multiply(g, sinh(x)); });
}
Tensor tanh(const Tensor& x) {
  return detail::unary_op("tanh", UnaryOp::Tanh, x, Promotion::ToFloat,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return multiply(g, subtract(1.0, square(y)));
                          });
}
Tensor arcsinh(const Tensor& x) {
  return detail::unary_op("arcsinh", UnaryOp::Asinh, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, sqrt(add(square(x), 1.0)));
                          });
}
Tensor arccosh(const Tensor& x) {
  // 1 / sqrt((x - 1)(x + 1)): no cancellation in x^2 - 1 near x = 1.
  return detail::unary_op("arccosh", UnaryOp::Acosh, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, sqrt(multiply(subtract(x, 1.0), add(x, 1.0))));
                          });
}
Tensor arctanh(const Tensor& x) {
  return detail::unary_op("arctanh", UnaryOp::Atanh, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, subtract(1.0, square(x)));
                          });
}

}  // namespace numpy
}  // namespace keras::ops
