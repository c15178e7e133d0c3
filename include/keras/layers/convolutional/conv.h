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
  /// Keras's `strides`: the step of the window along each spatial axis (one int for all).
  /// `strides` > 1 cannot be combined with `dilation_rate` > 1.
  ops::IntOrTuple strides = 1;
  /// "valid", "same", or (Conv1D only) "causal"; any case.
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// Keras's `dilation_rate`: the spacing between kernel taps along each spatial axis.
  ops::IntOrTuple dilation_rate = 1;
  /// Input channels and filters are split into this many groups.
  int64_t groups = 1;
  /// Keras's `activation`: applied to the output; none (linear) by default.
  activations::Activation activation;
  /// Keras's `use_bias`: whether a bias vector of `filters` values is added to the output.
  bool use_bias = true;
  /// Keras's `kernel_initializer`: how the kernel starts.
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  /// Keras's `bias_initializer`: how the bias starts.
  initializers::InitializerArg bias_initializer = "zeros";
  /// Keras's `kernel_regularizer`: a penalty on the kernel, added to the losses; none by default.
  regularizers::RegularizerArg kernel_regularizer;
  /// Keras's `bias_regularizer`: a penalty on the bias, added to the losses; none by default.
  regularizers::RegularizerArg bias_regularizer;
  /// Keras's `activity_regularizer`: a penalty on the layer's output; none by default.
  regularizers::RegularizerArg activity_regularizer;
  /// Keras's `kernel_constraint`: applied to the kernel after each optimizer step; none by default.
  constraints::ConstraintArg kernel_constraint;
  /// Keras's `bias_constraint`: applied to the bias after each optimizer step; none by default.
  constraints::ConstraintArg bias_constraint;
  /// > 0: LoRA of this rank is enabled when the layer is built (see enable_lora).
  int64_t lora_rank = 0;
  /// Keras's `lora_alpha`: the LoRA update is scaled by lora_alpha / lora_rank; unset: lora_rank.
  std::optional<Scalar> lora_alpha;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name (e.g. "mixed_float16"); empty for the global policy.
  std::string dtype;
};
/// The keyword arguments of Conv1D.
using Conv1DOptions = BaseConvOptions;
/// The keyword arguments of Conv2D.
using Conv2DOptions = BaseConvOptions;
/// The keyword arguments of Conv3D.
using Conv3DOptions = BaseConvOptions;

/// The N-d convolution layer (Keras's BaseConv); Conv1DLayer, Conv2DLayer and Conv3DLayer fix
/// the rank and the class name. LoRA: enable_lora (keras/layers/core/lora.h), as Keras's BaseConv
/// (the transposed, depthwise and separable convolutions have none in Keras 3.15).
class BaseConvLayer : public LoraLayer {
 public:
  /// A `rank`-d convolution; `class_name` ("Conv2D") names it in messages and its default name.
  /// ValueError for filters or groups < 1, filters not divisible by groups, a bad kernel_size,
  /// strides, dilation_rate, padding or data_format, or strides > 1 with dilation_rate > 1.
  BaseConvLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                BaseConvOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  /// The number of spatial axes: 1, 2 or 3 (Keras's `rank`).
  int rank() const { return rank_; }
  /// The number of output channels (Keras's `filters`).
  int64_t filters() const { return filters_; }
  /// The window size, one value per spatial axis (Keras's `kernel_size`).
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  /// The window's step, one value per spatial axis (Keras's `strides`).
  const std::vector<int64_t>& strides() const { return strides_; }
  /// The spacing between kernel taps, one value per spatial axis (Keras's `dilation_rate`).
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  /// Lowercased: "valid", "same" or "causal".
  const std::string& padding() const { return padding_; }
  /// "channels_last" or "channels_first", resolved from the global default when not given.
  const std::string& data_format() const { return data_format_; }
  /// The number of channel groups convolved separately (Keras's `groups`).
  int64_t groups() const { return options_.groups; }
  /// The keyword arguments the layer was made with.
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
  /// The second LoRA adapter, B, of shape (rank, filters) (undefined until enable_lora).
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
  /// A Conv1D of `filters` output channels and a `kernel_size` window; ValueError as BaseConvLayer.
  Conv1DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv1DOptions options = {});
  std::string class_name() const override { return "Conv1D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// 2D convolution over (batch, height, width, channels) inputs (Keras's "Conv2D").
class Conv2DLayer : public BaseConvLayer {
 public:
  /// A Conv2D of `filters` output channels and a `kernel_size` window; ValueError as BaseConvLayer.
  Conv2DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv2DOptions options = {});
  std::string class_name() const override { return "Conv2D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// 3D convolution over (batch, depth, height, width, channels) inputs (Keras's "Conv3D").
class Conv3DLayer : public BaseConvLayer {
 public:
  /// A Conv3D of `filters` output channels and a `kernel_size` window; ValueError as BaseConvLayer.
  Conv3DLayer(int64_t filters, const ops::IntOrTuple& kernel_size, Conv3DOptions options = {});
  std::string class_name() const override { return "Conv3D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
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
/// Keras's alias of Conv1D.
LayerPtr<Conv1DLayer> Convolution1D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv1DOptions options = {});
/// Keras's alias of Conv2D.
LayerPtr<Conv2DLayer> Convolution2D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv2DOptions options = {});
/// Keras's alias of Conv3D.
LayerPtr<Conv3DLayer> Convolution3D(int64_t filters, const ops::IntOrTuple& kernel_size,
                                    Conv3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
