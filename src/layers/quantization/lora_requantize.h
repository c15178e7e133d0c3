#pragma once
// Saving a quantized layer with LoRA (QLoRA), as Keras 3.15's _get_kernel_with_merged_lora:
// the base dequantized, the adapters' update added in float, then quantized again.

#include <string>

#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// A merged kernel quantized again.
struct RequantizedKernel {
  Tensor values;  ///< int8: (rows, columns); int4: packed along the columns
  Tensor scale;   ///< (columns,), or (groups, columns) for int4 in blocks
  Tensor zero;    ///< int4 in blocks only (the scale's shape); undefined otherwise
};

/// A (rows, columns) float kernel quantized over its rows as Keras requantizes a merged kernel:
/// abs_max_quantize over axis 0 (int8: range (-127, 127); int4 per channel, block_size <= 0:
/// (-8, 7), packed), or grouped with zero points in blocks of `block_size` rows (int4). Keras
/// uses these defaults here whatever weight_quantizer the config holds.
RequantizedKernel requantize_merged_kernel(const Tensor& merged, const std::string& mode,
                                           int64_t block_size);

}  // namespace keras::layers::detail
