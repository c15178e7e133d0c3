#pragma once
// keras.ops.nn activations, softmax and log_softmax.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace nn {

}  // namespace nn
}  // namespace keras::ops
