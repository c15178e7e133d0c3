#pragma once
// keras.ops (numpy) sorting, searching and set operations.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace numpy {

}  // namespace numpy
}  // namespace keras::ops
