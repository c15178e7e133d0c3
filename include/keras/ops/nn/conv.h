#pragma once
// keras.ops.nn convolutions: conv, conv_transpose, depthwise_conv, separable_conv; the patch
// rearrangements unfold (im2col) and fold (col2im); depth_to_space and space_to_depth.
//
// Layouts are Keras's: inputs (N, *spatial, C) for data_format "channels_last" or
// (N, C, *spatial) for "channels_first"; conv kernels (*k, C / groups, C_out), conv_transpose
// kernels (*k, C_out, C_in), depthwise kernels (*k, C, multiplier). An unset data_format means
// keras::config::image_data_format().

#include <optional>
#include <string>

#include "keras/ops/nn/spatial.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// Keyword arguments of conv, depthwise_conv and separable_conv.
struct ConvOptions {
  /// The step of the window along each spatial dimension.
  IntOrTuple strides = 1;
  /// "valid" (no padding) or "same" (pad so the output size is ceil(input / stride), TF/JAX
  /// arithmetic); any case.
  std::string padding = "valid";  // "valid" or "same" (TF/JAX arithmetic), any case
  /// "channels_last" or "channels_first"; unset means keras::config::image_data_format().
  std::optional<std::string> data_format;
  /// The spacing of the kernel's taps along each spatial dimension (atrous convolution).
  IntOrTuple dilation_rate = 1;
};

/// Keyword arguments of conv_transpose.
struct ConvTransposeOptions {
  /// The step of the window along each spatial dimension (the upsampling factor).
  IntOrTuple strides = 1;
  /// "valid" or "same", any case, with Keras's output-size rules.
  std::string padding = "valid";
  /// Extra size added after the output along each spatial dimension; unset infers it.
  std::optional<IntOrTuple> output_padding;
  /// "channels_last" or "channels_first"; unset means keras::config::image_data_format().
  std::optional<std::string> data_format;
  /// The spacing of the kernel's taps along each spatial dimension.
  IntOrTuple dilation_rate = 1;
};

/// N-d cross-correlation (1, 2 or 3 spatial dims); groups = C / kernel.shape[-2].
Tensor conv(const Tensor& inputs, const Tensor& kernel, const ConvOptions& options = {});
/// Transposed convolution (the gradient of conv with respect to its input).
Tensor conv_transpose(const Tensor& inputs, const Tensor& kernel,
                      const ConvTransposeOptions& options = {});
/// Depthwise convolution: every input channel with its own `multiplier` filters.
Tensor depthwise_conv(const Tensor& inputs, const Tensor& kernel, const ConvOptions& options = {});
/// depthwise_conv followed by a 1x1 conv with `pointwise_kernel` (*ones, C * mult, C_out).
Tensor separable_conv(const Tensor& inputs, const Tensor& depthwise_kernel,
                      const Tensor& pointwise_kernel, const ConvOptions& options = {});

/// Sliding blocks of a (N, C, H, W) tensor as columns: (N, C * kH * kW, L) (im2col).
Tensor unfold(const Tensor& x, const IntOrTuple& kernel_size, const IntOrTuple& dilation = 1,
              const IntOrTuple& padding = 0, const IntOrTuple& stride = 1);
/// Sums columns (N, C * kH * kW, L) back into an image (N, C, oH, oW) (col2im).
Tensor fold(const Tensor& x, const IntOrTuple& output_size, const IntOrTuple& kernel_size,
            const IntOrTuple& dilation = 1, const IntOrTuple& padding = 0,
            const IntOrTuple& stride = 1);

/// Moves blocks of channels into space: (N, H, W, C * b * b) -> (N, H * b, W * b, C).
Tensor depth_to_space(const Tensor& x, int64_t block_size,
                      const std::string& data_format = "channels_last");
/// Moves blocks of space into channels: (N, H * b, W * b, C) -> (N, H, W, C * b * b).
Tensor space_to_depth(const Tensor& x, int64_t block_size,
                      const std::string& data_format = "channels_last");

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop
