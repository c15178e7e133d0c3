#pragma once
// keras.ops.math elementwise functions: erf, erfc, erfinv, rsqrt.

#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace math {

}  // namespace math
}  // namespace keras::ops
