#pragma once
// The value of every unary and binary primitive on one element, by op and compute type: the one
// definition the backends compute with (cpu instantiates each op inside its vectorized loops,
// the cuda backend inside its kernels), so they agree to the last bit wherever their math
// libraries do. C is the compute type: float (float16, bfloat16, float32), double, or the
// integer or bool type itself. `defined_*` says which ops a kind of dtype has; the others are
// a NotImplementedError of the backend.

#include <cmath>
#include <type_traits>
#include <utility>

#include "backend/float_math.h"
#include "backend/scalar_math.h"
#include "keras/backend/primitives.h"
#include "keras/core/host_device.h"

namespace keras::backend::math {

/// True when unary `op` is defined on integers (bool included) as well as floats.
constexpr bool defined_for_integers(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: case UnaryOp::Abs: case UnaryOp::Sign: case UnaryOp::Square:
    case UnaryOp::Relu: case UnaryOp::Clip: case UnaryOp::Floor: case UnaryOp::Ceil:
    case UnaryOp::Round: case UnaryOp::Trunc: case UnaryOp::BitwiseNot: case UnaryOp::LogicalNot:
    case UnaryOp::IsNan: case UnaryOp::IsInf: case UnaryOp::IsPosInf: case UnaryOp::IsNegInf:
    case UnaryOp::IsFinite: case UnaryOp::SignBit:
      return true;
    default:
      return false;
  }
}

/// Unary `Op` on a float x (float or double) with the op's parameters a, b (Elu's alpha,
/// LeakyRelu's slope, Clip's bounds, PowScalar's exponent); predicates return bool.
template <UnaryOp Op, typename C>
KERAS_HOST_DEVICE inline auto unary_float(C x, C a, C b) {
  using U = UnaryOp;
  if constexpr (Op == U::Neg) return -x;
  else if constexpr (Op == U::Abs) return std::abs(x);
  else if constexpr (Op == U::Sign) return sign(x);
  else if constexpr (Op == U::Square) return x * x;
  else if constexpr (Op == U::Reciprocal) return C(1) / x;
  else if constexpr (Op == U::Sqrt) return std::sqrt(x);
  else if constexpr (Op == U::Rsqrt) return C(1) / std::sqrt(x);
  else if constexpr (Op == U::Cbrt) return std::cbrt(x);
  else if constexpr (Op == U::Exp) return std::exp(x);
  else if constexpr (Op == U::Exp2) return std::exp2(x);
  else if constexpr (Op == U::Expm1) return std::expm1(x);
  else if constexpr (Op == U::Log) return std::log(x);
  else if constexpr (Op == U::Log2) return std::log2(x);
  else if constexpr (Op == U::Log10) return std::log10(x);
  else if constexpr (Op == U::Log1p) return std::log1p(x);
  else if constexpr (Op == U::Sin) return std::sin(x);
  else if constexpr (Op == U::Cos) return std::cos(x);
  else if constexpr (Op == U::Tan) return std::tan(x);
  else if constexpr (Op == U::Asin) return std::asin(x);
  else if constexpr (Op == U::Acos) return std::acos(x);
  else if constexpr (Op == U::Atan) return std::atan(x);
  else if constexpr (Op == U::Sinh) return std::sinh(x);
  else if constexpr (Op == U::Cosh) return std::cosh(x);
  else if constexpr (Op == U::Tanh && std::is_same_v<C, float>)
    return fmath::tanh(x);
  else if constexpr (Op == U::Tanh) return std::tanh(x);
  else if constexpr (Op == U::Asinh) return std::asinh(x);
  else if constexpr (Op == U::Acosh) return std::acosh(x);
  else if constexpr (Op == U::Atanh) return std::atanh(x);
  else if constexpr (Op == U::Floor) return std::floor(x);
  else if constexpr (Op == U::Ceil) return std::ceil(x);
  else if constexpr (Op == U::Round) return round_half_even(x);
  else if constexpr (Op == U::Trunc) return std::trunc(x);
  else if constexpr (Op == U::Erf) return std::erf(x);
  else if constexpr (Op == U::Erfc) return std::erfc(x);
  else if constexpr (Op == U::Erfinv) return static_cast<C>(erfinv(x));
  else if constexpr (Op == U::Lgamma) return static_cast<C>(lgamma(x));
  else if constexpr (Op == U::Digamma) return static_cast<C>(digamma(x));
  else if constexpr (Op == U::I0) return static_cast<C>(i0(x));
  else if constexpr (Op == U::Relu) return x <= 0 ? C(0) : x;  // NaN propagates, as max(x, 0)
  // float32's sigmoid, tanh, silu and gelu_tanh: the branchless forms (float_math.h).
  else if constexpr (Op == U::Sigmoid && std::is_same_v<C, float>)
    return fmath::sigmoid(x);
  else if constexpr (Op == U::Sigmoid) return sigmoid(x);
  else if constexpr (Op == U::Softplus) return softplus(x);
  else if constexpr (Op == U::Silu && std::is_same_v<C, float>)
    return fmath::silu(x);
  else if constexpr (Op == U::Silu) return x * sigmoid(x);
  else if constexpr (Op == U::Gelu) return gelu(x);
  else if constexpr (Op == U::GeluTanh && std::is_same_v<C, float>)
    return fmath::gelu_tanh(x);
  else if constexpr (Op == U::GeluTanh) return gelu_tanh(x);
  else if constexpr (Op == U::LogSigmoid) return log_sigmoid(x);
  else if constexpr (Op == U::Elu) return x > 0 ? x : a * std::expm1(x);
  else if constexpr (Op == U::LeakyRelu) return x > 0 ? x : a * x;
  else if constexpr (Op == U::Clip) return nan_min(nan_max(x, a), b);
  else if constexpr (Op == U::PowScalar) return std::pow(x, a);
  else if constexpr (Op == U::LogicalNot) return x == C(0);
  else if constexpr (Op == U::IsNan) return static_cast<bool>(std::isnan(x));
  else if constexpr (Op == U::IsInf) return static_cast<bool>(std::isinf(x));
  else if constexpr (Op == U::IsFinite) return static_cast<bool>(std::isfinite(x));
  else if constexpr (Op == U::IsPosInf) return std::isinf(x) && x > 0;
  else if constexpr (Op == U::IsNegInf) return std::isinf(x) && x < 0;
  // copysign rather than std::signbit: GCC 12 crashes vectorizing signbit (an ICE).
  else if constexpr (Op == U::SignBit) return std::copysign(C(1), x) < C(0);
  else return x;  // BitwiseNot: not defined on floats (defined_for_floats)
}

/// True when unary `op` is defined on floats.
constexpr bool defined_for_floats(UnaryOp op) { return op != UnaryOp::BitwiseNot; }

/// Unary `Op` on an integer x of type T (not bool); Clip's bounds lo, hi. Arithmetic wraps, as
/// NumPy's.
template <UnaryOp Op, typename T>
KERAS_HOST_DEVICE inline auto unary_integer(T x, T lo, T hi) {
  using U = UnaryOp;
  using Bits = std::make_unsigned_t<T>;
  if constexpr (Op == U::Neg) return static_cast<T>(-static_cast<Bits>(x));
  else if constexpr (Op == U::Abs) return x < 0 ? static_cast<T>(-static_cast<Bits>(x)) : x;
  else if constexpr (Op == U::Sign) return sign(x);
  else if constexpr (Op == U::Square) return static_cast<T>(static_cast<Bits>(x) * x);
  else if constexpr (Op == U::Relu) return x > 0 ? x : T(0);
  else if constexpr (Op == U::Clip) {  // min(max(x, lo), hi)
    const T m = x < lo ? lo : x;
    return hi < m ? hi : m;
  }
  else if constexpr (Op == U::BitwiseNot) return static_cast<T>(~x);
  else if constexpr (Op == U::LogicalNot) return x == 0;
  else if constexpr (Op == U::IsNan || Op == U::IsInf || Op == U::IsPosInf || Op == U::IsNegInf)
    return false;
  else if constexpr (Op == U::IsFinite) return true;
  else if constexpr (Op == U::SignBit) return x < 0;
  else return x;  // Floor, Ceil, Round, Trunc: integers already
}

/// Unary `Op` on a bool.
template <UnaryOp Op>
KERAS_HOST_DEVICE inline bool unary_bool(bool x) {
  using U = UnaryOp;
  if constexpr (Op == U::BitwiseNot || Op == U::LogicalNot) return !x;
  else if constexpr (Op == U::IsNan || Op == U::IsInf || Op == U::IsPosInf || Op == U::IsNegInf ||
                     Op == U::SignBit)
    return false;
  else if constexpr (Op == U::IsFinite) return true;
  else return x;  // Abs, Square, Sign, Relu and the roundings leave a bool as it is
}

/// True when unary `op` is defined on bool.
constexpr bool defined_for_bool(UnaryOp op) {
  switch (op) {
    case UnaryOp::Abs: case UnaryOp::Square: case UnaryOp::Sign: case UnaryOp::Relu:
    case UnaryOp::Floor: case UnaryOp::Ceil: case UnaryOp::Round: case UnaryOp::Trunc:
    case UnaryOp::BitwiseNot: case UnaryOp::LogicalNot: case UnaryOp::IsNan: case UnaryOp::IsInf:
    case UnaryOp::IsPosInf: case UnaryOp::IsNegInf: case UnaryOp::SignBit: case UnaryOp::IsFinite:
      return true;
    default:
      return false;
  }
}

/// Binary ops every dtype has (maximum, minimum, comparisons, logic), on compute values.
template <BinaryOp Op, typename C>
KERAS_HOST_DEVICE inline auto binary_common(C x, C y) {
  using B = BinaryOp;
  if constexpr (Op == B::Maximum) return nan_max(x, y);
  else if constexpr (Op == B::Minimum) return nan_min(x, y);
  else if constexpr (Op == B::Equal) return x == y;
  else if constexpr (Op == B::NotEqual) return x != y;
  else if constexpr (Op == B::Less) return x < y;
  else if constexpr (Op == B::LessEqual) return x <= y;
  else if constexpr (Op == B::Greater) return x > y;
  else if constexpr (Op == B::GreaterEqual) return x >= y;
  else if constexpr (Op == B::LogicalAnd) return x != C(0) && y != C(0);
  else if constexpr (Op == B::LogicalOr) return x != C(0) || y != C(0);
  else return (x != C(0)) != (y != C(0));  // LogicalXor
}

constexpr bool is_common(BinaryOp op) {
  return op == BinaryOp::Maximum || op == BinaryOp::Minimum || op >= BinaryOp::Equal;
}

/// True when binary `op` is defined on floats.
constexpr bool defined_for_floats(BinaryOp op) {
  switch (op) {
    case BinaryOp::Gcd: case BinaryOp::Lcm: case BinaryOp::BitwiseAnd: case BinaryOp::BitwiseOr:
    case BinaryOp::BitwiseXor: case BinaryOp::LeftShift: case BinaryOp::RightShift:
      return false;
    default:
      return true;
  }
}

/// Binary `Op` on floats (float or double), NextAfter in that precision (float16 and bfloat16
/// step by their own ulps in the cpu backend's own code).
template <BinaryOp Op, typename C>
KERAS_HOST_DEVICE inline auto binary_float(C x, C y) {
  using B = BinaryOp;
  if constexpr (is_common(Op)) return binary_common<Op>(x, y);
  else if constexpr (Op == B::Add) return x + y;
  else if constexpr (Op == B::Sub) return x - y;
  else if constexpr (Op == B::Mul) return x * y;
  else if constexpr (Op == B::Div) return x / y;
  else if constexpr (Op == B::FloorDiv) return floor_divide(x, y);
  else if constexpr (Op == B::Mod) return python_mod(x, y);
  else if constexpr (Op == B::FMod) return std::fmod(x, y);
  else if constexpr (Op == B::Pow) return std::pow(x, y);
  else if constexpr (Op == B::FMax) return std::fmax(x, y);
  else if constexpr (Op == B::FMin) return std::fmin(x, y);
  else if constexpr (Op == B::Atan2) return std::atan2(x, y);
  else if constexpr (Op == B::Hypot) return std::hypot(x, y);
  else if constexpr (Op == B::CopySign) return std::copysign(x, y);
  else if constexpr (Op == B::NextAfter) return std::nextafter(x, y);
  else if constexpr (Op == B::LogAddExp) return logaddexp(x, y);
  else if constexpr (Op == B::LogAddExp2) return logaddexp2(x, y);
  else if constexpr (Op == B::Heaviside) return heaviside(x, y);
  else return x;  // the integer-only ops (defined_for_floats)
}

/// Binary `Op` on integers of type T (not bool): wrapping arithmetic, as NumPy.
template <BinaryOp Op, typename T>
KERAS_HOST_DEVICE inline auto binary_integer(T x, T y) {
  using B = BinaryOp;
  using Bits = std::make_unsigned_t<T>;
  if constexpr (is_common(Op)) return binary_common<Op>(x, y);
  else if constexpr (Op == B::Add) return static_cast<T>(static_cast<Bits>(x) + static_cast<Bits>(y));
  else if constexpr (Op == B::Sub) return static_cast<T>(static_cast<Bits>(x) - static_cast<Bits>(y));
  else if constexpr (Op == B::Mul) return static_cast<T>(static_cast<Bits>(x) * static_cast<Bits>(y));
  else if constexpr (Op == B::Div) return trunc_divide(x, y);
  else if constexpr (Op == B::FloorDiv) return floor_divide(x, y);
  else if constexpr (Op == B::Mod) return python_mod(x, y);
  else if constexpr (Op == B::FMod) return c_fmod(x, y);
  else if constexpr (Op == B::Pow) return int_power(x, y);
  else if constexpr (Op == B::FMax) return x > y ? x : y;
  else if constexpr (Op == B::FMin) return x < y ? x : y;
  else if constexpr (Op == B::Gcd) return gcd(x, y);
  else if constexpr (Op == B::Lcm) return lcm(x, y);
  else if constexpr (Op == B::BitwiseAnd) return static_cast<T>(x & y);
  else if constexpr (Op == B::BitwiseOr) return static_cast<T>(x | y);
  else if constexpr (Op == B::BitwiseXor) return static_cast<T>(x ^ y);
  else if constexpr (Op == B::LeftShift) return left_shift(x, y);
  else if constexpr (Op == B::RightShift) return right_shift(x, y);
  else if constexpr (Op == B::Heaviside) return x < 0 ? T(0) : (x > 0 ? T(1) : y);
  else return x;  // the float-only ops (defined_for_integers)
}

/// True when binary `op` is defined on integers.
constexpr bool defined_for_integers(BinaryOp op) {
  switch (op) {
    case BinaryOp::Atan2: case BinaryOp::Hypot: case BinaryOp::CopySign: case BinaryOp::NextAfter:
    case BinaryOp::LogAddExp: case BinaryOp::LogAddExp2:
      return false;
    default:
      return true;
  }
}

/// Binary `Op` on bools: or for Add/BitwiseOr/FMax, and for Mul/BitwiseAnd/FMin, xor.
template <BinaryOp Op>
KERAS_HOST_DEVICE inline bool binary_bool(bool x, bool y) {
  using B = BinaryOp;
  if constexpr (is_common(Op)) return binary_common<Op>(x, y);
  else if constexpr (Op == B::Add || Op == B::BitwiseOr || Op == B::FMax) return x || y;
  else if constexpr (Op == B::Mul || Op == B::BitwiseAnd || Op == B::FMin) return x && y;
  else return x != y;  // BitwiseXor
}

/// True when binary `op` is defined on bool.
constexpr bool defined_for_bool(BinaryOp op) {
  return is_common(op) || op == BinaryOp::Add || op == BinaryOp::BitwiseOr ||
         op == BinaryOp::FMax || op == BinaryOp::Mul || op == BinaryOp::BitwiseAnd ||
         op == BinaryOp::FMin || op == BinaryOp::BitwiseXor;
}

/// Calls f(std::integral_constant<UnaryOp, op>{}): a runtime op to the templates above.
template <typename F>
KERAS_HOST_DEVICE inline void visit(UnaryOp op, F&& f) {
  switch (op) {
    case UnaryOp::Neg: return f(std::integral_constant<UnaryOp, UnaryOp::Neg>{});
    case UnaryOp::Abs: return f(std::integral_constant<UnaryOp, UnaryOp::Abs>{});
    case UnaryOp::Sign: return f(std::integral_constant<UnaryOp, UnaryOp::Sign>{});
    case UnaryOp::Square: return f(std::integral_constant<UnaryOp, UnaryOp::Square>{});
    case UnaryOp::Reciprocal: return f(std::integral_constant<UnaryOp, UnaryOp::Reciprocal>{});
    case UnaryOp::Sqrt: return f(std::integral_constant<UnaryOp, UnaryOp::Sqrt>{});
    case UnaryOp::Rsqrt: return f(std::integral_constant<UnaryOp, UnaryOp::Rsqrt>{});
    case UnaryOp::Cbrt: return f(std::integral_constant<UnaryOp, UnaryOp::Cbrt>{});
    case UnaryOp::Exp: return f(std::integral_constant<UnaryOp, UnaryOp::Exp>{});
    case UnaryOp::Exp2: return f(std::integral_constant<UnaryOp, UnaryOp::Exp2>{});
    case UnaryOp::Expm1: return f(std::integral_constant<UnaryOp, UnaryOp::Expm1>{});
    case UnaryOp::Log: return f(std::integral_constant<UnaryOp, UnaryOp::Log>{});
    case UnaryOp::Log2: return f(std::integral_constant<UnaryOp, UnaryOp::Log2>{});
    case UnaryOp::Log10: return f(std::integral_constant<UnaryOp, UnaryOp::Log10>{});
    case UnaryOp::Log1p: return f(std::integral_constant<UnaryOp, UnaryOp::Log1p>{});
    case UnaryOp::Sin: return f(std::integral_constant<UnaryOp, UnaryOp::Sin>{});
    case UnaryOp::Cos: return f(std::integral_constant<UnaryOp, UnaryOp::Cos>{});
    case UnaryOp::Tan: return f(std::integral_constant<UnaryOp, UnaryOp::Tan>{});
    case UnaryOp::Asin: return f(std::integral_constant<UnaryOp, UnaryOp::Asin>{});
    case UnaryOp::Acos: return f(std::integral_constant<UnaryOp, UnaryOp::Acos>{});
    case UnaryOp::Atan: return f(std::integral_constant<UnaryOp, UnaryOp::Atan>{});
    case UnaryOp::Sinh: return f(std::integral_constant<UnaryOp, UnaryOp::Sinh>{});
    case UnaryOp::Cosh: return f(std::integral_constant<UnaryOp, UnaryOp::Cosh>{});
    case UnaryOp::Tanh: return f(std::integral_constant<UnaryOp, UnaryOp::Tanh>{});
    case UnaryOp::Asinh: return f(std::integral_constant<UnaryOp, UnaryOp::Asinh>{});
    case UnaryOp::Acosh: return f(std::integral_constant<UnaryOp, UnaryOp::Acosh>{});
    case UnaryOp::Atanh: return f(std::integral_constant<UnaryOp, UnaryOp::Atanh>{});
    case UnaryOp::Floor: return f(std::integral_constant<UnaryOp, UnaryOp::Floor>{});
    case UnaryOp::Ceil: return f(std::integral_constant<UnaryOp, UnaryOp::Ceil>{});
    case UnaryOp::Round: return f(std::integral_constant<UnaryOp, UnaryOp::Round>{});
    case UnaryOp::Trunc: return f(std::integral_constant<UnaryOp, UnaryOp::Trunc>{});
    case UnaryOp::Erf: return f(std::integral_constant<UnaryOp, UnaryOp::Erf>{});
    case UnaryOp::Erfc: return f(std::integral_constant<UnaryOp, UnaryOp::Erfc>{});
    case UnaryOp::Erfinv: return f(std::integral_constant<UnaryOp, UnaryOp::Erfinv>{});
    case UnaryOp::Lgamma: return f(std::integral_constant<UnaryOp, UnaryOp::Lgamma>{});
    case UnaryOp::Digamma: return f(std::integral_constant<UnaryOp, UnaryOp::Digamma>{});
    case UnaryOp::I0: return f(std::integral_constant<UnaryOp, UnaryOp::I0>{});
    case UnaryOp::Relu: return f(std::integral_constant<UnaryOp, UnaryOp::Relu>{});
    case UnaryOp::Sigmoid: return f(std::integral_constant<UnaryOp, UnaryOp::Sigmoid>{});
    case UnaryOp::Softplus: return f(std::integral_constant<UnaryOp, UnaryOp::Softplus>{});
    case UnaryOp::Silu: return f(std::integral_constant<UnaryOp, UnaryOp::Silu>{});
    case UnaryOp::Gelu: return f(std::integral_constant<UnaryOp, UnaryOp::Gelu>{});
    case UnaryOp::GeluTanh: return f(std::integral_constant<UnaryOp, UnaryOp::GeluTanh>{});
    case UnaryOp::LogSigmoid: return f(std::integral_constant<UnaryOp, UnaryOp::LogSigmoid>{});
    case UnaryOp::Elu: return f(std::integral_constant<UnaryOp, UnaryOp::Elu>{});
    case UnaryOp::LeakyRelu: return f(std::integral_constant<UnaryOp, UnaryOp::LeakyRelu>{});
    case UnaryOp::Clip: return f(std::integral_constant<UnaryOp, UnaryOp::Clip>{});
    case UnaryOp::PowScalar: return f(std::integral_constant<UnaryOp, UnaryOp::PowScalar>{});
    case UnaryOp::BitwiseNot: return f(std::integral_constant<UnaryOp, UnaryOp::BitwiseNot>{});
    case UnaryOp::LogicalNot: return f(std::integral_constant<UnaryOp, UnaryOp::LogicalNot>{});
    case UnaryOp::IsNan: return f(std::integral_constant<UnaryOp, UnaryOp::IsNan>{});
    case UnaryOp::IsInf: return f(std::integral_constant<UnaryOp, UnaryOp::IsInf>{});
    case UnaryOp::IsFinite: return f(std::integral_constant<UnaryOp, UnaryOp::IsFinite>{});
    case UnaryOp::IsPosInf: return f(std::integral_constant<UnaryOp, UnaryOp::IsPosInf>{});
    case UnaryOp::IsNegInf: return f(std::integral_constant<UnaryOp, UnaryOp::IsNegInf>{});
    case UnaryOp::SignBit: return f(std::integral_constant<UnaryOp, UnaryOp::SignBit>{});
    case UnaryOp::kCount: break;
  }
}

/// Calls f(std::integral_constant<BinaryOp, op>{}): a runtime op to the templates above.
template <typename F>
KERAS_HOST_DEVICE inline void visit(BinaryOp op, F&& f) {
  switch (op) {
    case BinaryOp::Add: return f(std::integral_constant<BinaryOp, BinaryOp::Add>{});
    case BinaryOp::Sub: return f(std::integral_constant<BinaryOp, BinaryOp::Sub>{});
    case BinaryOp::Mul: return f(std::integral_constant<BinaryOp, BinaryOp::Mul>{});
    case BinaryOp::Div: return f(std::integral_constant<BinaryOp, BinaryOp::Div>{});
    case BinaryOp::FloorDiv: return f(std::integral_constant<BinaryOp, BinaryOp::FloorDiv>{});
    case BinaryOp::Mod: return f(std::integral_constant<BinaryOp, BinaryOp::Mod>{});
    case BinaryOp::FMod: return f(std::integral_constant<BinaryOp, BinaryOp::FMod>{});
    case BinaryOp::Pow: return f(std::integral_constant<BinaryOp, BinaryOp::Pow>{});
    case BinaryOp::Maximum: return f(std::integral_constant<BinaryOp, BinaryOp::Maximum>{});
    case BinaryOp::Minimum: return f(std::integral_constant<BinaryOp, BinaryOp::Minimum>{});
    case BinaryOp::FMax: return f(std::integral_constant<BinaryOp, BinaryOp::FMax>{});
    case BinaryOp::FMin: return f(std::integral_constant<BinaryOp, BinaryOp::FMin>{});
    case BinaryOp::Atan2: return f(std::integral_constant<BinaryOp, BinaryOp::Atan2>{});
    case BinaryOp::Hypot: return f(std::integral_constant<BinaryOp, BinaryOp::Hypot>{});
    case BinaryOp::CopySign: return f(std::integral_constant<BinaryOp, BinaryOp::CopySign>{});
    case BinaryOp::NextAfter: return f(std::integral_constant<BinaryOp, BinaryOp::NextAfter>{});
    case BinaryOp::LogAddExp: return f(std::integral_constant<BinaryOp, BinaryOp::LogAddExp>{});
    case BinaryOp::LogAddExp2: return f(std::integral_constant<BinaryOp, BinaryOp::LogAddExp2>{});
    case BinaryOp::Heaviside: return f(std::integral_constant<BinaryOp, BinaryOp::Heaviside>{});
    case BinaryOp::Gcd: return f(std::integral_constant<BinaryOp, BinaryOp::Gcd>{});
    case BinaryOp::Lcm: return f(std::integral_constant<BinaryOp, BinaryOp::Lcm>{});
    case BinaryOp::BitwiseAnd: return f(std::integral_constant<BinaryOp, BinaryOp::BitwiseAnd>{});
    case BinaryOp::BitwiseOr: return f(std::integral_constant<BinaryOp, BinaryOp::BitwiseOr>{});
    case BinaryOp::BitwiseXor: return f(std::integral_constant<BinaryOp, BinaryOp::BitwiseXor>{});
    case BinaryOp::LeftShift: return f(std::integral_constant<BinaryOp, BinaryOp::LeftShift>{});
    case BinaryOp::RightShift: return f(std::integral_constant<BinaryOp, BinaryOp::RightShift>{});
    case BinaryOp::Equal: return f(std::integral_constant<BinaryOp, BinaryOp::Equal>{});
    case BinaryOp::NotEqual: return f(std::integral_constant<BinaryOp, BinaryOp::NotEqual>{});
    case BinaryOp::Less: return f(std::integral_constant<BinaryOp, BinaryOp::Less>{});
    case BinaryOp::LessEqual: return f(std::integral_constant<BinaryOp, BinaryOp::LessEqual>{});
    case BinaryOp::Greater: return f(std::integral_constant<BinaryOp, BinaryOp::Greater>{});
    case BinaryOp::GreaterEqual: return f(std::integral_constant<BinaryOp, BinaryOp::GreaterEqual>{});
    case BinaryOp::LogicalAnd: return f(std::integral_constant<BinaryOp, BinaryOp::LogicalAnd>{});
    case BinaryOp::LogicalOr: return f(std::integral_constant<BinaryOp, BinaryOp::LogicalOr>{});
    case BinaryOp::LogicalXor: return f(std::integral_constant<BinaryOp, BinaryOp::LogicalXor>{});
    case BinaryOp::kCount: break;
  }
}

}  // namespace keras::backend::math
