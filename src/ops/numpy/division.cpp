// floor_divide, mod, fmod, divide_no_nan, gcd, lcm.

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

using backend::BinaryOp;
using detail::Promotion;

namespace {

std::pair<Tensor, Tensor> floor_divide_grad(const Tensor&, const Tensor&, const Tensor&,
                                            const Tensor& g, bool, bool) {
  Tensor zero = zeros_like(g);  // piecewise constant in both inputs
  return {zero, zero};
}
// a mod b = a - b floor(a / b): d/da = 1, d/db = -floor(a / b).
std::pair<Tensor, Tensor> mod_grad(const Tensor& a, const Tensor& b, const Tensor&, const Tensor& g,
                                   bool, bool need_b) {
  return {g, need_b ? negative(multiply(g, floor_divide(a, b))) : Tensor()};
}
// fmod(a, b) = a - b trunc(a / b): d/da = 1, d/db = -trunc(a / b).
std::pair<Tensor, Tensor> fmod_grad(const Tensor& a, const Tensor& b, const Tensor&,
                                    const Tensor& g, bool, bool need_b) {
  return {g, need_b ? negative(multiply(g, trunc(divide(a, b)))) : Tensor()};
}
std::pair<Tensor, Tensor> divide_no_nan_grad(const Tensor& a, const Tensor& b, const Tensor&,
                                             const Tensor& g, bool need_a, bool need_b) {
  // Both gradients are 0 where b is 0; a safe divisor keeps higher orders free of 0/0 there.
  Tensor zero = equal(b, 0.0);
  Tensor safe = where(zero, 1.0, b);
  Tensor ga, gb;
  if (need_a) ga = where(zero, 0.0, divide(g, safe));
  if (need_b) gb = where(zero, 0.0, negative(divide(multiply(g, a), square(safe))));
  return {ga, gb};
}

}  // namespace

Tensor floor_divide(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("floor_divide", BinaryOp::FloorDiv, x1, x2, Promotion::Numeric,
                           floor_divide_grad);
}
Tensor mod(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("mod", BinaryOp::Mod, x1, x2, Promotion::Numeric, mod_grad);
}
Tensor fmod(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("fmod", BinaryOp::FMod, x1, x2, Promotion::Numeric, fmod_grad);
}

Tensor divide_no_nan(const Tensor& x1, const Tensor& x2) {
  auto forward = [](const Tensor& a, const Tensor& b) {
    return where(equal(b, 0.0), 0.0, divide(a, b));
  };
  // Complex operands: the composition itself, differentiated through the complex ops (their
  // division by 0 has no gradient, so none leaks through the unchosen branch).
  if (x1.defined() && x2.defined() && (is_complex(x1.dtype()) || is_complex(x2.dtype())))
    return forward(x1, x2);
  return detail::composite_binary("divide_no_nan", x1, x2, Promotion::ToFloat, forward,
                                  divide_no_nan_grad);
}

Tensor gcd(const Tensor& x1, const Tensor& x2) {
  detail::require_integer("gcd", {&x1, &x2}, /*allow_bool=*/false);
  return detail::binary_op("gcd", BinaryOp::Gcd, x1, x2, Promotion::Keep, nullptr);
}
Tensor lcm(const Tensor& x1, const Tensor& x2) {
  detail::require_integer("lcm", {&x1, &x2}, /*allow_bool=*/false);
  return detail::binary_op("lcm", BinaryOp::Lcm, x1, x2, Promotion::Keep, nullptr);
}

}  // namespace numpy
}  // namespace keras::ops
