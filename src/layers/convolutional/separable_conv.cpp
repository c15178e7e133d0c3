#include "keras/layers/convolutional/separable_conv.h"

#include "keras/ops/ops.h"
#include "layers/convolutional/conv_common.h"

namespace keras::layers {

BaseSeparableConvLayer::BaseSeparableConvLayer(int rank, int64_t filters,
                                               const ops::IntOrTuple& kernel_size,
                                               BaseSeparableConvOptions options,
                                               const std::string& class_name)
    : Layer(base_options(options), to_snake_case(class_name)),
      class_(class_name),
      rank_(rank),
      filters_(filters),
      options_(std::move(options)) {
  kernel_size_ = detail::standardize_tuple(class_, kernel_size, rank, "kernel_size");
  strides_ = detail::standardize_tuple(class_, options_.strides, rank, "strides");
  dilation_rate_ = detail::standardize_tuple(class_, options_.dilation_rate, rank, "dilation_rate");
  padding_ = detail::standardize_padding(class_, options_.padding);
  data_format_ = detail::standardize_data_format(class_, options_.data_format);
  check(options_.depth_multiplier > 0, class_,
        ": `depth_multiplier` must be a strictly positive integer; got depth_multiplier=",
        options_.depth_multiplier, ".");
  check(filters > 0, class_,
        ": `filters` must be a strictly positive integer; got filters=", filters, ".");
  set_activity_regularizer(options_.activity_regularizer);
}

void BaseSeparableConvLayer::build(const Shape& input_shape) {
  const bool cl = data_format_ == "channels_last";
  input_channels_ = detail::build_input_channels(class_, name(), input_shape, rank_, cl);
  detail::check_conv_output(class_, name(), input_shape, kernel_size_, strides_, dilation_rate_,
                            padding_, cl);
  Shape depthwise_shape(kernel_size_);
  depthwise_shape.push_back(input_channels_);
  depthwise_shape.push_back(options_.depth_multiplier);
  Shape pointwise_shape;
  for (int i = 0; i < rank_; ++i) pointwise_shape.push_back(1);
  pointwise_shape.push_back(input_channels_ * options_.depth_multiplier);
  pointwise_shape.push_back(filters_);
  depthwise_kernel_ = add_weight({.shape = depthwise_shape,
                                  .initializer = options_.depthwise_initializer,
                                  .regularizer = options_.depthwise_regularizer,
                                  .constraint = options_.depthwise_constraint,
                                  .name = "depthwise_kernel"});
  pointwise_kernel_ = add_weight({.shape = pointwise_shape,
                                  .initializer = options_.pointwise_initializer,
                                  .regularizer = options_.pointwise_regularizer,
                                  .constraint = options_.pointwise_constraint,
                                  .name = "pointwise_kernel"});
  if (options_.use_bias)
    bias_ = add_weight({.shape = {filters_},
                        .initializer = options_.bias_initializer,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
}

Tensor BaseSeparableConvLayer::call(const Tensor& inputs, const CallContext&) {
  const bool cl = data_format_ == "channels_last";
  detail::check_call_input(class_, name(), inputs.shape(), rank_, cl, input_channels_);
  Tensor x = ops::cast(inputs, compute_dtype());
  Tensor y = ops::separable_conv(x, depthwise_kernel_.value(), pointwise_kernel_.value(),
                                 {.strides = ops::IntOrTuple(strides_),
                                  .padding = padding_,
                                  .data_format = data_format_,
                                  .dilation_rate = ops::IntOrTuple(dilation_rate_)});
  return detail::add_bias_and_activate(y, bias_, options_.use_bias, cl, options_.activation);
}

Config BaseSeparableConvLayer::get_config() const {
  Config c = Layer::get_config();
  c["depth_multiplier"] = options_.depth_multiplier;
  c["filters"] = filters_;
  c["kernel_size"] = detail::tuple_config(kernel_size_);
  c["strides"] = detail::tuple_config(strides_);
  c["padding"] = padding_;
  c["data_format"] = data_format_;
  c["dilation_rate"] = detail::tuple_config(dilation_rate_);
  c["activation"] = activations::serialize(options_.activation);
  c["use_bias"] = options_.use_bias;
  c["depthwise_initializer"] = initializers::serialize(*options_.depthwise_initializer);
  c["pointwise_initializer"] = initializers::serialize(*options_.pointwise_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  c["depthwise_regularizer"] = detail::regularizer_config(options_.depthwise_regularizer);
  c["pointwise_regularizer"] = detail::regularizer_config(options_.pointwise_regularizer);
  c["bias_regularizer"] = detail::regularizer_config(options_.bias_regularizer);
  c["activity_regularizer"] = detail::regularizer_config(options_.activity_regularizer);
  c["depthwise_constraint"] = detail::constraint_config(options_.depthwise_constraint);
  c["pointwise_constraint"] = detail::constraint_config(options_.pointwise_constraint);
  c["bias_constraint"] = detail::constraint_config(options_.bias_constraint);
  return c;
}

std::tuple<int64_t, ops::IntOrTuple, BaseSeparableConvOptions> BaseSeparableConvLayer::parse_config(
    const Config& c) {
  BaseSeparableConvOptions o;
  read_base_config(c, o);
  if (c.contains("strides")) o.strides = detail::int_or_tuple(c["strides"]);
  if (c.contains("padding")) o.padding = c["padding"].get<std::string>();
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  if (c.contains("dilation_rate")) o.dilation_rate = detail::int_or_tuple(c["dilation_rate"]);
  if (c.contains("depth_multiplier")) o.depth_multiplier = c["depth_multiplier"].get<int64_t>();
  detail::read_activation(c, o.activation);
  if (c.contains("use_bias")) o.use_bias = c["use_bias"].get<bool>();
  detail::read_initializer(c, "depthwise_initializer", o.depthwise_initializer);
  detail::read_initializer(c, "pointwise_initializer", o.pointwise_initializer);
  detail::read_initializer(c, "bias_initializer", o.bias_initializer);
  detail::read_regularizer(c, "depthwise_regularizer", o.depthwise_regularizer);
  detail::read_regularizer(c, "pointwise_regularizer", o.pointwise_regularizer);
  detail::read_regularizer(c, "bias_regularizer", o.bias_regularizer);
  detail::read_regularizer(c, "activity_regularizer", o.activity_regularizer);
  detail::read_constraint(c, "depthwise_constraint", o.depthwise_constraint);
  detail::read_constraint(c, "pointwise_constraint", o.pointwise_constraint);
  detail::read_constraint(c, "bias_constraint", o.bias_constraint);
  return {c.at("filters").get<int64_t>(), detail::int_or_tuple(c.at("kernel_size")), o};
}

SeparableConv1DLayer::SeparableConv1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                                           SeparableConv1DOptions options)
    : BaseSeparableConvLayer(1, filters, kernel_size, std::move(options), "SeparableConv1D") {}
SeparableConv2DLayer::SeparableConv2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                                           SeparableConv2DOptions options)
    : BaseSeparableConvLayer(2, filters, kernel_size, std::move(options), "SeparableConv2D") {}

std::shared_ptr<Layer> SeparableConv1DLayer::from_config(const Config& config) {
  auto [filters, kernel_size, options] = parse_config(config);
  return std::make_shared<SeparableConv1DLayer>(filters, kernel_size, options);
}
std::shared_ptr<Layer> SeparableConv2DLayer::from_config(const Config& config) {
  auto [filters, kernel_size, options] = parse_config(config);
  return std::make_shared<SeparableConv2DLayer>(filters, kernel_size, options);
}

LayerPtr<SeparableConv1DLayer> SeparableConv1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               SeparableConv1DOptions options) {
  return make_layer<SeparableConv1DLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<SeparableConv2DLayer> SeparableConv2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               SeparableConv2DOptions options) {
  return make_layer<SeparableConv2DLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<SeparableConv1DLayer> SeparableConvolution1D(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      SeparableConv1DOptions options) {
  return SeparableConv1D(filters, kernel_size, std::move(options));
}
LayerPtr<SeparableConv2DLayer> SeparableConvolution2D(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      SeparableConv2DOptions options) {
  return SeparableConv2D(filters, kernel_size, std::move(options));
}

}  // namespace keras::layers
