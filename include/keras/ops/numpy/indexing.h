#pragma once
// keras.ops (numpy) indexing: take, take_along_axis, get_item, ...

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace numpy {

}  // namespace numpy
}  // namespace keras::ops
