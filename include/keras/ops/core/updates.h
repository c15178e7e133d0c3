#pragma once
// keras.ops core: scatter, scatter_update, slice, slice_update, unstack, saturate_cast.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace core {

/// zeros(shape) with `values` added at `indices` (as tf.scatter_nd: indices (..., k) address the
/// first k axes, values have shape indices.shape[:-1] + shape[k:]; duplicates are summed).
Tensor scatter(const Tensor& indices, const Tensor& values, const Shape& shape);
/// `inputs` with `updates` written at `indices` (same layout as scatter). `reduction` None
/// assigns (the last duplicate wins); "add", "mul", "max", "min" combine instead.
Tensor scatter_update(const Tensor& inputs, const Tensor& indices, const Tensor& updates,
                      std::optional<std::string_view> reduction = std::nullopt);
/// inputs[start:start + shape] (a view); -1 in `shape` takes the rest of that axis.
Tensor slice(const Tensor& inputs, const std::vector<int64_t>& start_indices, const Shape& shape);
/// `inputs` with the block at `start_indices` replaced by `updates` (cast to inputs' dtype).
Tensor slice_update(const Tensor& inputs, const std::vector<int64_t>& start_indices,
                    const Tensor& updates);
/// The entries of `x` along `axis`, as views; `num`, when given, must equal that extent.
TensorList unstack(const Tensor& x, std::optional<int64_t> num = std::nullopt, int axis = 0);
/// `x` cast to `dtype` after clipping to the range `dtype` can hold (no wrap-around).
Tensor saturate_cast(const Tensor& x, DType dtype);

}  // namespace core
}  // namespace keras::ops

#pragma GCC visibility pop
