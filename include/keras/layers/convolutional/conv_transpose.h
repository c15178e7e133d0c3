#pragma once
// keras.layers.Conv1DTranspose, Conv2DTranspose, Conv3DTranspose (aliases
// Convolution1DTranspose/2D/3D): activation(conv_transpose(inputs, kernel) + bias), kernel of
// shape (*kernel_size, filters, input_channels).
//
//   auto up = keras::layers::Conv2DTranspose(16, 3, {.strides = 2, .padding = "same"});

#include <optional>
#include <tuple>

#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of the transposed convolutions after filters and kernel_size, in
/// Keras's order (Conv1D/2DTranspose's; Conv3DTranspose lists data_format before
/// output_padding).
struct BaseConvTransposeOptions {
  /// Keras's `strides`: the upsampling step along each spatial axis (one int for all).
  /// `strides` > 1 cannot be combined with `dilation_rate` > 1.
  ops::IntOrTuple strides = 1;
  /// "valid" or "same"; any case.
  std::string padding = "valid";
  /// Extra output size after each spatial dimension, each < the stride; unset infers it.
  std::optional<ops::IntOrTuple> output_padding;
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// Keras's `dilation_rate`: the spacing between kernel taps along each spatial axis.
  ops::IntOrTuple dilation_rate = 1;
  /// Keras's `activation`: applied to the output; none (linear) by default.
  activations::Activation activation;
  /// Keras's `use_bias`: whether a bias vector is added to the output.
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
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name (e.g. "mixed_float16"); empty for the global policy.
  std::string dtype;
};
/// The keyword arguments of Conv1DTranspose.
using Conv1DTransposeOptions = BaseConvTransposeOptions;
/// The keyword arguments of Conv2DTranspose.
using Conv2DTransposeOptions = BaseConvTransposeOptions;
/// The keyword arguments of Conv3DTranspose.
using Conv3DTransposeOptions = BaseConvTransposeOptions;

/// The N-d transposed convolution layer (Keras's BaseConvTranspose).
class BaseConvTransposeLayer : public Layer {
 public:
  /// A `rank`-d transposed convolution; `class_name` ("Conv2DTranspose") names it in messages
  /// and in its default name. ValueError for filters < 1, a bad kernel_size, strides,
  /// dilation_rate, padding or data_format, an output_padding not below the strides, or
  /// strides > 1 with dilation_rate > 1.
  BaseConvTransposeLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                         BaseConvTransposeOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  /// The number of spatial axes: 1, 2 or 3 (Keras's `rank`).
  int rank() const { return rank_; }
  /// The number of output channels (Keras's `filters`).
  int64_t filters() const { return filters_; }
  /// The window size, one value per spatial axis (Keras's `kernel_size`).
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  /// The upsampling step, one value per spatial axis (Keras's `strides`).
  const std::vector<int64_t>& strides() const { return strides_; }
  /// The spacing between kernel taps, one value per spatial axis (Keras's `dilation_rate`).
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  /// Empty when unset (inferred).
  const std::vector<int64_t>& output_padding() const { return output_padding_; }
  /// Lowercased: "valid" or "same" (Keras's `padding`).
  const std::string& padding() const { return padding_; }
  /// "channels_last" or "channels_first", resolved from the global default when not given.
  const std::string& data_format() const { return data_format_; }
  /// The keyword arguments the layer was made with.
  const BaseConvTransposeOptions& options() const { return options_; }
  /// The kernel, of shape (*kernel_size, filters, input_channels); undefined until built.
  const Variable& kernel() const { return kernel_; }
  /// The bias, of shape (filters); undefined until built or when use_bias is false.
  const Variable& bias() const { return bias_; }

 protected:
  /// Reads the arguments a config holds (filters, kernel_size, options).
  static std::tuple<int64_t, ops::IntOrTuple, BaseConvTransposeOptions> parse_config(
      const Config& config);

 private:
  std::string class_;
  int rank_;
  int64_t filters_;
  std::vector<int64_t> kernel_size_, strides_, dilation_rate_, output_padding_;
  std::string padding_, data_format_;
  BaseConvTransposeOptions options_;
  int64_t input_channels_ = -1;
  Variable kernel_, bias_;
};

/// Keras's "Conv1DTranspose".
class Conv1DTransposeLayer : public BaseConvTransposeLayer {
 public:
  /// A Conv1DTranspose of `filters` output channels; ValueError as BaseConvTransposeLayer.
  Conv1DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       Conv1DTransposeOptions options = {});
  std::string class_name() const override { return "Conv1DTranspose"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "Conv2DTranspose".
class Conv2DTransposeLayer : public BaseConvTransposeLayer {
 public:
  /// A Conv2DTranspose of `filters` output channels; ValueError as BaseConvTransposeLayer.
  Conv2DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       Conv2DTransposeOptions options = {});
  std::string class_name() const override { return "Conv2DTranspose"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "Conv3DTranspose".
class Conv3DTransposeLayer : public BaseConvTransposeLayer {
 public:
  /// A Conv3DTranspose of `filters` output channels; ValueError as BaseConvTransposeLayer.
  Conv3DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       Conv3DTransposeOptions options = {});
  std::string class_name() const override { return "Conv3DTranspose"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// A 1D transposed convolution layer of `filters` output channels.
LayerPtr<Conv1DTransposeLayer> Conv1DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv1DTransposeOptions options = {});
/// A 2D transposed convolution layer of `filters` output channels.
LayerPtr<Conv2DTransposeLayer> Conv2DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv2DTransposeOptions options = {});
/// A 3D transposed convolution layer of `filters` output channels.
LayerPtr<Conv3DTransposeLayer> Conv3DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv3DTransposeOptions options = {});
/// Keras's alias of Conv1DTranspose.
LayerPtr<Conv1DTransposeLayer> Convolution1DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv1DTransposeOptions options = {});
/// Keras's alias of Conv2DTranspose.
LayerPtr<Conv2DTransposeLayer> Convolution2DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv2DTransposeOptions options = {});
/// Keras's alias of Conv3DTranspose.
LayerPtr<Conv3DTransposeLayer> Convolution3DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv3DTransposeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
