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
  ops::IntOrTuple strides = 1;
  /// "valid" or "same"; any case.
  std::string padding = "valid";
  int64_t depth_multiplier = 1;
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  ops::IntOrTuple dilation_rate = 1;
  activations::Activation activation;
  bool use_bias = true;
  initializers::InitializerArg depthwise_initializer = "glorot_uniform";
  initializers::InitializerArg bias_initializer = "zeros";
  regularizers::RegularizerArg depthwise_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg depthwise_constraint;
  constraints::ConstraintArg bias_constraint;
  std::string name;
  bool trainable = true;
  std::string dtype;
};
using DepthwiseConv1DOptions = BaseDepthwiseConvOptions;
using DepthwiseConv2DOptions = BaseDepthwiseConvOptions;

/// The N-d depthwise convolution layer (Keras's BaseDepthwiseConv).
class BaseDepthwiseConvLayer : public Layer {
 public:
  BaseDepthwiseConvLayer(int rank, const ops::IntOrTuple& kernel_size,
                         BaseDepthwiseConvOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  int rank() const { return rank_; }
  int64_t depth_multiplier() const { return options_.depth_multiplier; }
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  const std::string& padding() const { return padding_; }
  const std::string& data_format() const { return data_format_; }
  const BaseDepthwiseConvOptions& options() const { return options_; }
  /// The depthwise kernel (Keras names it "kernel").
  const Variable& kernel() const { return kernel_; }
  const Variable& bias() const { return bias_; }

 protected:
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
  explicit DepthwiseConv1DLayer(const ops::IntOrTuple& kernel_size,
                                DepthwiseConv1DOptions options = {});
  std::string class_name() const override { return "DepthwiseConv1D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "DepthwiseConv2D".
class DepthwiseConv2DLayer : public BaseDepthwiseConvLayer {
 public:
  explicit DepthwiseConv2DLayer(const ops::IntOrTuple& kernel_size,
                                DepthwiseConv2DOptions options = {});
  std::string class_name() const override { return "DepthwiseConv2D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Depthwise convolution layers.
LayerPtr<DepthwiseConv1DLayer> DepthwiseConv1D(const ops::IntOrTuple& kernel_size,
                                               DepthwiseConv1DOptions options = {});
LayerPtr<DepthwiseConv2DLayer> DepthwiseConv2D(const ops::IntOrTuple& kernel_size,
                                               DepthwiseConv2DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
