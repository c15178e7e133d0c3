#pragma once
// Tensor comparisons for tests: dtype and shape exactly, values within tolerances.

#include <gtest/gtest.h>

#include <string>

#include "keras/tensor/tensor.h"

namespace keras::test {

/// Default relative tolerance for a dtype: 1e-6 for float32, 1e-12 for float64, 1e-3 for
/// float16, 1e-2 for bfloat16; 0 (exact) for integers and bool.
double default_rtol(DType t);

/// Checks dtype, shape, NaN/inf positions and |a - e| <= atol + rtol |e|.
::testing::AssertionResult tensors_near(const Tensor& actual, const Tensor& expected,
                                        double rtol, double atol, bool check_dtype = true);

#define EXPECT_TENSOR_NEAR(actual, expected, rtol, atol) \
  EXPECT_TRUE(::keras::test::tensors_near((actual), (expected), (rtol), (atol)))
#define EXPECT_TENSOR_EQ(actual, expected) \
  EXPECT_TRUE(::keras::test::tensors_near((actual), (expected), 0, 0))

/// A float tensor from values and a shape (test shorthand).
Tensor make(const std::vector<double>& values, const Shape& shape, DType dtype = DType::Float32);

}  // namespace keras::test
