// angle, real, imag, conj, conjugate. keras-cpp has no complex dtypes, so these are the
// values NumPy gives for real inputs.

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

Tensor angle(const Tensor& x) {
  // arctan2(0, x): 0 for x >= +0, pi for x < 0 and for -0, NaN for NaN.
  return detail::composite_unary(
      "angle", x, detail::Promotion::ToFloat,
      [](const Tensor& xc) {
        Tensor zero = detail::scalar_tensor(0, xc.dtype(), xc.backend());
        return detail::run_binary(backend::BinaryOp::Atan2, zero, xc);
      },
      detail::zero_grad);
}

Tensor real(const Tensor& x) {
  check(x.defined(), "real: the input is an undefined tensor.");
  return detail::unchanged(x);
}
Tensor imag(const Tensor& x) {
  check(x.defined(), "imag: the input is an undefined tensor.");
  return zeros_like(x);
}
Tensor conj(const Tensor& x) {
  check(x.defined(), "conj: the input is an undefined tensor.");
  return detail::unchanged(x);
}
Tensor conjugate(const Tensor& x) {
  return conj(x);
}

}  // namespace numpy
}  // namespace keras::ops
