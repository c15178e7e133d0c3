#pragma once
// int8 @ int8 -> int32 through the backend's QuantizedMatmul kernel (the product of a
// quantized Dense), where it applies.

#include "ops/detail/op_utils.h"

namespace keras::ops::detail {

/// x1 (..., M, K) int8 @ x2 (K, N) int8 as int32 (..., M, N) in one backend call, when the
/// backend has QuantizedMatmul and x2 is a matrix; an undefined tensor otherwise (the caller
/// then casts to int32 and multiplies). Integer products have no gradient.
Tensor int8_matmul(const Tensor& x1, const Tensor& x2, Backend& be);

}  // namespace keras::ops::detail
