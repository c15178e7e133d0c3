#pragma once
// keras.ops.nn convolutions: conv, conv_transpose, depthwise_conv, separable_conv.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace nn {

}  // namespace nn
}  // namespace keras::ops
