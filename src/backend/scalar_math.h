#pragma once
// Scalar definitions of every elementwise function, with NumPy's semantics for the corner
// cases (floor division and remainder by zero, integer overflow, shifts past the width, NaN).
// C is the compute type: float for float16/bfloat16/float32, double for float64, or the integer
// type itself. Shared by the backends (cpu, and the cuda backend's device code: each function
// is KERAS_HOST_DEVICE), so that they compute the same values.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "keras/core/erfinv.h"
#include "keras/core/host_device.h"

namespace keras::backend::math {

template <typename C>
KERAS_HOST_DEVICE inline C sign(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(x)) return x;
  }
  if constexpr (std::is_unsigned_v<C>) return x > 0 ? C(1) : C(0);
  return x > 0 ? C(1) : (x < 0 ? C(-1) : C(0));
}

template <typename C>
KERAS_HOST_DEVICE inline C sigmoid(C x) {
  if (x >= 0) return C(1) / (C(1) + std::exp(-x));
  C e = std::exp(x);
  return e / (C(1) + e);
}

template <typename C>
KERAS_HOST_DEVICE inline C softplus(C x) {
  // log(1 + exp(x)) without overflow.
  return std::max(x, C(0)) + std::log1p(std::exp(-std::abs(x)));
}

template <typename C>
KERAS_HOST_DEVICE inline C log_sigmoid(C x) {
  return -softplus(-x);
}

// GELU without the cancellation of 1 + erf(x / sqrt 2) (or 1 + tanh(u)) for negative x, where
// most of float32's digits would be lost: 0.5 x erfc(-x / sqrt 2), and 1 + tanh(u) =
// 2 sigmoid(2u). Accurate to an ulp everywhere, so backends that compute GELU exactly agree.
template <typename C>
KERAS_HOST_DEVICE inline C gelu(C x) {
  return C(0.5) * x * std::erfc(x * C(-0.70710678118654752440));
}

template <typename C>
KERAS_HOST_DEVICE inline C gelu_tanh(C x) {
  const C k = C(0.79788456080286535588);  // sqrt(2 / pi)
  return x * sigmoid(C(2) * k * (x + C(0.044715) * x * x * x));
}

/// Inverse error function: Giles's single-precision approximation refined by two Newton steps
/// in double, on |y| (the function is odd). The Newton residual is taken through erfc, since
/// 1 - |y| is exact for |y| >= 0.5 while erf(x) - y would cancel near +-1.
KERAS_HOST_DEVICE inline double erfinv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return std::numeric_limits<double>::infinity();
  if (y == -1) return -std::numeric_limits<double>::infinity();
  const double a = std::abs(y);
  double x = keras::detail::erfinv_guess(a);
  // Newton: f(x) = erf(x) - a, f'(x) = 2/sqrt(pi) exp(-x^2).
  for (int i = 0; i < 2; ++i) {
    double err = a < 0.5 ? std::erf(x) - a : (1.0 - a) - std::erfc(x);
    x -= err / (1.1283791670955126 * std::exp(-x * x));
  }
  return std::copysign(x, y);
}

/// Digamma (psi): reflection for x < 0.5, recurrence up to 6, then the asymptotic series.
KERAS_HOST_DEVICE inline double digamma(double x) {
  if (std::isnan(x)) return x;
  if (x == 0) return std::copysign(std::numeric_limits<double>::infinity(), -x);
  if (x < 0 && x == std::floor(x)) return std::numeric_limits<double>::quiet_NaN();
  double result = 0;
  if (x < 0.5) {
    // psi(1 - x) - psi(x) = pi / tan(pi x)
    result -= M_PI / std::tan(M_PI * x);
    x = 1 - x;
  }
  while (x < 6) {
    result -= 1 / x;
    x += 1;
  }
  double inv = 1 / x, inv2 = inv * inv;
  result += std::log(x) - 0.5 * inv -
            inv2 * (1.0 / 12 - inv2 * (1.0 / 120 - inv2 * (1.0 / 252 - inv2 * (1.0 / 240 -
                                                                               inv2 / 132))));
  return result;
}

/// Modified Bessel function of the first kind, order 0 (NumPy's i0): the power series for
/// |x| <= 15, the asymptotic expansion beyond.
KERAS_HOST_DEVICE inline double i0(double x) {
  double ax = std::abs(x);
  if (std::isinf(ax)) return ax;
  if (ax <= 15.0) {
    double term = 1, sum = 1, q = ax * ax / 4;
    for (int k = 1; k < 200; ++k) {
      term *= q / (static_cast<double>(k) * k);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return sum;
  }
  // i0(x) ~ e^x / sqrt(2 pi x) * sum_k ((2k-1)!!)^2 / (k! 8^k x^k)
  double sum = 1, term = 1;
  for (int k = 1; k < 30; ++k) {
    double next = term * (2.0 * k - 1) * (2.0 * k - 1) / (8.0 * k * ax);
    if (next > term) break;
    term = next;
    sum += term;
  }
  return std::exp(ax) / std::sqrt(2 * M_PI * ax) * sum;
}

KERAS_HOST_DEVICE inline double lgamma(double x) {
#if defined(__CUDA_ARCH__)
  return ::lgamma(x);
#else
  int sign;
  return ::lgamma_r(x, &sign);  // thread-safe (std::lgamma writes signgam)
#endif
}

/// NumPy's divmod for floats (npy_divmod): the quotient rounded toward -inf and a remainder
/// with the divisor's sign.
template <typename C>
KERAS_HOST_DEVICE inline void float_divmod(C a, C b, C& floordiv, C& mod) {
  mod = std::fmod(a, b);
  if (b == 0) {
    floordiv = a / b;
    return;
  }
  C div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= C(1);
    }
  } else {
    mod = std::copysign(C(0), b);
  }
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > C(0.5)) floordiv += C(1);
  } else {
    floordiv = std::copysign(C(0), a / b);
  }
}

template <typename C>
KERAS_HOST_DEVICE inline C floor_divide(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    C q, r;
    float_divmod(a, b, q, r);
    return q;
  } else if constexpr (std::is_same_v<C, bool>) {
    return b ? a : false;
  } else {
    if (b == 0) return 0;  // NumPy: 0 with a warning
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return static_cast<C>(-static_cast<std::make_unsigned_t<C>>(a));  // wraps
      C q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    } else {
      return a / b;
    }
  }
}

template <typename C>
KERAS_HOST_DEVICE inline C python_mod(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    C q, r;
    float_divmod(a, b, q, r);
    return r;
  } else if constexpr (std::is_same_v<C, bool>) {
    return false;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return 0;
      C r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    } else {
      return a % b;
    }
  }
}

template <typename C>
KERAS_HOST_DEVICE inline C c_fmod(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::fmod(a, b);
  } else if constexpr (std::is_same_v<C, bool>) {
    return false;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return 0;
    }
    return a % b;
  }
}

template <typename C>
KERAS_HOST_DEVICE inline C trunc_divide(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    return a / b;
  } else if constexpr (std::is_same_v<C, bool>) {
    return b ? a : false;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return static_cast<C>(-static_cast<std::make_unsigned_t<C>>(a));
    }
    return a / b;
  }
}

template <typename C>
KERAS_HOST_DEVICE inline C int_power(C base, C exponent) {
  if constexpr (std::is_signed_v<C>) {
    if (exponent < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exponent & 1) ? C(-1) : C(1);
      return 0;
    }
  }
  using U = std::make_unsigned_t<C>;
  U result = 1, b = static_cast<U>(base);
  auto e = static_cast<U>(exponent);
  while (e) {
    if (e & 1) result = static_cast<U>(result * b);
    b = static_cast<U>(b * b);
    e >>= 1;
  }
  return static_cast<C>(result);
}

template <typename C>
KERAS_HOST_DEVICE inline C left_shift(C a, C b) {
  constexpr int bits = sizeof(C) * 8;
  if (b < 0 || b >= bits) return 0;
  using U = std::make_unsigned_t<C>;
  return static_cast<C>(static_cast<U>(a) << b);
}

template <typename C>
KERAS_HOST_DEVICE inline C right_shift(C a, C b) {
  constexpr int bits = sizeof(C) * 8;
  if (b < 0 || b >= bits) return (std::is_signed_v<C> && a < 0) ? C(-1) : C(0);
  return static_cast<C>(a >> b);
}

template <typename C>
KERAS_HOST_DEVICE inline C gcd(C a, C b) {
  using U = std::make_unsigned_t<C>;
  U x = a < 0 ? static_cast<U>(-static_cast<U>(a)) : static_cast<U>(a);
  U y = b < 0 ? static_cast<U>(-static_cast<U>(b)) : static_cast<U>(b);
  while (y) {
    U t = x % y;
    x = y;
    y = t;
  }
  return static_cast<C>(x);
}

template <typename C>
KERAS_HOST_DEVICE inline C lcm(C a, C b) {
  if (a == 0 || b == 0) return 0;
  C g = gcd(a, b);
  using U = std::make_unsigned_t<C>;
  U x = a < 0 ? static_cast<U>(-static_cast<U>(a)) : static_cast<U>(a);
  U y = b < 0 ? static_cast<U>(-static_cast<U>(b)) : static_cast<U>(b);
  return static_cast<C>(x / static_cast<U>(g) * y);
}

// log(exp(a) + exp(b)) in double (and rounded once): near a zero result the sum cancels, and
// single-precision exp/log1p would leave only the ulps of their own rounding.
template <typename C>
KERAS_HOST_DEVICE inline C logaddexp(C a, C b) {
  const double x = a, y = b;
  if (x == y) return static_cast<C>(x + 0.69314718055994530942);  // also equal infinities
  const double m = std::max(x, y), d = -std::abs(x - y);
  if (std::isnan(d)) return static_cast<C>(d);
  return static_cast<C>(m + std::log1p(std::exp(d)));
}

template <typename C>
KERAS_HOST_DEVICE inline C logaddexp2(C a, C b) {
  const double x = a, y = b;
  if (x == y) return static_cast<C>(x + 1.0);
  const double m = std::max(x, y), d = -std::abs(x - y);
  if (std::isnan(d)) return static_cast<C>(d);
  return static_cast<C>(m + std::log1p(std::exp2(d)) * 1.44269504088896340736);
}

template <typename C>
KERAS_HOST_DEVICE inline C heaviside(C x, C h0) {
  if (std::isnan(x)) return x;
  return x < 0 ? C(0) : (x > 0 ? C(1) : h0);
}

/// maximum/minimum that propagate NaN (NumPy's maximum/minimum).
template <typename C>
KERAS_HOST_DEVICE inline C nan_max(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return a > b ? a : b;
}
template <typename C>
KERAS_HOST_DEVICE inline C nan_min(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return a < b ? a : b;
}

/// The unsigned key of a sort: its order is the sort's (ascending; NaN above +inf, -0 equal to
/// +0). Descending sorts invert it.
template <typename C>
using sort_key_t = std::conditional_t<sizeof(C) == 8, uint64_t, uint32_t>;

template <typename C>
KERAS_HOST_DEVICE inline sort_key_t<C> sort_key(C v) {
  using K = sort_key_t<C>;
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(v)) return ~K{0};
    if (v == C(0)) v = C(0);  // -0 sorts with +0
    K bits;
    std::memcpy(&bits, &v, sizeof(K));
    constexpr K sign = K{1} << (8 * sizeof(K) - 1);
    return (bits & sign) ? ~bits : (bits | sign);
  } else if constexpr (std::is_signed_v<C>) {
    using U = std::make_unsigned_t<C>;
    constexpr U sign = U{1} << (8 * sizeof(C) - 1);
    return static_cast<K>(static_cast<U>(static_cast<U>(v) ^ sign));
  } else {
    return static_cast<K>(v);
  }
}

/// Round half to even, as NumPy's round.
template <typename C>
KERAS_HOST_DEVICE inline C round_half_even(C x) {
  return std::nearbyint(x);
}

}  // namespace keras::backend::math
