#pragma once
// keras.ops.nn one_hot, multi_hot.

#include <optional>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// One-hot encoding: a new axis of length `num_classes` at `axis` (dtype floatx() by default).
/// Labels outside [0, num_classes) give all-zero vectors, as in Keras. `sparse` outputs are not
/// supported (NotImplementedError).
Tensor one_hot(const Tensor& x, int64_t num_classes, int axis = -1,
               std::optional<DType> dtype = std::nullopt, bool sparse = false);
/// Multi-hot encoding: one_hot of int32(x), then the maximum over axis 1 (axis 0 for inputs of
/// rank <= 1), as Keras does. `sparse` outputs are not supported (NotImplementedError).
Tensor multi_hot(const Tensor& x, int64_t num_classes, int axis = -1,
                 std::optional<DType> dtype = std::nullopt, bool sparse = false);

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop
