#pragma once
// float exp, sigmoid and tanh for the fused recurrent steps, written without branches or libm
// calls so that the compiler vectorizes the loops that use them (std::exp and std::tanh are
// scalar calls: they were a third of an LSTM training step). The file that uses them is built
// with -fno-trapping-math (CMakeLists.txt), without which GCC keeps the selects as branches. Cephes's single-precision
// polynomials; errors of a few ulp (relative 3e-7 for tanh, 2e-7 for exp), far below the
// float32 tolerances the layers are tested at. NaN propagates. double uses libm.

#include <bit>
#include <cmath>
#include <cstdint>

namespace keras::layers::detail::vmath {

inline float exp(float x) {
  // Clamped so that 2^n stays a normal float: exp underflows to ~1e-38 instead of 0 below -87.3
  // and saturates at ~2e38 above 88.3 (a sigmoid or tanh of such inputs is exact either way).
  x = x < -87.3f ? -87.3f : x;
  x = x > 88.3f ? 88.3f : x;
  // n = round(x / ln 2) with the 1.5 * 2^23 trick: t's low mantissa bits hold n, so neither a
  // floor call nor a float-to-int conversion (which may trap, and then blocks vectorizing the
  // clamps above) is needed.
  const float t = x * 1.44269504088896341f + 12582912.0f;
  const float n = t - 12582912.0f;
  float r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * r * r + r + 1.0f;
  const uint32_t e = std::bit_cast<uint32_t>(t) - 0x4B400000u + 127u;  // n + 127
  return y * std::bit_cast<float>(e << 23);
}

inline float sigmoid(float x) { return 1.0f / (1.0f + exp(-x)); }

inline float tanh(float x) {
  const float a = x < 0.0f ? -x : x;
  // Small |x|: an odd polynomial (1 - 2 / (e^2x + 1) would lose relative accuracy near 0).
  const float s = x * x;
  float p = -5.70498872745e-3f;
  p = p * s + 2.06390887954e-2f;
  p = p * s - 5.37397155531e-2f;
  p = p * s + 1.33314422036e-1f;
  p = p * s - 3.33332819422e-1f;
  const float small = p * s * x + x;
  float large = 1.0f - 2.0f / (exp(2.0f * a) + 1.0f);
  large = x < 0.0f ? -large : large;
  return a < 0.625f ? small : large;
}

inline double exp(double x) { return std::exp(x); }
inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double tanh(double x) { return std::tanh(x); }

}  // namespace keras::layers::detail::vmath
