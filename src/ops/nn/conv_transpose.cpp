// conv_transpose: Keras's output size and padding rules (the JAX backend's), expressed as the
// input gradient of the forward conv that maps the output back to the input.

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/conv_ops.h"
#include "ops/nn/spatial_args.h"
#include "ops/nn/windows.h"

namespace keras::ops {
inline namespace nn {

namespace {

// Keras pads the stride-dilated input by (left, right) and correlates with the flipped kernel.
// Returns (left, right) for one spatial dimension; `output_padding` < 0 means unset.
std::pair<int64_t, int64_t> transpose_padding(int64_t window, int64_t stride, bool same,
                                              int64_t output_padding) {
  if (!same) {
    const int64_t extra = output_padding < 0 ? std::max(window, stride) - window : output_padding;
    return {window - 1, window - 1 + extra};
  }
  const int64_t total =
      output_padding < 0 ? stride + window - 2 : window + window % 2 - 2 + output_padding;
  const int64_t left = std::min(total / 2 + total % 2, window - 1);
  return {left, total - left};
}

}  // namespace

Tensor conv_transpose(const Tensor& inputs, const Tensor& kernel,
                      const ConvTransposeOptions& options) {
  constexpr std::string_view op = "conv_transpose";
  const int d = detail::check_conv_ranks(op, inputs, kernel);
  const bool cl = detail::parse_data_format(op, options.data_format);
  const int r = kernel.ndim();
  const int64_t c = detail::channels_of(inputs.shape(), cl);
  check(kernel.shape()[r - 1] == c, op,
        ": the number of input channels must match the kernel's "
        "input channels (kernel.shape[-1]); got inputs of shape ",
        inputs.shape(), " (", c, " channels, data_format '",
        cl ? "channels_last" : "channels_first", "') and kernel of shape ", kernel.shape(), ".");
  auto strides = detail::spatial_values(op, "strides", options.strides, d, 1);
  auto dilation = detail::spatial_values(op, "dilation_rate", options.dilation_rate, d, 1);
  const bool same = detail::parse_padding(op, options.padding);
  detail::Spatial output_padding(static_cast<size_t>(d), -1);
  if (options.output_padding)
    output_padding = detail::spatial_values(op, "output_padding", *options.output_padding, d, 0);

  // The forward conv from the output (extent L) back to the input: padding keff - 1 - left
  // before and keff - 1 - right after. A negative amount after means trailing output positions
  // no window reaches: they are computed on the shorter extent and zero-padded at the end.
  detail::Spatial in = detail::spatial_of(inputs.shape(), cl), out, trimmed, zeros_after;
  backend::ConvSpec spec;
  spec.spatial_dims = d;
  spec.channels_last = cl;
  for (int i = 0; i < d; ++i) {
    const int64_t window = (kernel.shape()[i] - 1) * dilation[i] + 1;
    auto [left, right] = transpose_padding(window, strides[i], same, output_padding[i]);
    const int64_t extent = (in[i] - 1) * strides[i] + 1 + left + right - (window - 1);
    const int64_t after = window - 1 - right;
    out.push_back(extent);
    trimmed.push_back(after < 0 ? extent + after : extent);
    zeros_after.push_back(after < 0 ? -after : 0);
    spec.strides.push_back(strides[i]);
    spec.dilation.push_back(dilation[i]);
    spec.pad_before.push_back(window - 1 - left);
    spec.pad_after.push_back(std::max<int64_t>(after, 0));
  }
  auto& be = detail::common_backend(op, {&inputs, &kernel});
  const DType dtype = detail::conv_dtype(op, {&inputs, &kernel});
  const int64_t filters = kernel.shape()[r - 2];
  Tensor y = detail::conv_input_grad(detail::prepare(inputs, dtype, be),
                                     detail::prepare(kernel, dtype, be), spec,
                                     detail::layout_shape(inputs.shape()[0], trimmed, filters, cl));
  if (trimmed == out) return y;
  if (!cl) y = transpose(y, detail::to_channels_last_perm(y.ndim()));
  y = detail::pad_spatial(y, detail::Spatial(static_cast<size_t>(d), 0), zeros_after, 0);
  return cl ? y : transpose(y, detail::to_channels_first_perm(y.ndim()));
}

}  // namespace nn
}  // namespace keras::ops
