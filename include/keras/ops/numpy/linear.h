#pragma once
// keras.ops (numpy) products: matmul and friends.

#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace numpy {

/// Matrix product with NumPy's rules: 1-d operands are promoted to matrices and the added
/// axis removed afterwards; leading axes broadcast. int8 x int8 gives int32, as in Keras.
Tensor matmul(const Tensor& x1, const Tensor& x2);

}  // namespace numpy
}  // namespace keras::ops
