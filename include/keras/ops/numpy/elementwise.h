#pragma once
// keras.ops (numpy) elementwise functions, with NumPy broadcasting and Keras dtype promotion.
// Float-valued functions of integer or bool inputs compute in floatx(), as in Keras; where
// Keras follows JAX's `to_inexact` rule instead (cbrt, hypot, i0, ...), int64 gives float64.
// keras-cpp has no complex dtypes: real/conj are the identity, imag is zero and angle is 0 or
// pi, as NumPy gives for real inputs.

#include <optional>

#include "keras/core/scalar.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

// ---- arithmetic ----------------------------------------------------------------------------
/// x1 + x2 (bool: logical or).
Tensor add(const Tensor& x1, const Tensor& x2);
/// x1 - x2; bool inputs are a TypeError, as in NumPy.
Tensor subtract(const Tensor& x1, const Tensor& x2);
/// x1 * x2 (bool: logical and).
Tensor multiply(const Tensor& x1, const Tensor& x2);
/// True division: integer inputs give floatx().
Tensor divide(const Tensor& x1, const Tensor& x2);
/// The same as divide.
Tensor true_divide(const Tensor& x1, const Tensor& x2);
/// x1 / x2, and 0 where x2 is 0 (its gradient is 0 there too).
Tensor divide_no_nan(const Tensor& x1, const Tensor& x2);
/// x1 // x2, rounded toward minus infinity (Python semantics; bool becomes int32).
Tensor floor_divide(const Tensor& x1, const Tensor& x2);
/// The remainder of floor division: its sign is the divisor's (bool becomes int32).
Tensor mod(const Tensor& x1, const Tensor& x2);
/// The C remainder: its sign is the dividend's (bool becomes int32).
Tensor fmod(const Tensor& x1, const Tensor& x2);
/// -x; bool input is a TypeError.
Tensor negative(const Tensor& x);
/// |x|, in x's dtype.
Tensor absolute(const Tensor& x);
/// The same as absolute.
Tensor abs(const Tensor& x);
/// |x| as a float (integers give floatx()).
Tensor fabs(const Tensor& x);
/// x * x (bool becomes int32).
Tensor square(const Tensor& x);
/// Square root.
Tensor sqrt(const Tensor& x);
/// Cube root.
Tensor cbrt(const Tensor& x);
/// 1 / x (integers give floats).
Tensor reciprocal(const Tensor& x);
/// -1, 0 or 1 by the sign of x (NaN stays NaN); bool input is a TypeError.
Tensor sign(const Tensor& x);
/// x1 ** x2 (bool becomes int32).
Tensor power(const Tensor& x1, const Tensor& x2);
/// Elementwise maximum; NaN propagates.
Tensor maximum(const Tensor& x1, const Tensor& x2);
/// Elementwise minimum; NaN propagates.
Tensor minimum(const Tensor& x1, const Tensor& x2);
/// Elementwise maximum ignoring NaN (NaN only where both are NaN).
Tensor fmax(const Tensor& x1, const Tensor& x2);
/// Elementwise minimum ignoring NaN (NaN only where both are NaN).
Tensor fmin(const Tensor& x1, const Tensor& x2);
/// Greatest common divisor of the absolute values (integer inputs).
Tensor gcd(const Tensor& x1, const Tensor& x2);
/// Least common multiple of the absolute values (integer inputs).
Tensor lcm(const Tensor& x1, const Tensor& x2);

// ---- exponentials and logarithms -----------------------------------------------------------
/// e ** x.
Tensor exp(const Tensor& x);
/// 2 ** x.
Tensor exp2(const Tensor& x);
/// exp(x) - 1, accurate near 0.
Tensor expm1(const Tensor& x);
/// Natural logarithm (-inf at 0, NaN below 0).
Tensor log(const Tensor& x);
/// log(1 + x), accurate near 0.
Tensor log1p(const Tensor& x);
/// Base-2 logarithm.
Tensor log2(const Tensor& x);
/// Base-10 logarithm.
Tensor log10(const Tensor& x);
/// log(exp(x1) + exp(x2)) without overflow.
Tensor logaddexp(const Tensor& x1, const Tensor& x2);
/// log2(2 ** x1 + 2 ** x2) without overflow.
Tensor logaddexp2(const Tensor& x1, const Tensor& x2);
/// x1 * 2 ** x2, exactly; x2 must be an integer tensor (TypeError otherwise).
Tensor ldexp(const Tensor& x1, const Tensor& x2);

// ---- trigonometric and hyperbolic ----------------------------------------------------------
/// Sine of x in radians.
Tensor sin(const Tensor& x);
/// Cosine of x in radians.
Tensor cos(const Tensor& x);
/// Tangent of x in radians.
Tensor tan(const Tensor& x);
/// Inverse sine, in [-pi/2, pi/2] (NaN outside [-1, 1]).
Tensor arcsin(const Tensor& x);
/// Inverse cosine, in [0, pi] (NaN outside [-1, 1]).
Tensor arccos(const Tensor& x);
/// Inverse tangent, in (-pi/2, pi/2).
Tensor arctan(const Tensor& x);
/// The angle of the point (x2, x1): arctan(x1 / x2) in the right quadrant.
Tensor arctan2(const Tensor& x1, const Tensor& x2);
/// sqrt(x1 ** 2 + x2 ** 2) without overflow.
Tensor hypot(const Tensor& x1, const Tensor& x2);
/// Hyperbolic sine.
Tensor sinh(const Tensor& x);
/// Hyperbolic cosine.
Tensor cosh(const Tensor& x);
/// Hyperbolic tangent.
Tensor tanh(const Tensor& x);
/// Inverse hyperbolic sine.
Tensor arcsinh(const Tensor& x);
/// Inverse hyperbolic cosine (NaN below 1).
Tensor arccosh(const Tensor& x);
/// Inverse hyperbolic tangent (+-inf at +-1, NaN outside [-1, 1]).
Tensor arctanh(const Tensor& x);
/// Degrees to radians.
Tensor deg2rad(const Tensor& x);
/// Radians to degrees.
Tensor rad2deg(const Tensor& x);
/// sin(pi x) / (pi x), and 1 at 0.
Tensor sinc(const Tensor& x);

// ---- rounding and clipping -----------------------------------------------------------------
/// Largest integer <= x, as a float (integers give floatx()).
Tensor floor(const Tensor& x);
/// Smallest integer >= x, as a float (integers give floatx()).
Tensor ceil(const Tensor& x);
/// x rounded toward zero, in x's dtype.
Tensor trunc(const Tensor& x);
/// x rounded half to even to `decimals` decimal places (negative: to tens, hundreds, ...), in
/// x's dtype.
Tensor round(const Tensor& x, int decimals = 0);
/// x limited to [x_min, x_max] (bool becomes int32).
Tensor clip(const Tensor& x, const Scalar& x_min, const Scalar& x_max);
/// NaN replaced by `nan`, +inf by `posinf` (default: the largest finite value) and -inf by
/// `neginf` (default: the lowest finite value).
Tensor nan_to_num(const Tensor& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                  std::optional<double> neginf = std::nullopt);

// ---- special functions ---------------------------------------------------------------------
/// Modified Bessel function of the first kind, order 0.
Tensor i0(const Tensor& x);
/// 0 where x1 < 0, 1 where x1 > 0, x2 where x1 == 0.
Tensor heaviside(const Tensor& x1, const Tensor& x2);
/// The next representable value after x1 toward x2.
Tensor nextafter(const Tensor& x1, const Tensor& x2);

// ---- complex parts ---------------------------------------------------------------------------
/// The argument atan2(imag, real) of each element, in the part dtype for complex x. Real x:
/// 0 for x >= +0, pi for x < 0 or x = -0 (integers give floatx()).
Tensor angle(const Tensor& x);
/// The real part (float32 for complex64, float64 for complex128); a real x itself.
Tensor real(const Tensor& x);
/// The imaginary part (the part dtype for complex x); zeros of x's dtype for a real x.
Tensor imag(const Tensor& x);
/// The complex conjugate (real - i imag); a real x itself.
Tensor conj(const Tensor& x);
/// The same as conj.
Tensor conjugate(const Tensor& x);

// ---- bitwise (integer or bool inputs; TypeError otherwise) ---------------------------------
/// x & y (bool: logical and).
Tensor bitwise_and(const Tensor& x, const Tensor& y);
/// x | y (bool: logical or).
Tensor bitwise_or(const Tensor& x, const Tensor& y);
/// x ^ y (bool: logical xor).
Tensor bitwise_xor(const Tensor& x, const Tensor& y);
/// ~x (bool: logical not).
Tensor bitwise_invert(const Tensor& x);
/// The same as bitwise_invert.
Tensor bitwise_not(const Tensor& x);
/// x << y; shifts of the bit width or more give 0 (bool becomes int32).
Tensor bitwise_left_shift(const Tensor& x, const Tensor& y);
/// x >> y, arithmetic for signed x (bool becomes int32).
Tensor bitwise_right_shift(const Tensor& x, const Tensor& y);
/// The same as bitwise_left_shift.
Tensor left_shift(const Tensor& x, const Tensor& y);
/// The same as bitwise_right_shift.
Tensor right_shift(const Tensor& x, const Tensor& y);

// ---- comparisons, predicates and logic (bool results, no gradient) -------------------------
/// x1 == x2.
Tensor equal(const Tensor& x1, const Tensor& x2);
/// x1 != x2.
Tensor not_equal(const Tensor& x1, const Tensor& x2);
/// x1 < x2.
Tensor less(const Tensor& x1, const Tensor& x2);
/// x1 <= x2.
Tensor less_equal(const Tensor& x1, const Tensor& x2);
/// x1 > x2.
Tensor greater(const Tensor& x1, const Tensor& x2);
/// x1 >= x2.
Tensor greater_equal(const Tensor& x1, const Tensor& x2);
/// |x1 - x2| <= atol + rtol |x2|, or x1 == x2 (infinities); NaNs equal when `equal_nan`.
Tensor isclose(const Tensor& x1, const Tensor& x2, double rtol = 1e-5, double atol = 1e-8,
               bool equal_nan = false);
/// A 0-d bool: isclose holds everywhere.
Tensor allclose(const Tensor& x1, const Tensor& x2, double rtol = 1e-5, double atol = 1e-8,
                bool equal_nan = false);
/// True where x is neither infinite nor NaN (always true for integers).
Tensor isfinite(const Tensor& x);
/// True where x is +inf or -inf.
Tensor isinf(const Tensor& x);
/// True where x is NaN.
Tensor isnan(const Tensor& x);
/// True where x is +inf.
Tensor isposinf(const Tensor& x);
/// True where x is -inf.
Tensor isneginf(const Tensor& x);
/// True everywhere (keras-cpp tensors are real).
Tensor isreal(const Tensor& x);
/// True where the sign bit is set (including -0.0).
Tensor signbit(const Tensor& x);
/// True where x is zero (or false).
Tensor logical_not(const Tensor& x);
/// True where both are nonzero.
Tensor logical_and(const Tensor& x1, const Tensor& x2);
/// True where either is nonzero.
Tensor logical_or(const Tensor& x1, const Tensor& x2);
/// True where exactly one is nonzero.
Tensor logical_xor(const Tensor& x1, const Tensor& x2);

/// x1 where condition is true, else x2 (broadcast together).
Tensor where(const Tensor& condition, const Tensor& x1, const Tensor& x2);

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
