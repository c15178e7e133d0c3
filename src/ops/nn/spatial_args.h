#pragma once
// Argument handling shared by the convolution and pooling ops: data formats, Keras's
// "int or tuple" arguments, padding modes and the TF/JAX "same" arithmetic.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "keras/backend/primitives.h"
#include "keras/ops/nn/spatial.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

using Spatial = SmallVector<int64_t, 3>;

/// "(2, 3)" for messages.
std::string tuple_string(const Spatial& v);

/// True for "channels_last", false for "channels_first"; unset reads config::image_data_format().
bool parse_data_format(std::string_view op, const std::optional<std::string>& data_format);
/// True for "same", false for "valid" (any case); ValueError naming `op` otherwise.
bool parse_padding(std::string_view op, std::string_view padding);
/// One value per spatial dimension, each >= min_value; ValueError naming `op` and `what`.
Spatial spatial_values(std::string_view op, std::string_view what, const IntOrTuple& v, int n,
                       int64_t min_value);

/// The spatial extents of a (N, *s, C) or (N, C, *s) shape.
Spatial spatial_of(const Shape& shape, bool channels_last);
/// The channel extent of a (N, *s, C) or (N, C, *s) shape.
int64_t channels_of(const Shape& shape, bool channels_last);
/// (n, *spatial, c) or (n, c, *spatial).
Shape layout_shape(int64_t n, const Spatial& spatial, int64_t c, bool channels_last);

/// TF/JAX "SAME" padding (before, after) of one dimension: the output has ceil(size / stride)
/// positions and the odd pixel of padding goes after.
std::pair<int64_t, int64_t> same_padding(int64_t size, int64_t window, int64_t stride);

/// Output extent of a window `window` (dilated already) moved by `stride` over `size` plus
/// padding; may be <= 0 when the window does not fit.
inline int64_t window_count(int64_t size, int64_t pad, int64_t window, int64_t stride) {
  const int64_t span = size + pad - window;
  return span < 0 ? 0 : span / stride + 1;
}

/// The output shape of a convolution of x (layout per spec) with a (*k, C/g, O) kernel.
Shape conv_output_shape(const Shape& x, const Shape& kernel, const backend::ConvSpec& spec);
/// The output shape of a pooling of x.
Shape pool_output_shape(const Shape& x, const backend::PoolSpec& spec);

/// Permutation moving channels_first axes to channels_last ((0, 2, ..., 1)) and back.
std::vector<int> to_channels_last_perm(int rank);
std::vector<int> to_channels_first_perm(int rank);

}  // namespace keras::ops::detail

namespace keras::ops::detail {

/// Checks that `x` has 1 to 3 spatial dimensions (rank 3 to 5) and `kernel` the same rank with
/// non-empty windows; returns the number of spatial dimensions.
int check_conv_ranks(std::string_view op, const Tensor& x, const Tensor& kernel);
/// The floating dtype the inputs are computed in (Keras's result_type); TypeError naming `op`
/// for integer or bool inputs.
DType conv_dtype(std::string_view op, std::initializer_list<const Tensor*> inputs);
/// A ConvSpec for x of shape `x_shape` and kernel windows `kernel`, with Keras's padding;
/// ValueError when a "valid" output would be empty.
backend::ConvSpec conv_spec(std::string_view op, const Shape& x_shape, const Shape& kernel_shape,
                            const Spatial& strides, const Spatial& dilation, bool same,
                            bool channels_last, int64_t groups);

}  // namespace keras::ops::detail
