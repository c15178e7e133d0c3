#include "keras/layers/convolutional/conv.h"

#include <algorithm>

#include "keras/ops/ops.h"
#include "layers/convolutional/conv_common.h"
#include "ops/nn/conv_ops.h"
#include "ops/nn/epilogue.h"

namespace keras::layers {

BaseConvLayer::BaseConvLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                             BaseConvOptions options, const std::string& class_name)
    : LoraLayer(base_options(options), to_snake_case(class_name), options.lora_rank,
                options.lora_alpha),
      class_(class_name),
      rank_(rank),
      filters_(filters),
      options_(std::move(options)) {
  kernel_size_ = detail::standardize_tuple(class_, kernel_size, rank, "kernel_size");
  strides_ = detail::standardize_tuple(class_, options_.strides, rank, "strides");
  dilation_rate_ = detail::standardize_tuple(class_, options_.dilation_rate, rank, "dilation_rate");
  padding_ = detail::standardize_padding(class_, options_.padding, /*allow_causal=*/rank == 1);
  data_format_ = detail::standardize_data_format(class_, options_.data_format);
  check(filters > 0, class_,
        ": `filters` must be a strictly positive integer; got filters=", filters, ".");
  check(options_.groups > 0, class_,
        ": the number of groups must be a positive integer; got groups=", options_.groups, ".");
  check(filters % options_.groups == 0, class_,
        ": the number of filters must be evenly divisible by the number of groups; got filters=",
        filters, ", groups=", options_.groups, ".");
  const bool strided = *std::max_element(strides_.begin(), strides_.end()) > 1;
  const bool dilated = *std::max_element(dilation_rate_.begin(), dilation_rate_.end()) > 1;
  check(!(strided && dilated), class_,
        ": `strides > 1` is not supported in conjunction with `dilation_rate > 1`; got strides=",
        detail::tuple_string(strides_), " and dilation_rate=", detail::tuple_string(dilation_rate_),
        ".");
  set_activity_regularizer(options_.activity_regularizer);
}

void BaseConvLayer::build(const Shape& input_shape) {
  const bool cl = data_format_ == "channels_last";
  input_channels_ = detail::build_input_channels(class_, name(), input_shape, rank_, cl);
  check(input_channels_ % options_.groups == 0, class_, " '", name(),
        "': the number of input channels must be evenly divisible by the number of groups; got "
        "groups=",
        options_.groups, " and input shape ", shape_string(input_shape), " (", input_channels_,
        " channels).");
  detail::check_conv_output(class_, name(), input_shape, kernel_size_, strides_, dilation_rate_,
                            padding_, cl);
  Shape kernel_shape(kernel_size_);
  kernel_shape.push_back(input_channels_ / options_.groups);
  kernel_shape.push_back(filters_);
  kernel_ = add_weight({.shape = kernel_shape,
                        .initializer = options_.kernel_initializer,
                        .regularizer = options_.kernel_regularizer,
                        .constraint = options_.kernel_constraint,
                        .name = "kernel"});
  if (options_.use_bias)
    bias_ = add_weight({.shape = {filters_},
                        .initializer = options_.bias_initializer,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
  enable_configured_lora(/*pass_alpha=*/true);
}

LoraLayer::LoraTarget BaseConvLayer::lora_target() const {
  return kernel_target(kernel_, options_.kernel_regularizer, options_.kernel_constraint);
}

Tensor BaseConvLayer::call(const Tensor& inputs, const CallContext&) {
  const bool cl = data_format_ == "channels_last";
  detail::check_call_input(class_, name(), inputs.shape(), rank_, cl, input_channels_);
  Tensor x = ops::cast(inputs, compute_dtype());
  std::string padding = padding_;
  if (padding_ == "causal") {
    // Keras's Conv1D: pad dilation * (kernel - 1) steps on the left, then a "valid" conv.
    const int64_t left = dilation_rate_[0] * (kernel_size_[0] - 1);
    ops::PadWidth pad =
        cl ? ops::PadWidth{{0, 0}, {left, 0}, {0, 0}} : ops::PadWidth{{0, 0}, {0, 0}, {left, 0}};
    x = ops::pad(x, pad);
    padding = "valid";
  }
  const ops::ConvOptions conv_options{.strides = ops::IntOrTuple(strides_),
                                      .padding = padding,
                                      .data_format = data_format_,
                                      .dilation_rate = ops::IntOrTuple(dilation_rate_)};
  // channels_last: the bias and a fusable activation go with the conv into one backend call.
  if (auto act = ops::detail::fusable_activation(options_.activation); act && cl)
    return ops::detail::conv_bias_activation(
        x, kernel(), options_.use_bias ? bias_.value() : Tensor(), *act, conv_options);
  Tensor y = ops::conv(x, kernel(), conv_options);
  return detail::add_bias_and_activate(y, bias_, options_.use_bias, cl, options_.activation);
}

Config BaseConvLayer::get_config() const {
  Config c = Layer::get_config();
  c["filters"] = filters_;
  c["kernel_size"] = detail::tuple_config(kernel_size_);
  c["strides"] = detail::tuple_config(strides_);
  c["padding"] = padding_;
  c["data_format"] = data_format_;
  c["dilation_rate"] = detail::tuple_config(dilation_rate_);
  c["groups"] = options_.groups;
  c["activation"] = activations::serialize(options_.activation);
  c["use_bias"] = options_.use_bias;
  c["kernel_initializer"] = initializers::serialize(*options_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  c["kernel_regularizer"] = detail::regularizer_config(options_.kernel_regularizer);
  c["bias_regularizer"] = detail::regularizer_config(options_.bias_regularizer);
  c["activity_regularizer"] = detail::regularizer_config(options_.activity_regularizer);
  c["kernel_constraint"] = detail::constraint_config(options_.kernel_constraint);
  c["bias_constraint"] = detail::constraint_config(options_.bias_constraint);
  add_lora_config(c);
  return c;
}

std::tuple<int64_t, ops::IntOrTuple, BaseConvOptions> BaseConvLayer::parse_config(const Config& c) {
  BaseConvOptions o;
  read_base_config(c, o);
  if (c.contains("strides")) o.strides = detail::int_or_tuple(c["strides"]);
  if (c.contains("padding")) o.padding = c["padding"].get<std::string>();
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  if (c.contains("dilation_rate")) o.dilation_rate = detail::int_or_tuple(c["dilation_rate"]);
  if (c.contains("groups")) o.groups = c["groups"].get<int64_t>();
  detail::read_activation(c, o.activation);
  if (c.contains("use_bias")) o.use_bias = c["use_bias"].get<bool>();
  detail::read_initializer(c, "kernel_initializer", o.kernel_initializer);
  detail::read_initializer(c, "bias_initializer", o.bias_initializer);
  detail::read_regularizer(c, "kernel_regularizer", o.kernel_regularizer);
  detail::read_regularizer(c, "bias_regularizer", o.bias_regularizer);
  detail::read_regularizer(c, "activity_regularizer", o.activity_regularizer);
  detail::read_constraint(c, "kernel_constraint", o.kernel_constraint);
  detail::read_constraint(c, "bias_constraint", o.bias_constraint);
  read_lora_config(c, o.lora_rank, o.lora_alpha);
  return {c.at("filters").get<int64_t>(), detail::int_or_tuple(c.at("kernel_size")), o};
}

Conv1DLayer::Conv1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv1DOptions options)
    : BaseConvLayer(1, filters, kernel_size, std::move(options), "Conv1D") {}
Conv2DLayer::Conv2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv2DOptions options)
    : BaseConvLayer(2, filters, kernel_size, std::move(options), "Conv2D") {}
Conv3DLayer::Conv3DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv3DOptions options)
    : BaseConvLayer(3, filters, kernel_size, std::move(options), "Conv3D") {}

std::shared_ptr<Layer> Conv1DLayer::from_config(const Config& config) {
  auto [filters, kernel_size, options] = parse_config(config);
  return std::make_shared<Conv1DLayer>(filters, kernel_size, options);
}
std::shared_ptr<Layer> Conv2DLayer::from_config(const Config& config) {
  auto [filters, kernel_size, options] = parse_config(config);
  return std::make_shared<Conv2DLayer>(filters, kernel_size, options);
}
std::shared_ptr<Layer> Conv3DLayer::from_config(const Config& config) {
  auto [filters, kernel_size, options] = parse_config(config);
  return std::make_shared<Conv3DLayer>(filters, kernel_size, options);
}

LayerPtr<Conv1DLayer> Conv1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                             Conv1DOptions options) {
  return make_layer<Conv1DLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<Conv2DLayer> Conv2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                             Conv2DOptions options) {
  return make_layer<Conv2DLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<Conv3DLayer> Conv3D(int64_t filters, const ops::IntOrTuple& kernel_size,
                             Conv3DOptions options) {
  return make_layer<Conv3DLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<Conv1DLayer> Convolution1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv1DOptions options) {
  return Conv1D(filters, kernel_size, std::move(options));
}
LayerPtr<Conv2DLayer> Convolution2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv2DOptions options) {
  return Conv2D(filters, kernel_size, std::move(options));
}
LayerPtr<Conv3DLayer> Convolution3D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv3DOptions options) {
  return Conv3D(filters, kernel_size, std::move(options));
}

}  // namespace keras::layers
