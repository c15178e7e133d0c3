#pragma once
// IEEE float16 and bfloat16 storage types. Arithmetic happens in float: every op converts on
// load and rounds to nearest-even on store, as NumPy, PyTorch and JAX do on the CPU.

#include <cstdint>
#include <cstring>

#pragma GCC visibility push(default)
namespace keras {

namespace detail {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline uint16_t float_to_half_bits(float f) {
  uint32_t x = float_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (abs < 0x38800000u) {  // subnormal half (or zero): scale into the integer range and round
    float magnitude = bits_float(abs) * 16777216.0f;  // 2^24: one half-subnormal ulp becomes 1
    uint32_t m = static_cast<uint32_t>(magnitude);
    float rest = magnitude - static_cast<float>(m);
    if (rest > 0.5f || (rest == 0.5f && (m & 1u))) ++m;
    return static_cast<uint16_t>(sign | m);
  }
  uint32_t mantissa_odd = (abs >> 13) & 1u;
  abs += 0xc8000fffu + mantissa_odd;  // rebias exponent (-112 << 23) and round to nearest even
  return static_cast<uint16_t>(sign | (abs >> 13));
}

inline float half_bits_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    float f = static_cast<float>(mantissa) * 5.9604644775390625e-08f;  // 2^-24
    return sign ? -f : f;
  }
  if (exponent == 31) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

inline uint16_t float_to_bfloat16_bits(float f) {
  uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // nan
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

}  // namespace detail

/// IEEE 754 binary16.
struct float16_t {
  /// The raw binary16 bit pattern (sign, 5 exponent bits, 10 mantissa bits).
  uint16_t bits = 0;
  float16_t() = default;
  /// Rounds `f` to the nearest float16, ties to even; values beyond 65504 become infinity.
  float16_t(float f) : bits(detail::float_to_half_bits(f)) {}  // NOLINT: implicit like a float
  /// The exact float value (every float16 is representable as a float).
  operator float() const { return detail::half_bits_to_float(bits); }
  /// The float16 with bit pattern `b`.
  static float16_t from_bits(uint16_t b) {
    float16_t h;
    h.bits = b;
    return h;
  }
};

/// bfloat16: the top half of a float32.
struct bfloat16_t {
  /// The raw bit pattern: the upper 16 bits of the float32.
  uint16_t bits = 0;
  bfloat16_t() = default;
  /// Rounds `f` to the nearest bfloat16, ties to even (NaN stays NaN).
  bfloat16_t(float f) : bits(detail::float_to_bfloat16_bits(f)) {}  // NOLINT
  /// The exact float value (the bits followed by 16 zero bits).
  operator float() const { return detail::bits_float(static_cast<uint32_t>(bits) << 16); }
  /// The bfloat16 with bit pattern `b`.
  static bfloat16_t from_bits(uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }
};

}  // namespace keras

#pragma GCC visibility pop
