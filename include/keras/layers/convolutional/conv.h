#pragma once
// keras.layers.Conv1D, Conv2D, Conv3D (aliases Convolution1D/2D/3D): activation(conv(inputs,
// kernel) + bias), kernel of shape (*kernel_size, input_channels / groups, filters).
//
//   auto conv = keras::layers::Conv2D(32, 3, {.padding = "same", .activation = "relu"});
//   auto causal = keras::layers::Conv1D(8, 3, {.padding = "causal", .dilation_rate = 2});

#include <tuple>

#include "keras/layers/core/lora.h"
#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of Conv1D, Conv2D and Conv3D after filters and kernel_size, in
/// Keras's order.
struct BaseConvOptions {
  ops::IntOrTuple strides = 1;
  /// "valid", "same", or (Conv1D only) "causal"; any case.
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  ops::IntOrTuple dilation_rate = 1;
  /// Input channels and filters are split into this many groups.
  int64_t groups = 1;
  activations::Activation activation;
  bool use_bias = true;
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  initializers::InitializerArg bias_initializer = "zeros";
  regularizers::RegularizerArg kernel_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg kernel_constraint;
  constraints::ConstraintArg bias_constraint;
  /// > 0: LoRA of this rank is enabled when the layer is built (see enable_lora).
  int64_t lora_rank = 0;
  std::optional<Scalar> lora_alpha;
  std::string name;
  bool trainable = true;
  std::string dtype;
};
using Conv1DOptions = BaseConvOptions;
using Conv2DOptions = BaseConvOptions;
using Conv3DOptions = BaseConvOptions;

/// The N-d convolution layer (Keras's BaseConv); Conv1DLayer, Conv2DLayer and Conv3DLayer fix
/// the rank and the class name. LoRA: enable_lora (keras/layers/core/lora.h), as Keras's BaseConv
/// (the transposed, depthwise and separable convolutions have none in Keras 3.15).
class BaseConvLayer : public LoraLayer {
 public:
  BaseConvLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                BaseConvOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  int rank() const { return rank_; }
  int64_t filters() const { return filters_; }
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  /// Lowercased: "valid", "same" or "causal".
  const std::string& padding() const { return padding_; }
  const std::string& data_format() const { return data_format_; }
  int64_t groups() const { return options_.groups; }
  const BaseConvOptions& options() const { return options_; }
  /// Keras's kernel property: the kernel variable's value, with the LoRA update merged in when
  /// LoRA is enabled.
  Tensor kernel() const { return lora_merged(kernel_); }
  /// The stored kernel (Keras's _kernel), frozen while LoRA is enabled.
  const Variable& kernel_variable() const { return kernel_; }
  /// Undefined when use_bias is false.
  const Variable& bias() const { return bias_; }
  /// The LoRA adapters (undefined until enable_lora).
  const Variable& lora_kernel_a() const { return lora_a(); }
  const Variable& lora_kernel_b() const { return lora_b(); }

 protected:
  LoraTarget lora_target() const override;
  /// Reads the arguments a config holds (filters, kernel_size, options).
  static std::tuple<int64_t, ops::IntOrTuple, BaseConvOptions> parse_config(const Config& config);

 private:
  std::string class_;
  int rank_;
  int64_t filters_;
  std::vector<int64_t> kernel_size_, strides_, dilation_rate_;
  std::string padding_, data_format_;
  BaseConvOptions options_;
  int64_t input_channels_ = -1;
  Variable kernel_, bias_;
};

/// 1D convolution over (batch, steps, channels) inputs (Keras's "Conv1D").
class Conv1DLayer : public BaseConvLayer {
 public:
  Conv1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv1DOptions options = {});
  std::string class_name() const override { return "Conv1D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// 2D convolution over (batch, height, width, channels) inputs (Keras's "Conv2D").
class Conv2DLayer : public BaseConvLayer {
 public:
  Conv2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv2DOptions options = {});
  std::string class_name() const override { return "Conv2D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// 3D convolution over (batch, depth, height, width, channels) inputs (Keras's "Conv3D").
class Conv3DLayer : public BaseConvLayer {
 public:
  Conv3DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv3DOptions options = {});
  std::string class_name() const override { return "Conv3D"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// A 1D convolution layer of `filters` output channels.
LayerPtr<Conv1DLayer> Conv1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                             Conv1DOptions options = {});
/// A 2D convolution layer of `filters` output channels.
LayerPtr<Conv2DLayer> Conv2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                             Conv2DOptions options = {});
/// A 3D convolution layer of `filters` output channels.
LayerPtr<Conv3DLayer> Conv3D(int64_t filters, const ops::IntOrTuple& kernel_size,
                             Conv3DOptions options = {});
/// Keras's aliases.
LayerPtr<Conv1DLayer> Convolution1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv1DOptions options = {});
LayerPtr<Conv2DLayer> Convolution2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv2DOptions options = {});
LayerPtr<Conv3DLayer> Convolution3D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
