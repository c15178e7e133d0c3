#pragma once
// What the int4 layers (Dense, EinsumDense, Embedding) share: Keras's get_block_size_for_layer
// and the policy name quantize("int4") sets.

#include <optional>
#include <string>

#include "keras/layers/layer.h"
#include "keras/quantizers/int4.h"

namespace keras::layers::detail {

/// Keras's get_block_size_for_layer: an int4 config's block_size, else the block size of the
/// layer's "int4/<block_size>" policy; -1 for one scale per output channel (None or -1).
int64_t int4_block_size(const Layer& layer, const quantizers::QuantizationConfigPtr& config);

/// The block size quantize() uses: the config's own (Keras reads config.block_size); -1 for
/// per channel.
int64_t int4_block_size(const quantizers::QuantizationConfig& config);

/// "int4/<block_size>": the mode part of the policy quantize("int4") gives a float layer
/// ("int4/-1_from_float32" per channel, "int4/128_from_float32").
std::string int4_policy_mode(int64_t block_size);

/// ceil(n / block_size): the groups of sub-channel int4.
int64_t int4_groups(int64_t n, int64_t block_size);

/// What quantize("int4") stores for a kernel.
struct Int4Kernel {
  Tensor packed;  ///< int8, (rows, ceil(columns / 2))
  Tensor scale;   ///< (columns,) per channel, (ceil(rows / block_size), columns) with blocks
  Tensor zero;    ///< int8, the scale's shape with blocks; undefined per channel
};

/// A (rows, columns) float kernel quantized over its rows as Keras's Dense and EinsumDense
/// quantize("int4") do: with `per_channel` (an AbsMaxQuantizer over axis 0, range (-8, 7)) when
/// block_size <= 0, else abs_max_quantize_grouped_with_zero_point; then packed along the columns.
Int4Kernel quantize_int4_kernel(const Tensor& kernel, int64_t block_size,
                                const quantizers::AbsMaxQuantizer& per_channel);

/// The float kernel (rows, columns) in `dtype` that a Dense's packed int4 kernel stands for, as
/// Keras computes it: per channel (zero undefined) q / scale; per group dequantize_with_sz_map
/// through g_idx. Unpacked for one call; the stored kernel stays packed.
Tensor dequantize_int4_kernel(const Tensor& packed, int64_t columns, const Tensor& scale,
                              const Tensor& zero, const Tensor& g_idx, DType dtype);

}  // namespace keras::layers::detail
