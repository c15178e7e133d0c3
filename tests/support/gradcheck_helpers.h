#pragma once
// Inputs and expectations shared by the finite-difference gradient tests.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "keras/testing/gradcheck.h"

namespace keras::test {

using GradFn = std::function<Tensor(const std::vector<Tensor>&)>;

/// Deterministic, irregular float64 values: shift + scale * sin(131 seed + 7 i + 1). Tie-free
/// and smooth, which elementwise and reduction rules want; as matrices they have rank <= 2, so
/// linear-algebra tests draw from keras::random instead.
inline Tensor sin_values(const Shape& shape, uint64_t seed, double scale = 1.0,
                         double shift = 0.0) {
  std::vector<double> v(static_cast<size_t>(shape.numel()));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = shift + scale * std::sin(static_cast<double>(seed * 131 + i * 7 + 1));
  return Tensor::from_vector(v, shape);
}

/// sin_values with amplitude 1.7: roughly unit-variance test inputs.
inline Tensor randn(const Shape& shape, uint64_t seed, double scale = 1.0, double shift = 0.0) {
  return sin_values(shape, seed, 1.7 * scale, shift);
}

/// gradcheck(fn, inputs) passes; the failure names the case and the first mismatch.
inline void expect_gradcheck(const std::string& name, const GradFn& fn,
                             const std::vector<Tensor>& inputs,
                             const testing::GradcheckOptions& options = {}) {
  auto r = testing::gradcheck(fn, inputs, options);
  EXPECT_TRUE(r.ok) << name << ": " << r.message;
}

}  // namespace keras::test
