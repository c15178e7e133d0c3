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
  ops::IntOrTuple strides = 1;
  /// "valid" or "same"; any case.
  std::string padding = "valid";
  /// Extra output size after each spatial dimension, each < the stride; unset infers it.
  std::optional<ops::IntOrTuple> output_padding;
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  ops::IntOrTuple dilation_rate = 1;
  activations::Activation activation;
  bool use_bias = true;
  initializers::InitializerArg kernel_initializer = "glorot_uniform";
  initializers::InitializerArg bias_initializer = "zeros";
  regularizers::RegularizerArg kernel_regularizer;
  regularizers::RegularizerArg bias_regularizer;
  regularizers::RegularizerArg activity_regularizer;
  constraints::ConstraintArg kernel_constraint;
  constraints::ConstraintArg bias_constraint;
  std::string name;
  bool trainable = true;
  std::string dtype;
};
using Conv1DTransposeOptions = BaseConvTransposeOptions;
using Conv2DTransposeOptions = BaseConvTransposeOptions;
using Conv3DTransposeOptions = BaseConvTransposeOptions;

/// The N-d transposed convolution layer (Keras's BaseConvTranspose).
class BaseConvTransposeLayer : public Layer {
 public:
  BaseConvTransposeLayer(int rank, int64_t filters, const ops::IntOrTuple& kernel_size,
                         BaseConvTransposeOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  int rank() const { return rank_; }
  int64_t filters() const { return filters_; }
  const std::vector<int64_t>& kernel_size() const { return kernel_size_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  const std::vector<int64_t>& dilation_rate() const { return dilation_rate_; }
  /// Empty when unset (inferred).
  const std::vector<int64_t>& output_padding() const { return output_padding_; }
  const std::string& padding() const { return padding_; }
  const std::string& data_format() const { return data_format_; }
  const BaseConvTransposeOptions& options() const { return options_; }
  const Variable& kernel() const { return kernel_; }
  const Variable& bias() const { return bias_; }

 protected:
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
  Conv1DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       Conv1DTransposeOptions options = {});
  std::string class_name() const override { return "Conv1DTranspose"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "Conv2DTranspose".
class Conv2DTransposeLayer : public BaseConvTransposeLayer {
 public:
  Conv2DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       Conv2DTransposeOptions options = {});
  std::string class_name() const override { return "Conv2DTranspose"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "Conv3DTranspose".
class Conv3DTransposeLayer : public BaseConvTransposeLayer {
 public:
  Conv3DTransposeLayer(int64_t filters, const ops::IntOrTuple& kernel_size,
                       Conv3DTransposeOptions options = {});
  std::string class_name() const override { return "Conv3DTranspose"; }
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Transposed convolution layers of `filters` output channels.
LayerPtr<Conv1DTransposeLayer> Conv1DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv1DTransposeOptions options = {});
LayerPtr<Conv2DTransposeLayer> Conv2DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv2DTransposeOptions options = {});
LayerPtr<Conv3DTransposeLayer> Conv3DTranspose(int64_t filters, const ops::IntOrTuple& kernel_size,
                                               Conv3DTransposeOptions options = {});
/// Keras's aliases.
LayerPtr<Conv1DTransposeLayer> Convolution1DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv1DTransposeOptions options = {});
LayerPtr<Conv2DTransposeLayer> Convolution2DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv2DTransposeOptions options = {});
LayerPtr<Conv3DTransposeLayer> Convolution3DTranspose(int64_t filters,
                                                      const ops::IntOrTuple& kernel_size,
                                                      Conv3DTransposeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
