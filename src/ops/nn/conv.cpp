// conv, depthwise_conv and separable_conv: argument checks and Keras's padding, then the
// conv_nd op (fused or decomposed).

#include <string>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/conv_ops.h"
#include "ops/nn/conv_pool.h"
#include "ops/nn/spatial_args.h"

namespace keras::ops {
inline namespace nn {

namespace {

// Keras (JAX) refuses a convolution whose output is empty when its input is not.
void check_not_empty(std::string_view op, const Tensor& x, const Tensor& kernel, const Shape& y) {
  check(!(y.numel() == 0 && x.size() != 0), op,
        ": the convolution would give an empty output of shape ", y, " for inputs of shape ",
        x.shape(), " and kernel of shape ", kernel.shape(), ".");
}

// A bias and activation to apply after the convolution (the Conv layers' epilogue), and
// whether 2x2 max pooling follows (a Conv2D -> MaxPooling2D pair run as one op).
struct Epilogue {
  Tensor bias;
  backend::Activation activation = backend::Activation::None;
  bool max_pool_2x2 = false;
};

// The conv of prepared (same dtype, same backend) tensors with `groups` groups, followed by
// `epilogue` when given.
Tensor grouped_conv(std::string_view op, const Tensor& x, const Tensor& kernel, int64_t groups,
                    const ConvOptions& options, bool channels_last,
                    const Epilogue* epilogue = nullptr) {
  const int d = x.ndim() - 2;
  auto strides = detail::spatial_values(op, "strides", options.strides, d, 1);
  auto dilation = detail::spatial_values(op, "dilation_rate", options.dilation_rate, d, 1);
  const bool same = detail::parse_padding(op, options.padding);
  backend::ConvSpec spec = detail::conv_spec(op, x.shape(), kernel.shape(), strides, dilation, same,
                                             channels_last, groups);
  check_not_empty(op, x, kernel, detail::conv_output_shape(x.shape(), kernel.shape(), spec));
  if (epilogue && epilogue->max_pool_2x2)
    return detail::conv_bias_activation_max_pool_nd(x, kernel, epilogue->bias,
                                                    epilogue->activation, spec);
  if (epilogue)
    return detail::conv_bias_activation_nd(x, kernel, epilogue->bias, epilogue->activation, spec);
  return detail::conv_nd(x, kernel, spec);
}

// Keras's check_conv_input_channels: kernel.shape[-2] must equal the input channels.
void check_input_channels(std::string_view op, const Tensor& x, const Tensor& kernel,
                          bool channels_last) {
  const int64_t c = detail::channels_of(x.shape(), channels_last);
  const int64_t kc = kernel.shape()[kernel.ndim() - 2];
  check(c == kc, op,
        ": the number of input channels must match the kernel's input channels; got "
        "inputs of shape ",
        x.shape(), " (", c, " channels, data_format '",
        channels_last ? "channels_last" : "channels_first", "') and kernel of shape ",
        kernel.shape(), " (", kc, " input channels).");
}

// ops::conv, with an epilogue when given.
Tensor checked_conv(const Tensor& inputs, const Tensor& kernel, const ConvOptions& options,
                    const Epilogue* epilogue) {
  constexpr std::string_view op = "conv";
  detail::check_conv_ranks(op, inputs, kernel);
  const bool cl = detail::parse_data_format(op, options.data_format);
  const int64_t c = detail::channels_of(inputs.shape(), cl);
  const int64_t kc = kernel.shape()[kernel.ndim() - 2], o = kernel.shape()[kernel.ndim() - 1];
  check(kc > 0 && c % kc == 0, op,
        ": the input channels must be a multiple of the kernel's input "
        "channels (kernel.shape[-2]; their ratio is the number of groups); got inputs of shape ",
        inputs.shape(), " (", c, " channels, data_format '",
        cl ? "channels_last" : "channels_first", "') and kernel of shape ", kernel.shape(), ".");
  const int64_t groups = c / kc;
  check(o % groups == 0, op, ": with ", groups, " groups (", c, " input channels over ", kc,
        " per group) the kernel's output channels (", o, ") must be a multiple of ", groups,
        "; got kernel of shape ", kernel.shape(), ".");
  auto& be = detail::common_backend(op, {&inputs, &kernel});
  const DType dtype = detail::conv_dtype(op, {&inputs, &kernel});
  return grouped_conv(op, detail::prepare(inputs, dtype, be), detail::prepare(kernel, dtype, be),
                      groups, options, cl, epilogue);
}

}  // namespace

Tensor conv(const Tensor& inputs, const Tensor& kernel, const ConvOptions& options) {
  return checked_conv(inputs, kernel, options, nullptr);
}

Tensor depthwise_conv(const Tensor& inputs, const Tensor& kernel, const ConvOptions& options) {
  constexpr std::string_view op = "depthwise_conv";
  detail::check_conv_ranks(op, inputs, kernel);
  const bool cl = detail::parse_data_format(op, options.data_format);
  check_input_channels(op, inputs, kernel, cl);
  auto& be = detail::common_backend(op, {&inputs, &kernel});
  const DType dtype = detail::conv_dtype(op, {&inputs, &kernel});
  // (*k, C, multiplier) is a grouped kernel (*k, 1, C * multiplier) with one group per channel.
  const int r = kernel.ndim();
  const int64_t c = kernel.shape()[r - 2];
  Shape grouped(kernel.shape().begin(), kernel.shape().end() - 2);
  grouped.push_back(1);
  grouped.push_back(c * kernel.shape()[r - 1]);
  Tensor k = reshape(detail::prepare(kernel, dtype, be), grouped);
  return grouped_conv(op, detail::prepare(inputs, dtype, be), k, c, options, cl);
}

Tensor separable_conv(const Tensor& inputs, const Tensor& depthwise_kernel,
                      const Tensor& pointwise_kernel, const ConvOptions& options) {
  constexpr std::string_view op = "separable_conv";
  const int d = detail::check_conv_ranks(op, inputs, depthwise_kernel);
  const bool cl = detail::parse_data_format(op, options.data_format);
  check_input_channels(op, inputs, depthwise_kernel, cl);
  check(pointwise_kernel.defined(), op, ": the pointwise kernel is an undefined tensor.");
  const Shape& ds = depthwise_kernel.shape();
  const Shape& ps = pointwise_kernel.shape();
  bool pointwise_ok = ps.rank() == inputs.ndim() && ps[d] == ds[d] * ds[d + 1];
  for (int i = 0; pointwise_ok && i < d; ++i) pointwise_ok = ps[i] == 1;
  std::string ones = "1";
  for (int i = 1; i < d; ++i) ones += ", 1";
  check(pointwise_ok, op, ": the pointwise kernel must have shape (", ones, ", ", ds[d] * ds[d + 1],
        ", filters) for a depthwise kernel of shape ", ds, "; got ", ps, ".");
  Tensor y = depthwise_conv(inputs, depthwise_kernel, options);
  ConvOptions pointwise{1, "valid", options.data_format, options.dilation_rate};
  return conv(y, pointwise_kernel, pointwise);
}

}  // namespace nn
}  // namespace keras::ops

namespace keras::ops::detail {

Tensor conv_bias_activation(const Tensor& inputs, const Tensor& kernel, const Tensor& bias,
                            backend::Activation activation, const ConvOptions& options) {
  const nn::Epilogue epilogue{bias, activation};
  return nn::checked_conv(inputs, kernel, options, &epilogue);
}

Tensor conv_bias_activation_max_pool(const Tensor& inputs, const Tensor& kernel,
                                     const Tensor& bias, backend::Activation activation,
                                     const ConvOptions& options) {
  const nn::Epilogue epilogue{bias, activation, true};
  return nn::checked_conv(inputs, kernel, options, &epilogue);
}

}  // namespace keras::ops::detail
