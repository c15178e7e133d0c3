#pragma once
// The starting point of every inverse error function in keras-cpp: Giles's single-precision
// approximation ("Approximating the erfinv function", GPU Computing Gems, 2011). Callers refine
// it with Newton steps in double (the cpu kernel of ops::erfinv, and the truncated-normal
// sampler in keras/random/philox.h, whose exact arithmetic every backend must share).

#include <cmath>

#include "keras/core/host_device.h"

#pragma GCC visibility push(default)
namespace keras::detail {

/// Giles's approximation of erfinv(y) for y in (-1, 1), about 1e-7 relative.
KERAS_HOST_DEVICE inline double erfinv_guess(double y) {
  double w = -std::log((1.0 - y) * (1.0 + y));
  if (w < 5.0) {
    w -= 2.5;
    double p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
    return p * y;
  }
  w = std::sqrt(w) - 3.0;
  double p = -0.000200214257;
  p = 0.000100950558 + p * w;
  p = 0.00134934322 + p * w;
  p = -0.00367342844 + p * w;
  p = 0.00573950773 + p * w;
  p = -0.0076224613 + p * w;
  p = 0.00943887047 + p * w;
  p = 1.00167406 + p * w;
  p = 2.83297682 + p * w;
  return p * y;
}

}  // namespace keras::detail

#pragma GCC visibility pop
