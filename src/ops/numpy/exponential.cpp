// exp, log, tanh, sign.

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"

namespace keras::ops {
inline namespace numpy {

using backend::UnaryOp;
using detail::Promotion;

Tensor exp(const Tensor& x) {
  return detail::unary_op("exp", UnaryOp::Exp, x, Promotion::ToFloat,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return multiply(g, y);
                          });
}
Tensor log(const Tensor& x) {
  return detail::unary_op("log", UnaryOp::Log, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, x);
                          });
}
Tensor tanh(const Tensor& x) {
  return detail::unary_op("tanh", UnaryOp::Tanh, x, Promotion::ToFloat,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return multiply(g, subtract(1.0, square(y)));
                          });
}
Tensor sign(const Tensor& x) {
  // Piecewise constant: the gradient is zero almost everywhere.
  return detail::unary_op("sign", UnaryOp::Sign, x, Promotion::Keep,
                          [](const Tensor&, const Tensor&, const Tensor& g) {
                            return zeros_like(g);
                          });
}

}  // namespace numpy
}  // namespace keras::ops
