// floor, ceil, trunc, round, clip, nan_to_num.

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

using backend::UnaryOp;
using detail::Promotion;

namespace {

// The range of an integer dtype, as doubles that convert back without overflow.
std::pair<double, double> int_range(DType t) {
  switch (t) {
    case DType::Int8:
      return {-128.0, 127.0};
    case DType::Int16:
      return {-32768.0, 32767.0};
    case DType::Int32:
      return {-2147483648.0, 2147483647.0};
    case DType::UInt8:
      return {0.0, 255.0};
    default:
      return {-9223372036854775808.0, 9223372036854774784.0};  // largest double < 2^63
  }
}

}  // namespace

Tensor floor(const Tensor& x) {
  return detail::unary_op("floor", UnaryOp::Floor, x, Promotion::ToFloat, detail::zero_grad);
}
Tensor ceil(const Tensor& x) {
  return detail::unary_op("ceil", UnaryOp::Ceil, x, Promotion::ToFloat, detail::zero_grad);
}
Tensor trunc(const Tensor& x) {
  check(x.defined(), "trunc: the input is an undefined tensor.");
  if (!is_floating(detail::promote({&x})))
    return detail::unchanged(x);  // integers are already whole
  return detail::unary_op("trunc", UnaryOp::Trunc, x, Promotion::Keep, detail::zero_grad);
}

Tensor round(const Tensor& x, int decimals) {
  check(x.defined(), "round: the input is an undefined tensor.");
  // Complex numbers round part by part, as NumPy's.
  if (is_complex(x.dtype())) return view_as_complex(round(view_as_real(x), decimals));
  DType dtype = detail::promote({&x});
  if (!is_floating(dtype)) {
    if (decimals >= 0 || dtype == DType::Bool) return detail::unchanged(x);
    // To tens, hundreds, ...: in float64, exact for every integer up to 2^53, then back.
    const double f = std::pow(10.0, -decimals);
    Tensor xd = detail::prepare(x, DType::Float64, x.backend());
    return cast(multiply(round(divide(xd, f)), f), dtype);
  }
  if (decimals == 0)
    return detail::unary_op("round", UnaryOp::Round, x, Promotion::Keep, detail::zero_grad);
  // Half types scale in float32 so that x * 10^decimals cannot overflow (as JAX does).
  DType work = detail::is_half(dtype) ? DType::Float32 : dtype;
  if (decimals > std::log10(max_finite(work)))
    return detail::unchanged(x);  // finer than the dtype resolves
  const double f = std::pow(10.0, std::abs(decimals));
  return detail::composite_unary(
      "round", x, Promotion::Keep,
      [=](const Tensor& xc) {
        Tensor w = cast(xc, work);
        // As NumPy: scale up by multiplying for decimals > 0, down by dividing for < 0, so the
        // scale factor is always an exact power of ten.
        Tensor r =
            decimals > 0 ? divide(round(multiply(w, f)), f) : multiply(round(divide(w, f)), f);
        return cast(r, dtype);
      },
      detail::zero_grad);
}

Tensor clip(const Tensor& x, const Scalar& x_min, const Scalar& x_max) {
  check(x.defined(), "clip: the input is an undefined tensor.");
  DType dtype = detail::compute_dtype(detail::promote({&x}), Promotion::Numeric);
  double lo = x_min.to_double(), hi = x_max.to_double();
  if (is_integer(dtype)) {
    check(!std::isnan(lo) && !std::isnan(hi), "clip: the bounds of an integer tensor (", dtype,
          ") cannot be NaN; got x_min=", x_min, ", x_max=", x_max, ".");
    // Integer x meets the bounds as reals: the nearest integers inside them, within the dtype.
    auto [min, max] = int_range(dtype);
    lo = std::clamp(std::ceil(lo), min, max);
    hi = std::clamp(std::floor(hi), min, max);
  }
  // The gradient passes where x was inside the bounds (y == x), and is 0 where it was clipped.
  return detail::unary_op(
      "clip", UnaryOp::Clip, x, Promotion::Numeric,
      [](const Tensor& x, const Tensor& y, const Tensor& g) {
        return where(equal(x, y), g, zeros_like(g));
      },
      lo, hi);
}

Tensor nan_to_num(const Tensor& x, double nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  check(x.defined(), "nan_to_num: the input is an undefined tensor.");
  if (is_complex(x.dtype()))  // part by part, as NumPy's
    return view_as_complex(nan_to_num(view_as_real(x), nan, posinf, neginf));
  DType dtype = detail::promote({&x});
  if (!is_floating(dtype)) return detail::unchanged(x);  // integers hold no NaN or inf
  const double max = max_finite(dtype);
  return detail::composite_unary(
      "nan_to_num", x, Promotion::Keep,
      [=](const Tensor& xc) {
        // One clip sends the infinities to the extreme finite values when those are wanted.
        Tensor y = (posinf && neginf) ? xc : detail::run_unary(UnaryOp::Clip, xc, -max, max);
        if (posinf) y = where(isposinf(xc), *posinf, y);
        if (neginf) y = where(isneginf(xc), *neginf, y);
        return where(isnan(xc), nan, y);
      },
      [](const Tensor& x, const Tensor&, const Tensor& g) {
        return where(isfinite(x), g, zeros_like(g));
      });
}

}  // namespace numpy
}  // namespace keras::ops
