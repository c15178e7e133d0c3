#pragma once
// keras.layers.SeparableConv1D, SeparableConv2D (aliases SeparableConvolution1D/2D): a
// depthwise convolution (depthwise_kernel (*kernel_size, input_channels, depth_multiplier))
// followed by a pointwise one (pointwise_kernel (1, ..., input_channels * depth_multiplier,
// filters)), then bias and activation.
//
//   auto sep = keras::layers::SeparableConv2D(32, 3, {.padding = "same", .activation = "relu"});

#include <tuple>

#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of SeparableConv1D/2D after filters and kernel_size, in Keras's order.
struct BaseSeparableConvOptions {
  ops::IntOrTuple strides = 1;
  /// "valid" or "same"; any case.
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  ops::IntOrTuple dilation_rate = 1;
  int64_t depth_multiplier = 1;
  activations::Activation activation;
  bool use_bias = true;
  initializers::InitializerArg depthwise_initializer = "glorot_uniform";
  initializers::InitializerArg pointwise_initializer = "glorot_uniform";
  initializers::InitializerArg bias_initializer = "zeros";
  regularizers::RegularizerArg depthwise_regularizer;
  regularizers::RegularizerArg pointwise_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg depthwise_constraint;
  constraints::ConstraintArg pointwise_constraint;
  constraints::ConstraintArg bias_constraint;
  std::string name;
  bool trainable = true;
  std::string dtype;
};
using SeparableConv1DOptions = BaseSeparableConvOptions;
using SeparableConv2DOptions = BaseSeparableConvOptions;

/// The N-d separable convolution layer (Keras's BaseSeparableConv).
class BaseSeparableConvLayer : public Layer {
 public:
  BaseSeparableConvLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                         BaseSeparableConvOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  int rank() const { return rank_; }
  int64_t filters() const { return filters_; }
  int64_t depth_multiplier() const { return options_.depth_multiplier; }
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  const std::string& padding() const { return padding_; }
  const std::string& data_format() const { return data_format_; }
  const BaseSeparableConvOptions& options() const { return options_; }
  const Variable& depthwise_kernel() const { return depthwise_kernel_; }
  const Variable& pointwise_kernel() const { return pointwise_kernel_; }
  const Variable& bias() const { return bias_; }

 protected:
  static std::tuple<int64_t, ops::IntOrTuple, BaseSeparableConvOptions> parse_config(
      const Config& config);

 private:
  std::string class_;
  int rank_;
  int64_t filters_;
  std::vector<int64_t> kernel_size_, strides_, dilation_rate_;
  std::string padding_, data_format_;
  BaseSeparableConvOptions options_;
  int64_t input_channels_ = -1;
  Variable depthwise_kernel_, pointwise_kernel_, bias_;
};

/// Keras's "SeparableConv1D".
class SeparableConv1DLayer : public BaseSeparableConvLayer {
 public:
  SeparableConv1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       SeparableConv1DOptions options = {});
  std::string class_name() const override { return "SeparableConv1D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "SeparableConv2D".
class SeparableConv2DLayer : public BaseSeparableConvLayer {
 public:
  SeparableConv2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       SeparableConv2DOptions options = {});
  std::string class_name() const override { return "SeparableConv2D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Separable convolution layers of `filters` output channels.
LayerPtr<SeparableConv1DLayer> SeparableConv1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               SeparableConv1DOptions options = {});
LayerPtr<SeparableConv2DLayer> SeparableConv2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               SeparableConv2DOptions options = {});
/// Keras's aliases.
LayerPtr<SeparableConv1DLayer> SeparableConvolution1D(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      SeparableConv1DOptions options = {});
LayerPtr<SeparableConv2DLayer> SeparableConvolution2D(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      SeparableConv2DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
