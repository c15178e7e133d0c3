#pragma once
// float exp, sigmoid, tanh, silu and gelu_tanh written without branches or libm calls, so that
// loops over them vectorize (std::exp and std::tanh are scalar calls: a third of an LSTM
// training step, half of EfficientNet's inference). The float32 values of the sigmoid, tanh,
// silu and gelu_tanh primitives on every backend that computes with backend/elementwise_math.h
// (the cpu backend vectorizes them in backends/cpu/src/float_unary.cpp), and of the fused
// recurrent steps (src/layers/rnn/recurrent_ops.cpp). A file that loops over them needs
// -fno-trapping-math (CMakeLists.txt), without which GCC keeps the selects as branches.
//
// Cephes's single-precision polynomials. Measured against double precision over every 97th
// float (tests/backend/float_math_test.cpp checks the bounds): exp within 1 ulp over the whole
// float range (subnormal results and overflow to inf included), sigmoid 2.3, tanh 1.3, silu and
// gelu_tanh 3.1 (gelu_tanh from its float32 argument; both where their sigmoid factor is
// normal: a subnormal one keeps few digits however it is computed). NaN propagates. Only
// + - * / and bit operations: compiled without contraction into FMAs the values are the same on
// every instruction set.

#include <bit>
#include <cstdint>
#include <limits>

#include "keras/core/host_device.h"

namespace keras::backend::fmath {

KERAS_HOST_DEVICE inline float exp(float x) {
  // Outside [-104, 88.8] the value is 0 or overflows; the clamp keeps n's arithmetic in range.
  // Comparisons with NaN are false, so NaN passes through.
  const float xc = x < -104.0f ? -104.0f : (x > 88.8f ? 88.8f : x);
  // n = round(x / ln 2) with the 1.5 * 2^23 trick: t's low mantissa bits hold n, so neither a
  // floor call nor a float-to-int conversion (which may trap, and then blocks vectorizing the
  // clamps above) is needed. r = x - n ln 2 in two parts (Cody-Waite), |r| <= ln 2 / 2.
  const float t = xc * 1.44269504088896341f + 12582912.0f;
  const float n = t - 12582912.0f;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * r * r + r + 1.0f;
  // 2^n as two normal factors (n is in [-150, 128]), so that a subnormal result rounds once.
  const int32_t ni = std::bit_cast<int32_t>(t) - 0x4B400000;
  const int32_t n1 = ni >> 1, n2 = ni - n1;
  const float scaled =
      y * std::bit_cast<float>((n1 + 127) << 23) * std::bit_cast<float>((n2 + 127) << 23);
  // Above log(FLT_MAX) the value overflows (+inf included).
  return x > 88.72283935546875f ? std::numeric_limits<float>::infinity() : scaled;
}

/// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below (no overflow, no cancellation).
KERAS_HOST_DEVICE inline float sigmoid(float x) {
  const float e = exp(x < 0.0f ? x : -x);
  return (x < 0.0f ? e : 1.0f) / (1.0f + e);
}

KERAS_HOST_DEVICE inline float tanh(float x) {
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
  return x == 0.0f ? x : (a < 0.625f ? small : large);  // tanh(-0) is -0
}

KERAS_HOST_DEVICE inline float silu(float x) {
  return x * sigmoid(x);
}

/// GELU's tanh approximation as x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3), the same
/// expression as backend/scalar_math.h's gelu_tanh.
KERAS_HOST_DEVICE inline float gelu_tanh(float x) {
  const float k = 0.79788456080286535588f;
  return x * sigmoid(2.0f * k * (x + 0.044715f * x * x * x));
}

}  // namespace keras::backend::fmath
