#pragma once
// keras.ops.nn pooling: max_pool, average_pool, adaptive_average_pool, adaptive_max_pool.
// Inputs are (N, *spatial, C) for "channels_last" or (N, C, *spatial) for "channels_first",
// with 1, 2 or 3 spatial dims; an unset data_format means keras::config::image_data_format().

#include <optional>
#include <string>

#include "keras/ops/nn/spatial.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// Keyword arguments of max_pool and average_pool.
struct PoolOptions {
  /// The step of the window along each spatial dimension; unset means pool_size.
  std::optional<IntOrTuple> strides;  // unset: pool_size
  /// "valid" (no padding) or "same" (TF/JAX arithmetic), any case.
  std::string padding = "valid";      // "valid" or "same" (TF/JAX arithmetic), any case
  /// "channels_last" or "channels_first"; unset means keras::config::image_data_format().
  std::optional<std::string> data_format;
};

/// Maximum over sliding windows of the spatial dimensions.
Tensor max_pool(const Tensor& inputs, const IntOrTuple& pool_size, const PoolOptions& options = {});
/// Mean over sliding windows; with "same" padding the padded positions are not counted.
Tensor average_pool(const Tensor& inputs, const IntOrTuple& pool_size,
                    const PoolOptions& options = {});
/// Mean over windows sized so that the spatial dimensions become `output_size` (as PyTorch).
Tensor adaptive_average_pool(const Tensor& inputs, const IntOrTuple& output_size,
                             const std::optional<std::string>& data_format = std::nullopt);
/// Maximum over windows sized so that the spatial dimensions become `output_size`.
Tensor adaptive_max_pool(const Tensor& inputs, const IntOrTuple& output_size,
                         const std::optional<std::string>& data_format = std::nullopt);

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop
