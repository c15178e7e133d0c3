// exp, exp2, expm1, log, log1p, log2, log10, logaddexp, logaddexp2, ldexp.

#include <numbers>

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

using backend::BinaryOp;
using backend::UnaryOp;
using detail::Promotion;

Tensor exp(const Tensor& x) {
  return detail::unary_op(
      "exp", UnaryOp::Exp, x, Promotion::ToFloat,
      [](const Tensor&, const Tensor& y, const Tensor& g) { return multiply(g, y); });
}
Tensor exp2(const Tensor& x) {
  return detail::unary_op("exp2", UnaryOp::Exp2, x, Promotion::ToFloat,
                          [](const Tensor&, const Tensor& y, const Tensor& g) {
                            return multiply(g, multiply(y, std::numbers::ln2));
                          });
}
Tensor expm1(const Tensor& x) {
  return detail::unary_op(
      "expm1", UnaryOp::Expm1, x, Promotion::ToFloat,
      [](const Tensor&, const Tensor& y, const Tensor& g) { return multiply(g, add(y, 1.0)); });
}
Tensor log(const Tensor& x) {
  return detail::unary_op(
      "log", UnaryOp::Log, x, Promotion::ToFloat,
      [](const Tensor& x, const Tensor&, const Tensor& g) { return divide(g, x); });
}
Tensor log1p(const Tensor& x) {
  return detail::unary_op(
      "log1p", UnaryOp::Log1p, x, Promotion::ToFloat,
      [](const Tensor& x, const Tensor&, const Tensor& g) { return divide(g, add(x, 1.0)); });
}
Tensor log2(const Tensor& x) {
  return detail::unary_op("log2", UnaryOp::Log2, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, multiply(x, std::numbers::ln2));
                          });
}
Tensor log10(const Tensor& x) {
  return detail::unary_op("log10", UnaryOp::Log10, x, Promotion::ToFloat,
                          [](const Tensor& x, const Tensor&, const Tensor& g) {
                            return divide(g, multiply(x, std::numbers::ln10));
                          });
}

namespace {

// d/da of log_base(base^a + base^b) = base^(a - y). Where a and y are the same infinity the
// difference is NaN; the limit is 1 when a alone is infinite and an even split when b is too.
Tensor logaddexp_share(const Tensor& a, const Tensor& b, const Tensor& y, bool base2) {
  Tensor d = subtract(a, y);
  Tensor share = base2 ? exp2(d) : exp(d);
  Tensor limit = where(equal(a, b), 0.5, 1.0);
  return where(logical_and(isinf(a), equal(a, y)), limit, share);
}

std::pair<Tensor, Tensor> logaddexp_grad(const Tensor& a, const Tensor& b, const Tensor& y,
                                         const Tensor& g, bool need_a, bool need_b) {
  return {need_a ? multiply(g, logaddexp_share(a, b, y, false)) : Tensor(),
          need_b ? multiply(g, logaddexp_share(b, a, y, false)) : Tensor()};
}
std::pair<Tensor, Tensor> logaddexp2_grad(const Tensor& a, const Tensor& b, const Tensor& y,
                                          const Tensor& g, bool need_a, bool need_b) {
  return {need_a ? multiply(g, logaddexp_share(a, b, y, true)) : Tensor(),
          need_b ? multiply(g, logaddexp_share(b, a, y, true)) : Tensor()};
}

}  // namespace

Tensor logaddexp(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("logaddexp", BinaryOp::LogAddExp, x1, x2, Promotion::ToFloat,
                           logaddexp_grad);
}
Tensor logaddexp2(const Tensor& x1, const Tensor& x2) {
  return detail::binary_op("logaddexp2", BinaryOp::LogAddExp2, x1, x2, Promotion::ToFloat,
                           logaddexp2_grad);
}

namespace {

// m * 2^e in float64, exact up to the final rounding to the result dtype: the exponent is
// clamped to where the result is 0 or inf anyway, then applied in three steps, each a power of
// two that float64 represents exactly (so large |e| never overflows an intermediate). There is
// no ldexp primitive; this decomposition is exact except where a float64 result is subnormal.
Tensor ldexp_forward(const Tensor& m, const Tensor& e) {
  Tensor md = cast(m, DType::Float64);
  Tensor ed = cast(clip(e, -3000, 3000), DType::Float64);
  Tensor e1 = floor(divide(ed, 3.0));
  Tensor e2 = floor(divide(subtract(ed, e1), 2.0));
  Tensor e3 = subtract(subtract(ed, e1), e2);
  Tensor r = multiply(multiply(multiply(md, exp2(e1)), exp2(e2)), exp2(e3));
  return cast(r, m.dtype());
}

}  // namespace

Tensor ldexp(const Tensor& x1, const Tensor& x2) {
  constexpr std::string_view op = "ldexp";
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  detail::require_integer(op, {&x2}, /*allow_bool=*/false);
  auto& be = detail::common_backend(op, {&x1, &x2});
  DType dtype = detail::compute_dtype(detail::promote({&x1, &x2}), Promotion::ToFloat);
  Tensor m = detail::prepare(x1, dtype, be);
  Tensor e = x2.is_weak() ? detail::prepare(x2, DType::Int32, be) : x2;
  detail::broadcast_shapes(op, m.shape(), e.shape());
  Tensor y;
  {
    NoGradScope no_grad;
    y = ldexp_forward(m, e);
  }
  if (autograd::should_record(m)) {
    autograd::record(op, {m}, y, [m, e](const autograd::Context&, const Tensor& g) {
      return TensorList{detail::sum_to(ldexp(g, e), m.shape())};
    });
  }
  return y;
}

}  // namespace numpy
}  // namespace keras::ops
