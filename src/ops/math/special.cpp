// erf, erfc, erfinv, rsqrt.

#include <numbers>

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"

namespace keras::ops {
inline namespace math {

using backend::UnaryOp;
using detail::Promotion;

namespace {

constexpr double kTwoOverSqrtPi = 2 * std::numbers::inv_sqrtpi;

}  // namespace

Tensor erf(const Tensor& x) {
  return detail::unary_op("erf", UnaryOp::Erf, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return multiply(g, multiply(exp(negative(square(x))), kTwoOverSqrtPi));
                          });
}
Tensor erfc(const Tensor& x) {
  return detail::unary_op("erfc", UnaryOp::Erfc, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return multiply(g, multiply(exp(negative(square(x))), -kTwoOverSqrtPi));
                          });
}
Tensor erfinv(const Tensor& x) {
  // The inverse function's derivative: 1 / erf'(y) = sqrt(pi) / 2 exp(y^2).
  return detail::unary_op("erfinv", UnaryOp::Erfinv, x, Promotion::ToFloat,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return multiply(g, divide(exp(square(y)), kTwoOverSqrtPi));
                          });
}
Tensor rsqrt(const Tensor& x) {
  // d/dx x^(-1/2) = -y^3 / 2.
  return detail::unary_op("rsqrt", UnaryOp::Rsqrt, x, Promotion::ToFloat,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return multiply(g, multiply(multiply(square(y), y), -0.5));
                          });
}

}  // namespace math
}  // namespace keras::ops
