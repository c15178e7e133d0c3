// angle, real, imag, conj, conjugate. Complex inputs go through their real views
// (ops/complex); for real inputs these are the values NumPy gives.

#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

Tensor angle(const Tensor& x) {
  check(x.defined(), "angle: the input is an undefined tensor.");
  if (is_complex(x.dtype()))
    return arctan2(complex_detail::imag_part(x), complex_detail::real_part(x));
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
  if (is_complex(x.dtype())) return complex_detail::real_part(x);
  return detail::unchanged(x);
}
Tensor imag(const Tensor& x) {
  check(x.defined(), "imag: the input is an undefined tensor.");
  if (is_complex(x.dtype())) return complex_detail::imag_part(x);
  return zeros_like(x);
}
Tensor conj(const Tensor& x) {
  check(x.defined(), "conj: the input is an undefined tensor.");
  if (is_complex(x.dtype()))
    return complex_detail::make_complex(complex_detail::real_part(x),
                                        negative(complex_detail::imag_part(x)));
  return detail::unchanged(x);
}
Tensor conjugate(const Tensor& x) {
  return conj(x);
}

}  // namespace numpy
}  // namespace keras::ops
