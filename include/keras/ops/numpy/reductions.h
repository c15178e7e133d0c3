#pragma once
// keras.ops (numpy) reductions. `axis` is one axis, a list, or {} for all (ops::Axes);
// keepdims keeps reduced axes with extent 1.

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace numpy {

/// Sum; bool and small integers sum in int32 as in Keras.
Tensor sum(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Mean; integers average in floatx().
Tensor mean(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Maximum; NaN propagates. Reducing an empty axis is a ValueError.
Tensor max(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Minimum; NaN propagates. Reducing an empty axis is a ValueError.
Tensor min(const Tensor& x, const Axes& axis = {}, bool keepdims = false);

}  // namespace numpy
}  // namespace keras::ops
