#pragma once
// keras.ops.math elementwise functions: erf, erfc, erfinv, rsqrt. Integer inputs compute in
// floatx().

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace math {

/// The error function.
Tensor erf(const Tensor& x);
/// The complementary error function 1 - erf(x), accurate for large x.
Tensor erfc(const Tensor& x);
/// The inverse error function on [-1, 1] (+-inf at +-1, NaN outside).
Tensor erfinv(const Tensor& x);
/// 1 / sqrt(x).
Tensor rsqrt(const Tensor& x);

}  // namespace math
}  // namespace keras::ops

#pragma GCC visibility pop
