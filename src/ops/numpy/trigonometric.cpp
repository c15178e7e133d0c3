// Trigonometric functions.

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"

namespace keras::ops {
inline namespace numpy {

using backend::UnaryOp;
using detail::Promotion;

Tensor sin(const Tensor& x) {
  return detail::unary_op("sin", UnaryOp::Sin, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return multiply(g, cos(x));
                          });
}
Tensor cos(const Tensor& x) {
  return detail::unary_op("cos", UnaryOp::Cos, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return negative(multiply(g, sin(x)));
                          });
}

}  // namespace numpy
}  // namespace keras::ops
