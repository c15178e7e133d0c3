#include "keras/layers/convolutional/conv_transpose.h"

#include <algorithm>

#include "keras/ops/ops.h"
#include "layers/convolutional/conv_common.h"

namespace keras::layers {

BaseConvTransposeLayer::BaseConvTransposeLayer(int rank, int64_t filters,
                                               const ops::IntOrTuple& kernel_size,
                                               BaseConvTransposeOptions options,
                                               const std::string& class_name)
    : Layer(base_options(options), to_snake_case(class_name)),
      class_(class_name),
      rank_(rank),
      filters_(filters),
      options_(std::move(options)) {
  kernel_size_ = detail::standardize_tuple(class_, kernel_size, rank, "kernel_size");
  strides_ = detail::standardize_tuple(class_, options_.strides, rank, "strides");
  dilation_rate_ = detail::standardize_tuple(class_, options_.dilation_rate, rank, "dilation_rate");
  if (options_.output_padding)
    output_padding_ = detail::standardize_tuple(class_, *options_.output_padding, rank,
                                                "output_padding", /*allow_zero=*/true);
  padding_ = detail::standardize_padding(class_, options_.padding);
  data_format_ = detail::standardize_data_format(class_, options_.data_format);
  check(filters > 0, class_,
        ": `filters` must be a strictly positive integer; got filters=", filters, ".");
  for (size_t i = 0; i < output_padding_.size(); ++i)
    check(output_padding_[i] < strides_[i], class_,
          ": `output_padding` must be strictly less than `strides` in every dimension; at "
          "dimension ",
          i, " output_padding is ", output_padding_[i], " but strides is ", strides_[i],
          " (output_padding=", detail::tuple_string(output_padding_),
          ", strides=", detail::tuple_string(strides_), ").");
  const bool strided = *std::max_element(strides_.begin(), strides_.end()) > 1;
  const bool dilated = *std::max_element(dilation_rate_.begin(), dilation_rate_.end()) > 1;
  check(!(strided && dilated), class_,
        ": `strides > 1` is not supported in conjunction with `dilation_rate > 1`; got strides=",
        detail::tuple_string(strides_), " and dilation_rate=", detail::tuple_string(dilation_rate_),
        ".");
  set_activity_regularizer(options_.activity_regularizer);
}

void BaseConvTransposeLayer::build(const Shape& input_shape) {
  const bool cl = data_format_ == "channels_last";
  input_channels_ = detail::build_input_channels(class_, name(), input_shape, rank_, cl);
  Shape kernel_shape(kernel_size_);
  kernel_shape.push_back(filters_);
  kernel_shape.push_back(input_channels_);
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
}

Tensor BaseConvTransposeLayer::call(const Tensor& inputs, const CallContext&) {
  const bool cl = data_format_ == "channels_last";
  detail::check_call_input(class_, name(), inputs.shape(), rank_, cl, input_channels_);
  Tensor x = ops::cast(inputs, compute_dtype());
  ops::ConvTransposeOptions o{.strides = ops::IntOrTuple(strides_),
                              .padding = padding_,
                              .output_padding = std::nullopt,
                              .data_format = data_format_,
                              .dilation_rate = ops::IntOrTuple(dilation_rate_)};
  if (!output_padding_.empty()) o.output_padding = ops::IntOrTuple(output_padding_);
  Tensor y = ops::conv_transpose(x, kernel_.value(), o);
  return detail::add_bias_and_activate(y, bias_, options_.use_bias, cl, options_.activation);
}

Config BaseConvTransposeLayer::get_config() const {
  Config c = Layer::get_config();
  c["filters"] = filters_;
  c["kernel_size"] = detail::tuple_config(kernel_size_);
  c["strides"] = detail::tuple_config(strides_);
  c["padding"] = padding_;
  // Keras 3.15 writes output_padding, null when unset (3.10 had no such key).
  c["output_padding"] =
      output_padding_.empty() ? Config(nullptr) : detail::tuple_config(output_padding_);
  c["data_format"] = data_format_;
  c["dilation_rate"] = detail::tuple_config(dilation_rate_);
  c["activation"] = activations::serialize(options_.activation);
  c["use_bias"] = options_.use_bias;
  c["kernel_initializer"] = initializers::serialize(*options_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  c["kernel_regularizer"] = detail::regularizer_config(options_.kernel_regularizer);
  c["bias_regularizer"] = detail::regularizer_config(options_.bias_regularizer);
  c["activity_regularizer"] = detail::regularizer_config(options_.activity_regularizer);
  c["kernel_constraint"] = detail::constraint_config(options_.kernel_constraint);
  c["bias_constraint"] = detail::constraint_config(options_.bias_constraint);
  return c;
}

std::tuple<int64_t, ops::IntOrTuple, BaseConvTransposeOptions> BaseConvTransposeLayer::parse_config(
    const Config& c) {
  BaseConvTransposeOptions o;
  read_base_config(c, o);
  if (c.contains("strides")) o.strides = detail::int_or_tuple(c["strides"]);
  if (c.contains("padding")) o.padding = c["padding"].get<std::string>();
  if (c.contains("output_padding") && !c["output_padding"].is_null())
    o.output_padding = detail::int_or_tuple(c["output_padding"]);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  if (c.contains("dilation_rate")) o.dilation_rate = detail::int_or_tuple(c["dilation_rate"]);
  detail::read_activation(c, o.activation);
  if (c.contains("use_bias")) o.use_bias = c["use_bias"].get<bool>();
  detail::read_initializer(c, "kernel_initializer", o.kernel_initializer);
  detail::read_initializer(c, "bias_initializer", o.bias_initializer);
  detail::read_regularizer(c, "kernel_regularizer", o.kernel_regularizer);
  detail::read_regularizer(c, "bias_regularizer", o.bias_regularizer);
  detail::read_regularizer(c, "activity_regularizer", o.activity_regularizer);
  detail::read_constraint(c, "kernel_constraint", o.kernel_constraint);
  detail::read_constraint(c, "bias_constraint", o.bias_constraint);
  return {c.at("filters").get<int64_t>(), detail::int_or_tuple(c.at("kernel_size")), o};
}

Conv1DTransposeLayer::Conv1DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                                           Conv1DTransposeOptions options)
    : BaseConvTransposeLayer(1, filters, kernel_size, std::move(options), "Conv1DTranspose") {}
Conv2DTransposeLayer::Conv2DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                                           Conv2DTransposeOptions options)
    : BaseConvTransposeLayer(2, filters, kernel_size, std::move(options), "Conv2DTranspose") {}
Conv3DTransposeLayer::Conv3DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                                           Conv3DTransposeOptions options)
    : BaseConvTransposeLayer(3, filters, kernel_size, std::move(options), "Conv3DTranspose") {}

std::shared_ptr<Layer> Conv1DTransposeLayer::from_config(const Config& config) {
  auto [filters, kernel_size, options] = parse_config(config);
  return std::make_shared<Conv1DTransposeLayer>(filters, kernel_size, options);
}
std::shared_ptr<Layer> Conv2DTransposeLayer::from_config(const Config& config) {
  auto [filters, kernel_size, options] = parse_config(config);
  return std::make_shared<Conv2DTransposeLayer>(filters, kernel_size, options);
}
std::shared_ptr<Layer> Conv3DTransposeLayer::from_config(const Config& config) {
  auto [filters, kernel_size, options] = parse_config(config);
  return std::make_shared<Conv3DTransposeLayer>(filters, kernel_size, options);
}

LayerPtr<Conv1DTransposeLayer> Conv1DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv1DTransposeOptions options) {
  return make_layer<Conv1DTransposeLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<Conv2DTransposeLayer> Conv2DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv2DTransposeOptions options) {
  return make_layer<Conv2DTransposeLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<Conv3DTransposeLayer> Conv3DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv3DTransposeOptions options) {
  return make_layer<Conv3DTransposeLayer>(filters, kernel_size, std::move(options));
}
LayerPtr<Conv1DTransposeLayer> Convolution1DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv1DTransposeOptions options) {
  return Conv1DTranspose(filters, kernel_size, std::move(options));
}
LayerPtr<Conv2DTransposeLayer> Convolution2DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv2DTransposeOptions options) {
  return Conv2DTranspose(filters, kernel_size, std::move(options));
}
LayerPtr<Conv3DTransposeLayer> Convolution3DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv3DTransposeOptions options) {
  return Conv3DTranspose(filters, kernel_size, std::move(options));
}

}  // namespace keras::layers
