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
  /// Keras's `strides`: the step of the depthwise window along each spatial axis (one int for all).
  ops::IntOrTuple strides = 1;
  /// "valid" or "same"; any case.
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// Keras's `dilation_rate`: the spacing between kernel taps along each spatial axis.
  ops::IntOrTuple dilation_rate = 1;
  /// Keras's `depth_multiplier`: the depthwise filters per input channel.
  int64_t depth_multiplier = 1;
  /// Keras's `activation`: applied to the output; none (linear) by default.
  activations::Activation activation;
  /// Keras's `use_bias`: whether a bias vector is added to the output.
  bool use_bias = true;
  /// Keras's `depthwise_initializer`: how the depthwise kernel starts.
  initializers::InitializerArg depthwise_initializer = "glorot_uniform";
  /// Keras's `pointwise_initializer`: how the pointwise kernel starts.
  initializers::InitializerArg pointwise_initializer = "glorot_uniform";
  /// Keras's `bias_initializer`: how the bias starts.
  initializers::InitializerArg bias_initializer = "zeros";
  /// Keras's `depthwise_regularizer`: a penalty on the depthwise kernel; none by default.
  regularizers::RegularizerArg depthwise_regularizer;
  /// Keras's `pointwise_regularizer`: a penalty on the pointwise kernel; none by default.
  regularizers::RegularizerArg pointwise_regularizer;
  /// Keras's `bias_regularizer`: a penalty on the bias, added to the losses; none by default.
  regularizers::RegularizerArg bias_regularizer;
  /// Keras's `activity_regularizer`: a penalty on the layer's output; none by default.
  regularizers::RegularizerArg activity_regularizer;
  /// Keras's `depthwise_constraint`: applied to the depthwise kernel after each optimizer step.
  constraints::ConstraintArg depthwise_constraint;
  /// Keras's `pointwise_constraint`: applied to the pointwise kernel after each optimizer step.
  constraints::ConstraintArg pointwise_constraint;
  /// Keras's `bias_constraint`: applied to the bias after each optimizer step; none by default.
  constraints::ConstraintArg bias_constraint;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name (e.g. "mixed_float16"); empty for the global policy.
  std::string dtype;
};
/// The keyword arguments of SeparableConv1D.
using SeparableConv1DOptions = BaseSeparableConvOptions;
/// The keyword arguments of SeparableConv2D.
using SeparableConv2DOptions = BaseSeparableConvOptions;

/// The N-d separable convolution layer (Keras's BaseSeparableConv).
class BaseSeparableConvLayer : public Layer {
 public:
  /// A `rank`-d separable convolution; `class_name` ("SeparableConv2D") names it in messages
  /// and in its default name. ValueError for filters or depth_multiplier < 1 or a bad
  /// kernel_size, strides, dilation_rate, padding or data_format.
  BaseSeparableConvLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                         BaseSeparableConvOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  /// The number of spatial axes: 1 or 2 (Keras's `rank`).
  int rank() const { return rank_; }
  /// The number of output channels (Keras's `filters`).
  int64_t filters() const { return filters_; }
  /// The depthwise filters per input channel (Keras's `depth_multiplier`).
  int64_t depth_multiplier() const { return options_.depth_multiplier; }
  /// The depthwise window size, one value per spatial axis (Keras's `kernel_size`).
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  /// The depthwise window's step, one value per spatial axis (Keras's `strides`).
  const std::vector<int64_t>& strides() const { return strides_; }
  /// The spacing between kernel taps, one value per spatial axis (Keras's `dilation_rate`).
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  /// Lowercased: "valid" or "same" (Keras's `padding`).
  const std::string& padding() const { return padding_; }
  /// "channels_last" or "channels_first", resolved from the global default when not given.
  const std::string& data_format() const { return data_format_; }
  /// The keyword arguments the layer was made with.
  const BaseSeparableConvOptions& options() const { return options_; }
  /// The depthwise kernel, (*kernel_size, input_channels, depth_multiplier); undefined until built.
  const Variable& depthwise_kernel() const { return depthwise_kernel_; }
  /// The pointwise (1x1) kernel, (1, ..., input_channels * depth_multiplier, filters).
  /// Undefined until built.
  const Variable& pointwise_kernel() const { return pointwise_kernel_; }
  /// The bias, of shape (filters); undefined until built or when use_bias is false.
  const Variable& bias() const { return bias_; }

 protected:
  /// Reads the arguments a config holds (filters, kernel_size, options).
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
  /// A SeparableConv1D of `filters` output channels; ValueError as BaseSeparableConvLayer.
  SeparableConv1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       SeparableConv1DOptions options = {});
  std::string class_name() const override { return "SeparableConv1D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "SeparableConv2D".
class SeparableConv2DLayer : public BaseSeparableConvLayer {
 public:
  /// A SeparableConv2D of `filters` output channels; ValueError as BaseSeparableConvLayer.
  SeparableConv2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       SeparableConv2DOptions options = {});
  std::string class_name() const override { return "SeparableConv2D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// A 1D separable convolution layer of `filters` output channels.
LayerPtr<SeparableConv1DLayer> SeparableConv1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               SeparableConv1DOptions options = {});
/// A 2D separable convolution layer of `filters` output channels.
LayerPtr<SeparableConv2DLayer> SeparableConv2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               SeparableConv2DOptions options = {});
/// Keras's alias of SeparableConv1D.
LayerPtr<SeparableConv1DLayer> SeparableConvolution1D(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      SeparableConv1DOptions options = {});
/// Keras's alias of SeparableConv2D.
LayerPtr<SeparableConv2DLayer> SeparableConvolution2D(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      SeparableConv2DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
