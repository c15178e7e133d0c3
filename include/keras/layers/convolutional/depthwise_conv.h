#pragma once
// keras.layers.DepthwiseConv1D, DepthwiseConv2D: every input channel convolved with its own
// `depth_multiplier` filters, kernel of shape (*kernel_size, input_channels, depth_multiplier);
// output channel c * depth_multiplier + m comes from input channel c and filter m.
//
//   auto dw = keras::layers::DepthwiseConv2D(3, {.padding = "same", .depth_multiplier = 2});

#include <tuple>

#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of DepthwiseConv1D/2D after kernel_size, in Keras's order.
struct BaseDepthwiseConvOptions {
  /// Keras's `strides`: the step of the window along each spatial axis (one int for all).
  ops::IntOrTuple strides = 1;
  /// "valid" or "same"; any case.
  std::string padding = "valid";
  /// Keras's `depth_multiplier`: the filters per input channel; the output has
  /// input_channels * depth_multiplier channels.
  int64_t depth_multiplier = 1;
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// Keras's `dilation_rate`: the spacing between kernel taps along each spatial axis.
  ops::IntOrTuple dilation_rate = 1;
  /// Keras's `activation`: applied to the output; none (linear) by default.
  activations::Activation activation;
  /// Keras's `use_bias`: whether a bias vector is added to the output.
  bool use_bias = true;
  /// Keras's `depthwise_initializer`: how the depthwise kernel starts.
  initializers::InitializerArg depthwise_initializer = "glorot_uniform";
  /// Keras's `bias_initializer`: how the bias starts.
  initializers::InitializerArg bias_initializer = "zeros";
  /// Keras's `depthwise_regularizer`: a penalty on the depthwise kernel; none by default.
  regularizers::RegularizerArg depthwise_regularizer;
  /// Keras's `bias_regularizer`: a penalty on the bias, added to the losses; none by default.
  regularizers::RegularizerArg bias_regularizer;
  /// Keras's `activity_regularizer`: a penalty on the layer's output; none by default.
  regularizers::RegularizerArg activity_regularizer;
  /// Keras's `depthwise_constraint`: applied to the depthwise kernel after each optimizer update.
  constraints::ConstraintArg depthwise_constraint;
  /// Keras's `bias_constraint`: applied to the bias after each optimizer step; none by default.
  constraints::ConstraintArg bias_constraint;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name (e.g. "mixed_float16"); empty for the global policy.
  std::string dtype;
};
/// The keyword arguments of DepthwiseConv1D.
using DepthwiseConv1DOptions = BaseDepthwiseConvOptions;
/// The keyword arguments of DepthwiseConv2D.
using DepthwiseConv2DOptions = BaseDepthwiseConvOptions;

/// The N-d depthwise convolution layer (Keras's BaseDepthwiseConv).
class BaseDepthwiseConvLayer : public Layer {
 public:
  /// A `rank`-d depthwise convolution; `class_name` ("DepthwiseConv2D") names it in messages
  /// and in its default name. ValueError for depth_multiplier < 1 or a bad kernel_size,
  /// strides, dilation_rate, padding or data_format.
  BaseDepthwiseConvLayer(int rank, const ops::IntOrTuple& kernel_size,
                         BaseDepthwiseConvOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  /// The number of spatial axes: 1 or 2 (Keras's `rank`).
  int rank() const { return rank_; }
  /// The filters per input channel (Keras's `depth_multiplier`).
  int64_t depth_multiplier() const { return options_.depth_multiplier; }
  /// The window size, one value per spatial axis (Keras's `kernel_size`).
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  /// The window's step, one value per spatial axis (Keras's `strides`).
  const std::vector<int64_t>& strides() const { return strides_; }
  /// The spacing between kernel taps, one value per spatial axis (Keras's `dilation_rate`).
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  /// Lowercased: "valid" or "same" (Keras's `padding`).
  const std::string& padding() const { return padding_; }
  /// "channels_last" or "channels_first", resolved from the global default when not given.
  const std::string& data_format() const { return data_format_; }
  /// The keyword arguments the layer was made with.
  const BaseDepthwiseConvOptions& options() const { return options_; }
  /// The depthwise kernel (Keras names it "kernel").
  const Variable& kernel() const { return kernel_; }
  /// The bias, of input_channels * depth_multiplier values.
  /// Undefined until built, and when use_bias is false.
  const Variable& bias() const { return bias_; }

 protected:
  /// Reads the arguments a config holds (kernel_size, options).
  static std::tuple<ops::IntOrTuple, BaseDepthwiseConvOptions> parse_config(const Config& config);

 private:
  std::string class_;
  int rank_;
  std::vector<int64_t> kernel_size_, strides_, dilation_rate_;
  std::string padding_, data_format_;
  BaseDepthwiseConvOptions options_;
  int64_t input_channels_ = -1;
  Variable kernel_, bias_;
};

/// Keras's "DepthwiseConv1D".
class DepthwiseConv1DLayer : public BaseDepthwiseConvLayer {
 public:
  /// A DepthwiseConv1D with a `kernel_size` window; ValueError as BaseDepthwiseConvLayer.
  explicit DepthwiseConv1DLayer(const ops::IntOrTuple& kernel_size,
                                DepthwiseConv1DOptions options = {});
  std::string class_name() const override { return "DepthwiseConv1D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "DepthwiseConv2D".
class DepthwiseConv2DLayer : public BaseDepthwiseConvLayer {
 public:
  /// A DepthwiseConv2D with a `kernel_size` window; ValueError as BaseDepthwiseConvLayer.
  explicit DepthwiseConv2DLayer(const ops::IntOrTuple& kernel_size,
                                DepthwiseConv2DOptions options = {});
  std::string class_name() const override { return "DepthwiseConv2D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// A 1D depthwise convolution layer.
LayerPtr<DepthwiseConv1DLayer> DepthwiseConv1D(const ops::IntOrTuple& kernel_size,
                                               DepthwiseConv1DOptions options = {});
/// A 2D depthwise convolution layer.
LayerPtr<DepthwiseConv2DLayer> DepthwiseConv2D(const ops::IntOrTuple& kernel_size,
                                               DepthwiseConv2DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
