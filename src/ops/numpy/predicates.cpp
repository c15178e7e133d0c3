// isfinite, isinf, isnan, isposinf, isneginf, isreal, signbit, isclose, allclose.

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

using backend::UnaryOp;
using detail::Promotion;

Tensor isfinite(const Tensor& x) {
  return detail::unary_op("isfinite", UnaryOp::IsFinite, x, Promotion::Keep, nullptr);
}
Tensor isinf(const Tensor& x) {
  return detail::unary_op("isinf", UnaryOp::IsInf, x, Promotion::Keep, nullptr);
}
Tensor isnan(const Tensor& x) {
  return detail::unary_op("isnan", UnaryOp::IsNan, x, Promotion::Keep, nullptr);
}
Tensor isposinf(const Tensor& x) {
  return detail::unary_op("isposinf", UnaryOp::IsPosInf, x, Promotion::Keep, nullptr);
}
Tensor isneginf(const Tensor& x) {
  return detail::unary_op("isneginf", UnaryOp::IsNegInf, x, Promotion::Keep, nullptr);
}
Tensor signbit(const Tensor& x) {
  return detail::unary_op("signbit", UnaryOp::SignBit, x, Promotion::Keep, nullptr);
}
Tensor isreal(const Tensor& x) {
  check(x.defined(), "isreal: the input is an undefined tensor.");
  if (is_complex(x.dtype())) return equal(imag(x), 0);
  return full_like(x, true, DType::Bool);
}

namespace {

// isclose, with `op` naming the public op in errors.
Tensor close(std::string_view op, const Tensor& x1, const Tensor& x2, double rtol, double atol,
             bool equal_nan) {
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  auto& be = detail::common_backend(op, {&x1, &x2});
  DType dtype = detail::compute_dtype(detail::promote({&x1, &x2}), Promotion::Inexact);
  Tensor a = detail::prepare(x1, dtype, be), b = detail::prepare(x2, dtype, be);
  detail::broadcast_shapes(op, a.shape(), b.shape());
  NoGradScope no_grad;  // a bool result: nothing to differentiate
  // Equal values (infinities included) are close; otherwise finite b within the tolerance.
  Tensor within = less_equal(abs(subtract(a, b)), add(multiply(abs(b), rtol), atol));
  Tensor out = logical_or(equal(a, b), logical_and(isfinite(b), within));
  if (equal_nan) out = logical_or(out, logical_and(isnan(a), isnan(b)));
  return out;
}

}  // namespace

Tensor isclose(const Tensor& x1, const Tensor& x2, double rtol, double atol, bool equal_nan) {
  return close("isclose", x1, x2, rtol, atol, equal_nan);
}

Tensor allclose(const Tensor& x1, const Tensor& x2, double rtol, double atol, bool equal_nan) {
  Tensor c = close("allclose", x1, x2, rtol, atol, equal_nan);
  Tensor all =
      detail::run_reduce(backend::ReduceOp::All, c, detail::axes_mask("allclose", {}, c.ndim()));
  return reshape(all, Shape{});
}

}  // namespace numpy
}  // namespace keras::ops
