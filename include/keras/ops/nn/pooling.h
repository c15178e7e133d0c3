#pragma once
// keras.ops.nn pooling: max_pool, average_pool, adaptive pools.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace nn {

}  // namespace nn
}  // namespace keras::ops
