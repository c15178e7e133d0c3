#pragma once
// keras.ops.nn dot_product_attention.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace nn {

}  // namespace nn
}  // namespace keras::ops
