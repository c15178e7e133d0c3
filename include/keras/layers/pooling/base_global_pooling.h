#pragma once
// The global pooling layers (Keras's BaseGlobalPooling): GlobalMaxPooling1D/2D/3D and
// GlobalAveragePooling1D/2D/3D reduce every spatial dimension, keeping them as 1s with keepdims.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of the global pooling layers, in Keras's order.
struct BaseGlobalPoolingOptions {
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// Keep the pooled spatial dimensions as size 1.
  bool keepdims = false;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// Max or mean over the spatial dimensions of (batch, *spatial, channels) or
/// (batch, channels, *spatial) inputs.
class BaseGlobalPoolingLayer : public Layer {
 public:
  /// `pool_mode` is "max" or "average".
  BaseGlobalPoolingLayer(int rank, const std::string& pool_mode, BaseGlobalPoolingOptions options,
                         const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  /// The number of spatial dimensions: 1, 2 or 3.
  int rank() const { return rank_; }
  /// "max" or "average".
  const std::string& pool_mode() const { return pool_mode_; }
  /// "channels_last" or "channels_first", resolved from image_data_format() when not given.
  const std::string& data_format() const { return data_format_; }
  /// Whether the pooled spatial dimensions are kept as size 1 (Keras's `keepdims`).
  bool keepdims() const { return options_.keepdims; }

 protected:
  /// Reads the options from a config.
  static BaseGlobalPoolingOptions parse_config(const Config& config);
  /// The spatial axes of the input.
  std::vector<int> spatial_axes() const;
  /// The Keras class name, for error messages.
  const std::string& cls() const { return class_; }

 private:
  std::string class_;
  int rank_;
  std::string pool_mode_;
  std::string data_format_;
  BaseGlobalPoolingOptions options_;
};

}  // namespace keras::layers

#pragma GCC visibility pop
