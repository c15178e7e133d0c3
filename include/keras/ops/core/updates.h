#pragma once
// keras.ops core: scatter, scatter_update, slice, slice_update, unstack, saturate_cast.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace core {

}  // namespace core
}  // namespace keras::ops
