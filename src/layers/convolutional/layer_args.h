#pragma once
// Argument handling shared by the convolution and pooling layers: Keras's standardize_tuple,
// standardize_padding and standardize_data_format, the output-size arithmetic their
// compute_output_shape uses (to refuse an empty output at build time), and config helpers.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/core/json.h"
#include "keras/core/shape.h"
#include "keras/ops/nn/spatial.h"
#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

using Tuple = std::vector<int64_t>;

/// `value` as `n` ints (an int repeats); ValueError naming the layer class and `arg` when the
/// length is wrong or a value is not > 0 (>= 0 with allow_zero).
Tuple standardize_tuple(const std::string& layer, const ops::IntOrTuple& value, int n,
                        const std::string& arg, bool allow_zero = false);
/// "valid", "same" (and "causal" when allowed), lowercased; ValueError otherwise.
std::string standardize_padding(const std::string& layer, const std::string& padding,
                                bool allow_causal = false);
/// "channels_last" or "channels_first"; empty means config::image_data_format().
std::string standardize_data_format(const std::string& layer, const std::string& data_format);

/// The output length of a window of `kernel` (undilated) with `stride` and `dilation` over
/// `length` under `padding` ("valid", "same" or "causal"); -1 for an unknown length.
int64_t conv_output_length(int64_t length, int64_t kernel, int64_t stride, int64_t dilation,
                           const std::string& padding);
/// The output length of a transposed convolution (Keras's
/// compute_conv_transpose_output_shape); -1 for an unknown length.
int64_t conv_transpose_output_length(int64_t length, int64_t kernel, int64_t stride,
                                     int64_t dilation, const std::string& padding,
                                     std::optional<int64_t> output_padding);

/// The spatial extents of an input shape (rank + 2 dims) in `data_format`.
Tuple spatial_dims(const Shape& shape, bool channels_last);
/// The channel extent of an input shape in `data_format`.
int64_t channel_dim(const Shape& shape, bool channels_last);

/// Checks an input's rank (rank + 2) for `layer` of class `cls`: ValueError naming both and the
/// shape received.
void check_input_rank(const std::string& cls, const std::string& layer, const Shape& shape,
                      int spatial_rank);

/// "(2, 3)" for messages.
std::string tuple_string(const Tuple& values);
/// A tuple in a config: a JSON list.
Config tuple_config(const Tuple& values);
/// An int or a list of ints from a config.
ops::IntOrTuple int_or_tuple(const Config& value);

/// `x` cast to `dtype` when it is floating (Keras's autocast of floating inputs).
Tensor autocast(const Tensor& x, DType dtype);

}  // namespace keras::layers::detail
