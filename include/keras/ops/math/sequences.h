#pragma once
// keras.ops.math: extract_sequences, cdist.

#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace math {

}  // namespace math
}  // namespace keras::ops
