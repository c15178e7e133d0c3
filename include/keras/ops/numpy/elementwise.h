#pragma once
// keras.ops (numpy) elementwise functions: arithmetic, comparisons, exponentials and
// logarithms, with NumPy broadcasting and Keras dtype promotion. Integer inputs of functions
// such as exp or sqrt compute in floatx(), as in Keras.

#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace numpy {

// ---- arithmetic ----------------------------------------------------------------------------
Tensor add(const Tensor& x1, const Tensor& x2);
Tensor subtract(const Tensor& x1, const Tensor& x2);
Tensor multiply(const Tensor& x1, const Tensor& x2);
/// True division: integer inputs give floats.
Tensor divide(const Tensor& x1, const Tensor& x2);
Tensor negative(const Tensor& x);
Tensor absolute(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor square(const Tensor& x);
/// -1, 0 or 1 by the sign of x (NaN stays NaN).
Tensor sign(const Tensor& x);
Tensor sqrt(const Tensor& x);
/// x1 ** x2.
Tensor power(const Tensor& x1, const Tensor& x2);
/// Elementwise maximum; NaN propagates.
Tensor maximum(const Tensor& x1, const Tensor& x2);
/// Elementwise minimum; NaN propagates.
Tensor minimum(const Tensor& x1, const Tensor& x2);

// ---- exponentials and logarithms -----------------------------------------------------------
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor tanh(const Tensor& x);

// ---- trigonometric -------------------------------------------------------------------------
Tensor sin(const Tensor& x);
Tensor cos(const Tensor& x);

// ---- comparisons and logic (bool results, no gradient) -------------------------------------
Tensor equal(const Tensor& x1, const Tensor& x2);
Tensor not_equal(const Tensor& x1, const Tensor& x2);
Tensor less(const Tensor& x1, const Tensor& x2);
Tensor less_equal(const Tensor& x1, const Tensor& x2);
Tensor greater(const Tensor& x1, const Tensor& x2);
Tensor greater_equal(const Tensor& x1, const Tensor& x2);
Tensor logical_not(const Tensor& x);

/// x1 where condition is true, else x2 (broadcast together).
Tensor where(const Tensor& condition, const Tensor& x1, const Tensor& x2);

}  // namespace numpy
}  // namespace keras::ops
