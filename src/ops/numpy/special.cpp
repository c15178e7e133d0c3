// i0, heaviside, nextafter.

#include <cmath>
#include <numbers>

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"

namespace keras::ops {
inline namespace numpy {

using backend::BinaryOp;
using backend::UnaryOp;
using detail::Promotion;

namespace {

// sum_k c[k] z^k by Horner's rule, with weak-scalar coefficients (they take z's dtype).
Tensor horner(const std::vector<double>& c, const Tensor& z) {
  Tensor p = full_like(z, c.back());
  for (size_t k = c.size() - 1; k-- > 0;) p = add(multiply(p, z), c[k]);
  return p;
}

// The modified Bessel function I1 (the derivative of I0), written with ops so that it runs on
// every backend and differentiates again: the power series (all terms positive, so accurate)
// up to |x| = 20, the asymptotic expansion beyond, where its smallest term is below 1e-16.
// There is no I1 primitive.
Tensor bessel_i1(const Tensor& x) {
  constexpr double kSwitch = 20;
  Tensor ax = abs(x);
  Tensor small = less_equal(ax, kSwitch);
  // I1(x) = x/2 sum_k (x^2/4)^k / (k! (k+1)!); 40 terms reach 1e-17 relative at |x| = 20.
  std::vector<double> series(41);
  series[0] = 1;
  for (size_t k = 1; k < series.size(); ++k)
    series[k] = series[k - 1] / (static_cast<double>(k) * static_cast<double>(k + 1));
  Tensor xs = where(small, x, 0.0);  // the unused branch stays finite (no NaN in gradients)
  Tensor near = multiply(multiply(xs, 0.5), horner(series, multiply(square(xs), 0.25)));
  // I1(t) ~ e^t / sqrt(2 pi t) sum_k b_k t^-k with b_k = b_(k-1) ((2k-1)^2 - 4) / (8k).
  std::vector<double> asym(31);
  asym[0] = 1;
  for (size_t k = 1; k < asym.size(); ++k) {
    double odd = 2.0 * static_cast<double>(k) - 1;
    asym[k] = asym[k - 1] * (odd * odd - 4) / (8.0 * static_cast<double>(k));
  }
  Tensor t = where(small, kSwitch + 1, ax);
  Tensor far = multiply(divide(exp(t), sqrt(multiply(t, 2 * std::numbers::pi))),
                        horner(asym, divide(1.0, t)));
  return where(small, near, multiply(sign(x), far));
}

std::pair<Tensor, Tensor> heaviside_grad(const Tensor& a, const Tensor&, const Tensor&,
                                         const Tensor& g, bool, bool need_b) {
  // Constant in x1 away from 0; x2 passes through where x1 == 0.
  Tensor zero = zeros_like(g);
  return {zero, need_b ? where(equal(a, 0.0), g, zero) : Tensor()};
}

}  // namespace

Tensor i0(const Tensor& x) {
  return detail::unary_op(
      "i0", UnaryOp::I0, x, Promotion::Inexact,
      [](const Tensor& x, const Tensor&, const Tensor& g) { return multiply(g, bessel_i1(x)); });
}

Tensor heaviside(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("heaviside", BinaryOp::Heaviside, x1, x2, Promotion::Inexact,
                           heaviside_grad);
}

Tensor nextafter(const Tensor& x1, const Tensor& x2) {
  // A step of one ulp: no useful derivative (JAX defines none either).
  return detail::binary_op("nextafter", BinaryOp::NextAfter, x1, x2, Promotion::ToFloat, nullptr);
}

}  // namespace numpy
}  // namespace keras::ops
