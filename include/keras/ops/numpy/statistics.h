#pragma once
// keras.ops (numpy) statistics: var, std, median, quantile, histogram, ...

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace numpy {

}  // namespace numpy
}  // namespace keras::ops
