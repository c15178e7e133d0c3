// Trigonometric functions, arctan2, hypot, deg2rad, rad2deg and sinc.

#include <numbers>

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

using backend::BinaryOp;
using backend::UnaryOp;
using detail::Promotion;

Tensor sin(const Tensor& x) {
  return detail::unary_op(
      "sin", UnaryOp::Sin, x, Promotion::ToFloat,
      [](const Tensor& x, const Tensor&, const Tensor& g) { return multiply(g, cos(x)); });
}
Tensor cos(const Tensor& x) {
  return detail::unary_op("cos", UnaryOp::Cos, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return negative(multiply(g, sin(x)));
                          });
}
Tensor tan(const Tensor& x) {
  return detail::unary_op("tan", UnaryOp::Tan, x, Promotion::ToFloat,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return multiply(g, add(square(y), 1.0));
                          });
}
Tensor arcsin(const Tensor& x) {
  return detail::unary_op("arcsin", UnaryOp::Asin, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, sqrt(subtract(1.0, square(x))));
                          });
}
Tensor arccos(const Tensor& x) {
  return detail::unary_op("arccos", UnaryOp::Acos, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return negative(divide(g, sqrt(subtract(1.0, square(x)))));
                          });
}
Tensor arctan(const Tensor& x) {
  return detail::unary_op("arctan", UnaryOp::Atan, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, add(square(x), 1.0));
                          });
}

namespace {

// atan2(a, b): d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2).
std::pair<Tensor, Tensor> arctan2_grad(const Tensor& a, const Tensor& b, const Tensor&,
                                       const Tensor& g, bool need_a, bool need_b) {
  Tensor scale = divide(g, add(square(a), square(b)));
  return {need_a ? multiply(scale, b) : Tensor(), need_b ? negative(multiply(scale, a)) : Tensor()};
}
// hypot: d/da = a / y, d/db = b / y, and 0 at the origin (a safe divisor keeps it finite).
std::pair<Tensor, Tensor> hypot_grad(const Tensor& a, const Tensor& b, const Tensor& y,
                                     const Tensor& g, bool need_a, bool need_b) {
  Tensor zero = equal(y, 0.0);
  Tensor scale = where(zero, 0.0, divide(g, where(zero, 1.0, y)));
  return {need_a ? multiply(scale, a) : Tensor(), need_b ? multiply(scale, b) : Tensor()};
}

}  // namespace

Tensor arctan2(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("arctan2", BinaryOp::Atan2, x1, x2, Promotion::ToFloat, arctan2_grad);
}
Tensor hypot(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("hypot", BinaryOp::Hypot, x1, x2, Promotion::Inexact, hypot_grad);
}

namespace {

// x * factor. Half types multiply in float32 and round once, as NumPy does (a float16 factor
// would be off by up to half an ulp before the product is even taken).
Tensor scale_angle(std::string_view name, const Tensor& x, double factor) {
  check(x.defined(), name, ": the input is an undefined tensor.");
  DType dtype = detail::compute_dtype(detail::promote({&x}), Promotion::Inexact);
  Tensor xc = detail::prepare(x, dtype, x.backend());
  if (detail::is_half(dtype)) return cast(multiply(cast(xc, DType::Float32), factor), dtype);
  return multiply(xc, factor);
}

}  // namespace

Tensor deg2rad(const Tensor& x) {
  return scale_angle("deg2rad", x, std::numbers::pi / 180);
}
Tensor rad2deg(const Tensor& x) {
  return scale_angle("rad2deg", x, 180 / std::numbers::pi);
}

namespace {

// sin(pi x) / (pi x), and 1 at 0 (the division is kept away from 0 by a safe divisor). Half
// types compute in float32 and round once, or the three steps would each round.
Tensor sinc_forward(const Tensor& x) {
  if (detail::is_half(x.dtype())) return cast(sinc_forward(cast(x, DType::Float32)), x.dtype());
  Tensor zero = equal(x, 0.0);
  Tensor px = multiply(where(zero, 1.0, x), std::numbers::pi);
  return where(zero, 1.0, divide(sin(px), px));
}

// sinc'(x) = (cos(pi x) - sinc(x)) / x. That difference cancels near 0, so |x| < 0.1 uses the
// Maclaurin series sum_k (-1)^k 2k pi^2k x^(2k-1) / (2k+1)!, odd in x, whose derivative at 0 is
// also right (so second derivatives are correct there too).
Tensor sinc_derivative(const Tensor& x, const Tensor& y) {
  constexpr double kThreshold = 0.1;
  Tensor small = less(abs(x), kThreshold);
  Tensor xs = where(small, x, 0.0);
  Tensor x2 = square(xs);
  // Horner in x^2 over the coefficients c_k = (-1)^k 2k pi^2k / (2k+1)!, k = 1..7.
  double c[8];
  double pi2k = 1, fact = 1;  // pi^2k, (2k+1)!
  for (int k = 1; k <= 7; ++k) {
    pi2k *= std::numbers::pi * std::numbers::pi;
    fact *= (2.0 * k) * (2.0 * k + 1);
    c[k] = (k % 2 ? -1.0 : 1.0) * 2.0 * k * pi2k / fact;
  }
  Tensor series = full_like(x2, c[7]);
  for (int k = 6; k >= 1; --k) series = add(multiply(series, x2), c[k]);
  series = multiply(series, xs);
  Tensor xl = where(small, 1.0, x);
  Tensor direct = divide(subtract(cos(multiply(xl, std::numbers::pi)), y), xl);
  return where(small, series, direct);
}

}  // namespace

Tensor sinc(const Tensor& x) {
  // Complex sinc is the same composition, differentiated through its complex ops.
  if (x.defined() && is_complex(x.dtype())) return sinc_forward(x);
  return detail::composite_unary("sinc", x, Promotion::ToFloat, sinc_forward,
                                 [](const Tensor& x, const Tensor& y, const Tensor& g) {
                                   return multiply(g, sinc_derivative(x, y));
                                 });
}

}  // namespace numpy
}  // namespace keras::ops
