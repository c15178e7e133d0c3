// Arithmetic and the elementary functions of complex tensors as real arithmetic on their parts
// (complex_parts.h). Every formula is a composition of differentiable real ops, so gradients
// need no rules of their own. The inverse trigonometric and hyperbolic functions follow Kahan:
// arcsin, arccos and arccosh from sqrt(1 -+ z) (or sqrt(z -+ 1)) part by part, arcsinh z =
// -i arcsin(i z), arctanh z = (log1p(z) - log1p(-z)) / 2 and arctan z = -i arctanh(i z), with
// the principal branches of NumPy and JAX.

#include <limits>
#include <numbers>

#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
namespace complex_detail {

using backend::BinaryOp;
using backend::UnaryOp;

namespace {

// The complex dtype two operands compute in (one of them complex).
DType common_complex(const Tensor& a, const Tensor& b) {
  DType t = detail::promote({&a, &b});
  return is_complex(t) ? t : complex_dtype_for(t);
}

// t on backend `be` as complex `dtype` (a weak literal becomes a complex scalar).
Tensor operand(const Tensor& t, DType dtype, backend::Backend& be) {
  DType as = is_complex(t.dtype()) ? t.dtype() : complex_part_dtype(dtype);
  return to_complex(detail::prepare(t, as, be), dtype);
}

Tensor times(const Tensor& a, const Tensor& b) {
  Tensor ar = real_part(a), ai = imag_part(a), br = real_part(b), bi = imag_part(b);
  return make_complex(subtract(multiply(ar, br), multiply(ai, bi)),
                      add(multiply(ar, bi), multiply(ai, br)));
}

Tensor over(const Tensor& a, const Tensor& b) {
  Tensor ar = real_part(a), ai = imag_part(a), br = real_part(b), bi = imag_part(b);
  Tensor den = add(multiply(br, br), multiply(bi, bi));
  Tensor zero = equal(den, 0.0);
  Tensor safe = where(zero, 1.0, den);
  Tensor re = divide(add(multiply(ar, br), multiply(ai, bi)), safe);
  Tensor im = divide(subtract(multiply(ai, br), multiply(ar, bi)), safe);
  // By 0, as C's Annex G, NumPy and XLA: each part times an infinity of the divisor's sign (so
  // 1 / 0 is inf + nan j). A value without a gradient: the derivative there is infinite, and a
  // differentiable branch would put 0 * inf = NaN into every other element's gradient.
  const double inf = std::numeric_limits<double>::infinity();
  Tensor infinity = where(signbit(br), -inf, inf);
  return make_complex(where(zero, multiply(stop_gradient(ar), infinity), re),
                      where(zero, multiply(stop_gradient(ai), infinity), im));
}

// The principal square root, without the cancellation of sqrt((|z| - x) / 2) for x < 0:
// t = sqrt((|x| + |z|) / 2), then (t, y / 2t) for x >= 0 and (|y| / 2t, t with y's sign).
Tensor principal_sqrt(const Tensor& z) {
  Tensor x = real_part(z), y = imag_part(z);
  Tensor t = sqrt(multiply(add(absolute(x), hypot(x, y)), 0.5));
  Tensor safe_t = where(equal(t, 0.0), 1.0, t);
  Tensor other = divide(y, multiply(safe_t, 2.0));  // y / 2t; 0 when z = 0
  Tensor nonneg = greater_equal(x, 0.0);
  return make_complex(where(nonneg, t, absolute(other)),
                      where(nonneg, other, where(signbit(y), negative(t), t)));
}

// sin, cos, sinh and cosh of x + iy from the real functions of x and y.
Tensor trigonometric(UnaryOp op, const Tensor& z) {
  Tensor x = real_part(z), y = imag_part(z);
  switch (op) {
    case UnaryOp::Sin:  // sin x cosh y + i cos x sinh y
      return make_complex(multiply(sin(x), cosh(y)), multiply(cos(x), sinh(y)));
    case UnaryOp::Cos:  // cos x cosh y - i sin x sinh y
      return make_complex(multiply(cos(x), cosh(y)), negative(multiply(sin(x), sinh(y))));
    case UnaryOp::Sinh:  // sinh x cos y + i cosh x sin y
      return make_complex(multiply(sinh(x), cos(y)), multiply(cosh(x), sin(y)));
    default:  // Cosh: cosh x cos y + i sinh x sin y
      return make_complex(multiply(cosh(x), cos(y)), multiply(sinh(x), sin(y)));
  }
}

// i z and -i z, exactly (a rotation of the parts).
Tensor times_i(const Tensor& z) { return make_complex(negative(imag_part(z)), real_part(z)); }
Tensor times_minus_i(const Tensor& z) {
  return make_complex(imag_part(z), negative(real_part(z)));
}

// c + z and c - z part by part, so the sign of a zero imaginary part survives (a complex
// subtraction 1 - (3 + 0i) would give +0 where the branch cut needs -0).
Tensor plus(double c, const Tensor& z) { return make_complex(add(real_part(z), c), imag_part(z)); }
Tensor minus(double c, const Tensor& z) {
  return make_complex(subtract(c, real_part(z)), negative(imag_part(z)));
}

// Kahan's arcsin, arccos and arccosh ("Branch cuts for complex elementary functions", 1987),
// from two principal square roots: right on both sides of every branch cut.
Tensor inverse_sin(const Tensor& z) {
  Tensor s1 = unary("sqrt", UnaryOp::Sqrt, minus(1, z));
  Tensor s2 = unary("sqrt", UnaryOp::Sqrt, plus(1, z));
  Tensor r1 = real_part(s1), i1 = imag_part(s1), r2 = real_part(s2), i2 = imag_part(s2);
  return make_complex(arctan2(real_part(z), subtract(multiply(r1, r2), multiply(i1, i2))),
                      arcsinh(subtract(multiply(r1, i2), multiply(i1, r2))));
}

Tensor inverse_cos(const Tensor& z) {
  Tensor s1 = unary("sqrt", UnaryOp::Sqrt, minus(1, z));
  Tensor s2 = unary("sqrt", UnaryOp::Sqrt, plus(1, z));
  Tensor r1 = real_part(s1), i1 = imag_part(s1), r2 = real_part(s2), i2 = imag_part(s2);
  return make_complex(multiply(arctan2(r1, r2), 2.0),
                      arcsinh(subtract(multiply(r2, i1), multiply(i2, r1))));
}

Tensor inverse_cosh(const Tensor& z) {
  Tensor s1 = unary("sqrt", UnaryOp::Sqrt, plus(-1, z));
  Tensor s2 = unary("sqrt", UnaryOp::Sqrt, plus(1, z));
  Tensor r1 = real_part(s1), i1 = imag_part(s1), r2 = real_part(s2), i2 = imag_part(s2);
  return make_complex(arcsinh(add(multiply(r1, r2), multiply(i1, i2))),
                      multiply(arctan2(i1, r2), 2.0));
}

Tensor inverse_tanh(const Tensor& z) {
  Tensor d = subtract(unary("log1p", UnaryOp::Log1p, z),
                      unary("log1p", UnaryOp::Log1p, negative(z)));
  return from_pairs(multiply(pairs(d), 0.5));
}

// arcsin ... arctanh, as the file's comment says.
Tensor inverse_function(UnaryOp op, const Tensor& z) {
  switch (op) {
    case UnaryOp::Asin:
      return inverse_sin(z);
    case UnaryOp::Acos:
      return inverse_cos(z);
    case UnaryOp::Acosh:
      return inverse_cosh(z);
    case UnaryOp::Asinh:
      return times_minus_i(inverse_sin(times_i(z)));
    case UnaryOp::Atanh:
      return inverse_tanh(z);
    default:  // Atan
      return times_minus_i(inverse_tanh(times_i(z)));
  }
}

}  // namespace

Tensor unary(std::string_view name, UnaryOp op, const Tensor& x) {
  switch (op) {
    case UnaryOp::Neg:
      return from_pairs(negative(pairs(x)));
    case UnaryOp::Abs:
      return hypot(real_part(x), imag_part(x));
    case UnaryOp::Square:
      return times(x, x);
    case UnaryOp::Reciprocal:
      return over(filled({}, 1, x.dtype(), x.backend()), x);
    case UnaryOp::Exp: {
      Tensor e = exp(real_part(x)), y = imag_part(x);
      return make_complex(multiply(e, cos(y)), multiply(e, sin(y)));
    }
    case UnaryOp::Log:
      return make_complex(log(hypot(real_part(x), imag_part(x))),
                          arctan2(imag_part(x), real_part(x)));
    case UnaryOp::Sqrt:
      return principal_sqrt(x);
    case UnaryOp::Exp2:
      return unary(name, UnaryOp::Exp,
                   times(x, filled({}, std::numbers::ln2, x.dtype(), x.backend())));
    case UnaryOp::Expm1: {
      // e^z - 1 without cancellation near 0: (expm1(x) cos y - 2 sin^2(y / 2), e^x sin y).
      Tensor re = real_part(x), y = imag_part(x);
      Tensor half = sin(multiply(y, 0.5));
      return make_complex(subtract(multiply(expm1(re), cos(y)), multiply(square(half), 2.0)),
                          multiply(exp(re), sin(y)));
    }
    case UnaryOp::Log2:
    case UnaryOp::Log10: {
      const double base = op == UnaryOp::Log2 ? std::numbers::ln2 : std::numbers::ln10;
      return from_pairs(divide(pairs(unary(name, UnaryOp::Log, x)), base));
    }
    case UnaryOp::Log1p: {
      // log(1 + z): the real part is log|1 + z| = log1p(r2) / 2 with r2 = 2x + x^2 + y^2,
      // exact near z = 0, and log(hypot(1 + x, y)) where |1 + z| is far from 1 (r2 itself
      // would cancel near z = -1); the imaginary part atan2(y, 1 + x).
      Tensor re = real_part(x), y = imag_part(x), shifted = add(re, 1.0);
      Tensor r2 = add(multiply(re, add(re, 2.0)), square(y));
      Tensor modulus = where(less(absolute(r2), 0.5), multiply(log1p(r2), 0.5),
                             log(hypot(shifted, y)));
      return make_complex(modulus, arctan2(y, shifted));
    }
    case UnaryOp::Sign: {
      // z / |z|, and 0 at 0 (NumPy 2 and JAX); piecewise constant for JAX, so no gradient, as
      // the real sign has none.
      Tensor r = hypot(real_part(x), imag_part(x));
      Tensor safe = where(equal(r, 0.0), 1.0, r);
      return stop_gradient(from_pairs(divide(pairs(x), expand_dims(safe, -1))));
    }
    case UnaryOp::Sin:
    case UnaryOp::Cos:
    case UnaryOp::Sinh:
    case UnaryOp::Cosh:
      return trigonometric(op, x);
    case UnaryOp::Tan:
      return over(trigonometric(UnaryOp::Sin, x), trigonometric(UnaryOp::Cos, x));
    case UnaryOp::Tanh:
      return over(trigonometric(UnaryOp::Sinh, x), trigonometric(UnaryOp::Cosh, x));
    case UnaryOp::Asin:
    case UnaryOp::Acos:
    case UnaryOp::Atan:
    case UnaryOp::Asinh:
    case UnaryOp::Acosh:
    case UnaryOp::Atanh:
      return inverse_function(op, x);
    case UnaryOp::IsNan:
      return logical_or(isnan(real_part(x)), isnan(imag_part(x)));
    case UnaryOp::IsInf:
      return logical_or(isinf(real_part(x)), isinf(imag_part(x)));
    case UnaryOp::IsFinite:
      return logical_and(isfinite(real_part(x)), isfinite(imag_part(x)));
    case UnaryOp::Rsqrt:
      return over(filled({}, 1.0, x.dtype(), x.backend()), principal_sqrt(x));
    case UnaryOp::LogicalNot:  // a complex number is true when it is not 0
      return logical_not(is_nonzero(x));
    default:
      unsupported(name, x.dtype());
  }
}

Tensor binary(std::string_view name, BinaryOp op, const Tensor& a, const Tensor& b) {
  const DType dtype = common_complex(a, b);
  backend::Backend& be = detail::common_backend(name, {&a, &b});
  detail::broadcast_shapes(name, a.shape(), b.shape());
  Tensor ac = operand(a, dtype, be), bc = operand(b, dtype, be);
  switch (op) {
    case BinaryOp::Add:
      return from_pairs(add(pairs(ac), pairs(bc)));
    case BinaryOp::Sub:
      return from_pairs(subtract(pairs(ac), pairs(bc)));
    case BinaryOp::Mul:
      return times(ac, bc);
    case BinaryOp::Div:
      return over(ac, bc);
    case BinaryOp::Pow:  // exp(b log a), the principal branch
      return unary(name, UnaryOp::Exp, times(bc, unary(name, UnaryOp::Log, ac)));
    case BinaryOp::Maximum:
    case BinaryOp::Minimum: {
      // NumPy's and JAX's lexicographic order; equal operands share the gradient, as lax.max.
      const bool largest = op == BinaryOp::Maximum;
      Tensor a_wins = lexicographic_compare(ac, bc, largest ? BinaryOp::Greater : BinaryOp::Less);
      Tensor b_wins = lexicographic_compare(ac, bc, largest ? BinaryOp::Less : BinaryOp::Greater);
      return where(a_wins, ac, where(b_wins, bc, multiply(add(ac, bc), 0.5)));
    }
    case BinaryOp::LogAddExp:
    case BinaryOp::LogAddExp2: {
      // JAX's formula: m + log1p(exp(a + b - 2m)) with m the lexicographic maximum, and the
      // imaginary part wrapped into [-pi, pi) (for base 2, [-pi / ln 2, pi / ln 2)).
      const bool base2 = op == BinaryOp::LogAddExp2;
      Tensor m = where(lexicographic_compare(ac, bc, BinaryOp::GreaterEqual), ac, bc);
      Tensor delta = subtract(add(ac, bc), multiply(m, 2.0));
      Tensor out = base2 ? add(m, multiply(log1p(exp2(delta)), 1.0 / std::numbers::ln2))
                         : add(m, log1p(exp(delta)));
      const double period = base2 ? std::numbers::pi / std::numbers::ln2 : std::numbers::pi;
      Tensor turned = subtract(mod(add(imag_part(out), period), 2 * period), period);
      return make_complex(real_part(out), turned);
    }
    case BinaryOp::FMax:
    case BinaryOp::FMin: {
      // As jnp.fmax and fmin: a where it wins strictly or b is NaN (either part), else b.
      const bool largest = op == BinaryOp::FMax;
      Tensor wins = lexicographic_compare(ac, bc, largest ? BinaryOp::Greater : BinaryOp::Less);
      Tensor pick_a = logical_or(isnan(bc), logical_and(logical_not(isnan(ac)), wins));
      return where(pick_a, ac, bc);
    }
    default:
      unsupported(name, dtype);
  }
}

Tensor is_nonzero(const Tensor& z) {
  return logical_or(not_equal(real_part(z), 0.0), not_equal(imag_part(z), 0.0));
}

Tensor lexicographic_compare(const Tensor& a, const Tensor& b, BinaryOp op) {
  // By real parts; equal real parts are ordered by the imaginary ones.
  Tensor ar = real_part(a), ai = imag_part(a), br = real_part(b), bi = imag_part(b);
  const bool greater_side = op == BinaryOp::Greater || op == BinaryOp::GreaterEqual;
  Tensor strict = greater_side ? greater(ar, br) : less(ar, br);
  Tensor tie = detail::run_binary(op, ai, bi);
  return logical_or(strict, logical_and(equal(ar, br), tie));
}

Tensor predicate(std::string_view name, BinaryOp op, const Tensor& a, const Tensor& b) {
  const DType dtype = common_complex(a, b);
  backend::Backend& be = detail::common_backend(name, {&a, &b});
  detail::broadcast_shapes(name, a.shape(), b.shape());
  Tensor ac = operand(a, dtype, be), bc = operand(b, dtype, be);
  switch (op) {
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
      break;
    case BinaryOp::Greater:
    case BinaryOp::GreaterEqual:
    case BinaryOp::Less:
    case BinaryOp::LessEqual:
      return lexicographic_compare(ac, bc, op);
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr:
    case BinaryOp::LogicalXor:
      return detail::run_binary(op, is_nonzero(ac), is_nonzero(bc));
    default:
      unsupported(name, dtype);
  }
  Tensor same = all(equal(pairs(ac), pairs(bc)), -1);
  return op == BinaryOp::Equal ? same : logical_not(same);
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  const DType dtype = common_complex(a, b);
  backend::Backend& be = detail::common_backend("matmul", {&a, &b});
  Tensor ac = operand(a, dtype, be), bc = operand(b, dtype, be);
  Tensor ar = real_part(ac), ai = imag_part(ac), br = real_part(bc), bi = imag_part(bc);
  return make_complex(subtract(ops::matmul(ar, br), ops::matmul(ai, bi)),
                      add(ops::matmul(ar, bi), ops::matmul(ai, br)));
}

Tensor reduce(std::string_view name, const Tensor& x, const Axes& axis, bool keepdims) {
  // The pair axis stays: reduce the complex axes of the real view, named non-negative.
  std::vector<int> axes;
  if (axis.is_none()) {
    for (int i = 0; i < x.ndim(); ++i) axes.push_back(i);
  } else {
    for (int a : axis.list()) axes.push_back(detail::normalize_axis(name, a, x.ndim()));
  }
  Tensor p = pairs(x);
  Tensor r = name == "mean" ? mean(p, axes, keepdims) : sum(p, axes, keepdims);
  return from_pairs(r);
}

}  // namespace complex_detail

inline namespace nn {

Tensor polar(const Tensor& abs_, const Tensor& angle) {
  check(abs_.defined() && angle.defined(), "polar: an input is an undefined tensor.");
  if (complex_detail::any_complex({&abs_, &angle}))
    throw TypeError(keras::detail::cat("polar: abs_ and angle must be real; received ",
                                       abs_.dtype(), " and ", angle.dtype(), "."));
  DType part = float_result_type(detail::promote({&abs_, &angle}));
  part = part == DType::Float64 ? DType::Float64 : DType::Float32;
  backend::Backend& be = detail::common_backend("polar", {&abs_, &angle});
  Tensor r = detail::prepare(abs_, part, be), theta = detail::prepare(angle, part, be);
  return complex_detail::make_complex(multiply(r, cos(theta)), multiply(r, sin(theta)));
}

}  // namespace nn
}  // namespace keras::ops
