#pragma once
// keras.quantizers' int4 pieces as Keras 3.15 computes them (keras/src/quantizers/quantizers.py,
// quantization_config.py): two signed 4-bit values per int8 byte, the grouped asymmetric
// quantizer of sub-channel int4, its dequantization through a group map, and
// Int4QuantizationConfig with Keras's checks.
//
//   Tensor packed = quantizers::pack_int4(q, -1);            // (in, units) -> (in, ceil(units/2))
//   Tensor q2 = quantizers::unpack_int4(packed, units, -1);  // back, padding dropped
//   model->quantize("int4", quantizers::Int4QuantizationConfig({.block_size = 64}));

#include <cstdint>
#include <optional>
#include <utility>

#include "keras/quantizers/quantizers.h"

#pragma GCC visibility push(default)
namespace keras::quantizers {

/// keras.quantizers.pack_int4(x, axis, dtype): int8 values in [-8, 7] (or, with dtype uint8,
/// uint8 values in [0, 15], as GPTQ and AWQ store them) packed two per byte along `axis` (an
/// odd length is padded with a zero): byte j holds element 2j in its low nibble and element
/// 2j + 1 in its high nibble. The packed tensor has `dtype` and ceil(n / 2) along `axis`;
/// unpack_int4 needs n back. TypeError unless x has `dtype`; ValueError for another dtype.
Tensor pack_int4(const Tensor& x, int axis = 0, DType dtype = DType::Int8);

/// keras.quantizers.unpack_int4(packed, orig_len, axis, dtype): the values pack_int4 packed
/// (int8 or uint8 bytes), as `dtype` (int8: each nibble's two's complement, in [-8, 7]; uint8:
/// [0, 15]), the padding removed (orig_len along `axis`).
Tensor unpack_int4(const Tensor& packed, int64_t orig_len, int axis = 0,
                   DType dtype = DType::Int8);

/// The result of abs_max_quantize_grouped_with_zero_point: x ~ (values - zero) * scale.
struct GroupedQuantized {
  Tensor values;  ///< int8, x's shape
  Tensor scale;   ///< x's dtype, (n_groups, columns)
  Tensor zero;    ///< int8, (n_groups, columns)
};

/// keras.quantizers.abs_max_quantize_grouped_with_zero_point(x, block_size, to_numpy=True) for a
/// 2-D x of shape (rows, columns): rows in groups of `block_size` (the last group zero-padded,
/// the padding counting in its min and max, as Keras), per group and column
/// scale = (max - min + epsilon) / (qmax - qmin), zero = clip(round(-min / scale) + qmin),
/// values = clip(round(x / scale) + zero), all in x's dtype with NumPy's half-to-even rounding.
GroupedQuantized abs_max_quantize_grouped_with_zero_point(
    const Tensor& x, int64_t block_size, std::pair<double, double> value_range = {-8, 7},
    double epsilon = 1e-7);

/// keras.quantizers.dequantize_with_sz_map: (values - zero[g]) * scale[g], the group g of each
/// position along `group_axis` of scale and zero read from g_idx (a float32 or integer vector).
/// The result has scale's dtype.
Tensor dequantize_with_sz_map(const Tensor& values, const Tensor& scale, const Tensor& zero,
                              const Tensor& g_idx, int group_axis = -1);

/// The g_idx Keras builds for `n` positions in groups of `block_size`: floor(i / block_size) as
/// float32.
Tensor group_index(int64_t n, int64_t block_size);

/// Keras's Int4QuantizationConfig arguments.
struct Int4QuantizationConfigOptions {
  /// Rows per group along the input axis; -1 or unset: per channel (one scale per output).
  std::optional<int64_t> block_size = 128;
  /// Per channel only; needs value_range (-8, 7).
  std::optional<AbsMaxQuantizer> weight_quantizer;
  /// Per channel only; unset: weight-only int4 (Keras's default).
  std::optional<AbsMaxQuantizer> activation_quantizer;
};

/// keras.quantizers.Int4QuantizationConfig(...), checked as Keras's constructor (ValueError).
QuantizationConfigPtr Int4QuantizationConfig(Int4QuantizationConfigOptions options = {});

/// Keras's Int4QuantizationConfig checks: block_size None, -1 or positive; no custom quantizer
/// with sub-channel blocks; a weight quantizer of value_range (-8, 7). ValueError otherwise.
void validate_int4_config(const QuantizationConfig& config);

}  // namespace keras::quantizers

#pragma GCC visibility pop
