// Elementwise functions of one input.

#include <cmath>
#include <string>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "keras/core/errors.h"
#include "loops.h"
#include "scalar_math.h"

namespace keras::cpu {
namespace {

using backend::UnaryOp;

// out[i] = f(x[i]) with storage types O and T; f works on compute types.
template <typename O, typename T, typename F>
void map_unary(const StridedLoop<2>& loop, F f) {
  using C = compute_t<T>;
  run_loop(loop, [f](char** p, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(O) && s[1] == sizeof(T)) {
      O* o = reinterpret_cast<O*>(p[0]);
      const T* x = reinterpret_cast<const T*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = convert<O>(f(convert<C>(x[i])));
    } else {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<O*>(p[0] + i * s[0]) =
            convert<O>(f(convert<C>(*reinterpret_cast<const T*>(p[1] + i * s[1]))));
    }
  });
}

[[noreturn]] void bad_dtype(UnaryOp op, DType t) {
  throw NotImplementedError("cpu backend: unary " + std::string(backend::name_of(op)) +
                            " is not defined for " + std::string(dtype_name(t)));
}

template <typename T>
void unary_float(UnaryOp op, const StridedLoop<2>& loop, double p0, double p1) {
  using C = compute_t<T>;
  const C a = static_cast<C>(p0), b = static_cast<C>(p1);
  switch (op) {
    case UnaryOp::Neg: return map_unary<T, T>(loop, [](C x) { return -x; });
    case UnaryOp::Abs: return map_unary<T, T>(loop, [](C x) { return std::abs(x); });
    case UnaryOp::Sign: return map_unary<T, T>(loop, [](C x) { return math::sign(x); });
    case UnaryOp::Square: return map_unary<T, T>(loop, [](C x) { return x * x; });
    case UnaryOp::Reciprocal: return map_unary<T, T>(loop, [](C x) { return C(1) / x; });
    case UnaryOp::Sqrt: return map_unary<T, T>(loop, [](C x) { return std::sqrt(x); });
    case UnaryOp::Rsqrt: return map_unary<T, T>(loop, [](C x) { return C(1) / std::sqrt(x); });
    case UnaryOp::Cbrt: return map_unary<T, T>(loop, [](C x) { return std::cbrt(x); });
    case UnaryOp::Exp: return map_unary<T, T>(loop, [](C x) { return std::exp(x); });
    case UnaryOp::Exp2: return map_unary<T, T>(loop, [](C x) { return std::exp2(x); });
    case UnaryOp::Expm1: return map_unary<T, T>(loop, [](C x) { return std::expm1(x); });
    case UnaryOp::Log: return map_unary<T, T>(loop, [](C x) { return std::log(x); });
    case UnaryOp::Log2: return map_unary<T, T>(loop, [](C x) { return std::log2(x); });
    case UnaryOp::Log10: return map_unary<T, T>(loop, [](C x) { return std::log10(x); });
    case UnaryOp::Log1p: return map_unary<T, T>(loop, [](C x) { return std::log1p(x); });
    case UnaryOp::Sin: return map_unary<T, T>(loop, [](C x) { return std::sin(x); });
    case UnaryOp::Cos: return map_unary<T, T>(loop, [](C x) { return std::cos(x); });
    case UnaryOp::Tan: return map_unary<T, T>(loop, [](C x) { return std::tan(x); });
    case UnaryOp::Asin: return map_unary<T, T>(loop, [](C x) { return std::asin(x); });
    case UnaryOp::Acos: return map_unary<T, T>(loop, [](C x) { return std::acos(x); });
    case UnaryOp::Atan: return map_unary<T, T>(loop, [](C x) { return std::atan(x); });
    case UnaryOp::Sinh: return map_unary<T, T>(loop, [](C x) { return std::sinh(x); });
    case UnaryOp::Cosh: return map_unary<T, T>(loop, [](C x) { return std::cosh(x); });
    case UnaryOp::Tanh: return map_unary<T, T>(loop, [](C x) { return std::tanh(x); });
    case UnaryOp::Asinh: return map_unary<T, T>(loop, [](C x) { return std::asinh(x); });
    case UnaryOp::Acosh: return map_unary<T, T>(loop, [](C x) { return std::acosh(x); });
    case UnaryOp::Atanh: return map_unary<T, T>(loop, [](C x) { return std::atanh(x); });
    case UnaryOp::Floor: return map_unary<T, T>(loop, [](C x) { return std::floor(x); });
    case UnaryOp::Ceil: return map_unary<T, T>(loop, [](C x) { return std::ceil(x); });
    case UnaryOp::Round:
      return map_unary<T, T>(loop, [](C x) { return math::round_half_even(x); });
    case UnaryOp::Trunc: return map_unary<T, T>(loop, [](C x) { return std::trunc(x); });
    case UnaryOp::Erf: return map_unary<T, T>(loop, [](C x) { return std::erf(x); });
    case UnaryOp::Erfc: return map_unary<T, T>(loop, [](C x) { return std::erfc(x); });
    case UnaryOp::Erfinv:
      return map_unary<T, T>(loop, [](C x) { return static_cast<C>(math::erfinv(x)); });
    case UnaryOp::Lgamma:
      return map_unary<T, T>(loop, [](C x) { return static_cast<C>(math::lgamma(x)); });
    case UnaryOp::Digamma:
      return map_unary<T, T>(loop, [](C x) { return static_cast<C>(math::digamma(x)); });
    case UnaryOp::I0:
      return map_unary<T, T>(loop, [](C x) { return static_cast<C>(math::i0(x)); });
    case UnaryOp::Relu:  // NaN propagates, as in max(x, 0)
      return map_unary<T, T>(loop, [](C x) { return x <= 0 ? C(0) : x; });
    case UnaryOp::Sigmoid: return map_unary<T, T>(loop, [](C x) { return math::sigmoid(x); });
    case UnaryOp::Softplus: return map_unary<T, T>(loop, [](C x) { return math::softplus(x); });
    case UnaryOp::Silu: return map_unary<T, T>(loop, [](C x) { return x * math::sigmoid(x); });
    case UnaryOp::Gelu: return map_unary<T, T>(loop, [](C x) { return math::gelu(x); });
    case UnaryOp::GeluTanh: return map_unary<T, T>(loop, [](C x) { return math::gelu_tanh(x); });
    case UnaryOp::LogSigmoid:
      return map_unary<T, T>(loop, [](C x) { return math::log_sigmoid(x); });
    case UnaryOp::Elu:
      return map_unary<T, T>(loop, [a](C x) { return x > 0 ? x : a * std::expm1(x); });
    case UnaryOp::LeakyRelu:
      return map_unary<T, T>(loop, [a](C x) { return x > 0 ? x : a * x; });
    case UnaryOp::Clip:
      return map_unary<T, T>(loop, [a, b](C x) { return math::nan_min(math::nan_max(x, a), b); });
    case UnaryOp::PowScalar: return map_unary<T, T>(loop, [a](C x) { return std::pow(x, a); });
    case UnaryOp::LogicalNot: return map_unary<bool, T>(loop, [](C x) { return x == C(0); });
    case UnaryOp::IsNan: return map_unary<bool, T>(loop, [](C x) { return std::isnan(x); });
    case UnaryOp::IsInf: return map_unary<bool, T>(loop, [](C x) { return std::isinf(x); });
    case UnaryOp::IsFinite: return map_unary<bool, T>(loop, [](C x) { return std::isfinite(x); });
    case UnaryOp::IsPosInf:
      return map_unary<bool, T>(loop, [](C x) { return std::isinf(x) && x > 0; });
    case UnaryOp::IsNegInf:
      return map_unary<bool, T>(loop, [](C x) { return std::isinf(x) && x < 0; });
    // copysign rather than std::signbit: GCC 12 crashes vectorizing signbit (an ICE).
    case UnaryOp::SignBit:
      return map_unary<bool, T>(loop, [](C x) { return std::copysign(C(1), x) < C(0); });
    case UnaryOp::BitwiseNot:
    case UnaryOp::kCount: break;
  }
  bad_dtype(op, dtype_v<T>);
}

template <typename T>
void unary_integer(UnaryOp op, const StridedLoop<2>& loop, double p0, double p1) {
  using U = std::make_unsigned_t<T>;
  switch (op) {
    case UnaryOp::Neg:  // wraps, as NumPy
      return map_unary<T, T>(loop, [](T x) { return static_cast<T>(-static_cast<U>(x)); });
    case UnaryOp::Abs:
      return map_unary<T, T>(loop, [](T x) {
        return x < 0 ? static_cast<T>(-static_cast<U>(x)) : x;
      });
    case UnaryOp::Sign: return map_unary<T, T>(loop, [](T x) { return math::sign(x); });
    case UnaryOp::Square:
      return map_unary<T, T>(loop, [](T x) { return static_cast<T>(static_cast<U>(x) * x); });
    case UnaryOp::Relu: return map_unary<T, T>(loop, [](T x) { return x > 0 ? x : T(0); });
    case UnaryOp::Clip: {
      // The bounds were checked to fit T by the front end; compare in double to be exact for
      // every T up to int32 and for the int64 bounds the front end passes.
      const T lo = static_cast<T>(p0), hi = static_cast<T>(p1);
      return map_unary<T, T>(loop, [lo, hi](T x) { return std::min(std::max(x, lo), hi); });
    }
    case UnaryOp::Floor:
    case UnaryOp::Ceil:
    case UnaryOp::Round:
    case UnaryOp::Trunc: return map_unary<T, T>(loop, [](T x) { return x; });
    case UnaryOp::BitwiseNot: return map_unary<T, T>(loop, [](T x) { return static_cast<T>(~x); });
    case UnaryOp::LogicalNot: return map_unary<bool, T>(loop, [](T x) { return x == 0; });
    case UnaryOp::IsNan:
    case UnaryOp::IsInf:
    case UnaryOp::IsPosInf:
    case UnaryOp::IsNegInf: return map_unary<bool, T>(loop, [](T) { return false; });
    case UnaryOp::IsFinite: return map_unary<bool, T>(loop, [](T) { return true; });
    case UnaryOp::SignBit: return map_unary<bool, T>(loop, [](T x) { return x < 0; });
    default: break;
  }
  bad_dtype(op, dtype_v<T>);
}

void unary_bool(UnaryOp op, const StridedLoop<2>& loop) {
  switch (op) {
    case UnaryOp::Abs:
    case UnaryOp::Square:
    case UnaryOp::Sign:
    case UnaryOp::Relu:
    case UnaryOp::Floor:
    case UnaryOp::Ceil:
    case UnaryOp::Round:
    case UnaryOp::Trunc: return map_unary<bool, bool>(loop, [](bool x) { return x; });
    case UnaryOp::BitwiseNot:
    case UnaryOp::LogicalNot: return map_unary<bool, bool>(loop, [](bool x) { return !x; });
    case UnaryOp::IsNan:
    case UnaryOp::IsInf:
    case UnaryOp::IsPosInf:
    case UnaryOp::IsNegInf:
    case UnaryOp::SignBit: return map_unary<bool, bool>(loop, [](bool) { return false; });
    case UnaryOp::IsFinite: return map_unary<bool, bool>(loop, [](bool) { return true; });
    default: break;
  }
  bad_dtype(op, DType::Bool);
}

}  // namespace

void CpuBackend::unary(UnaryOp op, const Array& out, const Array& x, double p0, double p1) {
  auto loop = make_loop<2>(out.shape, {&out, &x});
  visit_dtype(x.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      unary_bool(op, loop);
    } else if constexpr (std::is_integral_v<T>) {
      unary_integer<T>(op, loop, p0, p1);
    } else {
      unary_float<T>(op, loop, p0, p1);
    }
  });
}

}  // namespace keras::cpu
