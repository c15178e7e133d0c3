#pragma once
// keras.ops.nn cross-entropies.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace nn {

}  // namespace nn
}  // namespace keras::ops
