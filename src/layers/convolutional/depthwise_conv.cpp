#include "keras/layers/convolutional/depthwise_conv.h"

#include "keras/ops/ops.h"
#include "layers/convolutional/conv_common.h"

namespace keras::layers {

BaseDepthwiseConvLayer::BaseDepthwiseConvLayer(int rank, const ops::IntOrTuple& kernel_size,
                                               BaseDepthwiseConvOptions options,
                                               const std::string& class_name)
    : Layer(base_options(options), to_snake_case(class_name)),
      class_(class_name),
      rank_(rank),
      options_(std::move(options)) {
  kernel_size_ = detail::standardize_tuple(class_, kernel_size, rank, "kernel_size");
  strides_ = detail::standardize_tuple(class_, options_.strides, rank, "strides");
  dilation_rate_ = detail::standardize_tuple(class_, options_.dilation_rate, rank, "dilation_rate");
  padding_ = detail::standardize_padding(class_, options_.padding);
  data_format_ = detail::standardize_data_format(class_, options_.data_format);
  check(options_.depth_multiplier > 0, class_,
        ": `depth_multiplier` must be a strictly positive integer; got depth_multiplier=",
        options_.depth_multiplier, ".");
  set_activity_regularizer(options_.activity_regularizer);
}

void BaseDepthwiseConvLayer::build(const Shape& input_shape) {
  const bool cl = data_format_ == "channels_last";
  input_channels_ = detail::build_input_channels(class_, name(), input_shape, rank_, cl);
  detail::check_conv_output(class_, name(), input_shape, kernel_size_, strides_, dilation_rate_,
                            padding_, cl);
  Shape kernel_shape(kernel_size_);
  kernel_shape.push_back(input_channels_);
  kernel_shape.push_back(options_.depth_multiplier);
  kernel_ = add_weight({.shape = kernel_shape,
                        .initializer = options_.depthwise_initializer,
                        .regularizer = options_.depthwise_regularizer,
                        .constraint = options_.depthwise_constraint,
                        .name = "kernel"});
  if (options_.use_bias)
    bias_ = add_weight({.shape = {input_channels_ * options_.depth_multiplier},
                        .initializer = options_.bias_initializer,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
}

Tensor BaseDepthwiseConvLayer::call(const Tensor& inputs, const CallContext&) {
  const bool cl = data_format_ == "channels_last";
  detail::check_call_input(class_, name(), inputs.shape(), rank_, cl, input_channels_);
  Tensor x = ops::cast(inputs, compute_dtype());
  Tensor y = ops::depthwise_conv(x, kernel_.value(),
                                 {.strides = ops::IntOrTuple(strides_),
                                  .padding = padding_,
                                  .data_format = data_format_,
                                  .dilation_rate = ops::IntOrTuple(dilation_rate_)});
  return detail::add_bias_and_activate(y, bias_, options_.use_bias, cl, options_.activation);
}

Config BaseDepthwiseConvLayer::get_config() const {
  Config c = Layer::get_config();
  c["depth_multiplier"] = options_.depth_multiplier;
  c["kernel_size"] = detail::tuple_config(kernel_size_);
  c["strides"] = detail::tuple_config(strides_);
  c["padding"] = padding_;
  c["data_format"] = data_format_;
  c["dilation_rate"] = detail::tuple_config(dilation_rate_);
  c["activation"] = activations::serialize(options_.activation);
  c["use_bias"] = options_.use_bias;
  c["depthwise_initializer"] = initializers::serialize(*options_.depthwise_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  c["depthwise_regularizer"] = detail::regularizer_config(options_.depthwise_regularizer);
  c["bias_regularizer"] = detail::regularizer_config(options_.bias_regularizer);
  c["activity_regularizer"] = detail::regularizer_config(options_.activity_regularizer);
  c["depthwise_constraint"] = detail::constraint_config(options_.depthwise_constraint);
  c["bias_constraint"] = detail::constraint_config(options_.bias_constraint);
  return c;
}

std::tuple<ops::IntOrTuple, BaseDepthwiseConvOptions> BaseDepthwiseConvLayer::parse_config(
    const Config& c) {
  BaseDepthwiseConvOptions o;
  read_base_config(c, o);
  if (c.contains("strides")) o.strides = detail::int_or_tuple(c["strides"]);
  if (c.contains("padding")) o.padding = c["padding"].get<std::string>();
  if (c.contains("depth_multiplier")) o.depth_multiplier = c["depth_multiplier"].get<int64_t>();
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  if (c.contains("dilation_rate")) o.dilation_rate = detail::int_or_tuple(c["dilation_rate"]);
  detail::read_activation(c, o.activation);
  if (c.contains("use_bias")) o.use_bias = c["use_bias"].get<bool>();
  detail::read_initializer(c, "depthwise_initializer", o.depthwise_initializer);
  detail::read_initializer(c, "bias_initializer", o.bias_initializer);
  detail::read_regularizer(c, "depthwise_regularizer", o.depthwise_regularizer);
  detail::read_regularizer(c, "bias_regularizer", o.bias_regularizer);
  detail::read_regularizer(c, "activity_regularizer", o.activity_regularizer);
  detail::read_constraint(c, "depthwise_constraint", o.depthwise_constraint);
  detail::read_constraint(c, "bias_constraint", o.bias_constraint);
  return {detail::int_or_tuple(c.at("kernel_size")), o};
}

DepthwiseConv1DLayer::DepthwiseConv1DLayer(const ops::IntOrTuple& kernel_size,
                                           DepthwiseConv1DOptions options)
    : BaseDepthwiseConvLayer(1, kernel_size, std::move(options), "DepthwiseConv1D") {}
DepthwiseConv2DLayer::DepthwiseConv2DLayer(const ops::IntOrTuple& kernel_size,
                                           DepthwiseConv2DOptions options)
    : BaseDepthwiseConvLayer(2, kernel_size, std::move(options), "DepthwiseConv2D") {}

std::shared_ptr<Layer> DepthwiseConv1DLayer::from_config(const Config& config) {
  auto [kernel_size, options] = parse_config(config);
  return std::make_shared<DepthwiseConv1DLayer>(kernel_size, options);
}
std::shared_ptr<Layer> DepthwiseConv2DLayer::from_config(const Config& config) {
  auto [kernel_size, options] = parse_config(config);
  return std::make_shared<DepthwiseConv2DLayer>(kernel_size, options);
}

LayerPtr<DepthwiseConv1DLayer> DepthwiseConv1D(const ops::IntOrTuple& kernel_size,
                                               DepthwiseConv1DOptions options) {
  return make_layer<DepthwiseConv1DLayer>(kernel_size, std::move(options));
}
LayerPtr<DepthwiseConv2DLayer> DepthwiseConv2D(const ops::IntOrTuple& kernel_size,
                                               DepthwiseConv2DOptions options) {
  return make_layer<DepthwiseConv2DLayer>(kernel_size, std::move(options));
}

}  // namespace keras::layers
