#pragma once
// keras.ops (numpy) shape manipulation. Reshape (when the layout allows), transpose,
// expand_dims, squeeze, broadcast_to and slicing return views that share storage.

#include <vector>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops {
inline namespace numpy {

/// `x` with a new shape of the same size; one dimension may be -1 (inferred).
Tensor reshape(const Tensor& x, const Shape& new_shape);
/// Axes permuted; reversed when `axes` is empty.
Tensor transpose(const Tensor& x, const std::vector<int>& axes = {});
/// A new axis of extent 1 at `axis` (or at each listed axis).
Tensor expand_dims(const Tensor& x, const Axes& axis);
/// Axes of extent 1 removed (all of them, or the listed ones, which must have extent 1).
Tensor squeeze(const Tensor& x, const Axes& axis = {});
/// `x` broadcast to `shape`, as a view.
Tensor broadcast_to(const Tensor& x, const Shape& shape);
/// `x` as 1-d.
Tensor ravel(const Tensor& x);
/// The tensors joined along an existing axis.
Tensor concatenate(const std::vector<Tensor>& xs, int axis = 0);
/// The tensors joined along a new axis.
Tensor stack(const std::vector<Tensor>& xs, int axis = 0);

}  // namespace numpy
}  // namespace keras::ops
