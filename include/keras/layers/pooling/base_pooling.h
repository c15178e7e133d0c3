#pragma once
// The windowed pooling layers (Keras's BasePooling): MaxPooling1D/2D/3D and
// AveragePooling1D/2D/3D over (batch, *spatial, channels) or (batch, channels, *spatial) inputs.

#include <optional>
#include <tuple>

#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of the pooling layers after pool_size, in Keras's order.
struct BasePoolingOptions {
  /// Unset: pool_size.
  std::optional<ops::IntOrTuple> strides;
  /// "valid" or "same"; any case. With "same", average pooling does not count padding.
  std::string padding = "valid";
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// Max or average pooling over sliding windows of 1, 2 or 3 spatial dimensions.
class BasePoolingLayer : public Layer {
 public:
  /// `pool_mode` is "max" or "average".
  BasePoolingLayer(int rank, const std::string& pool_mode, const ops::IntOrTuple& pool_size,
                   BasePoolingOptions options, const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  /// The number of spatial dimensions: 1, 2 or 3.
  int rank() const { return rank_; }
  /// "max" or "average".
  const std::string& pool_mode() const { return pool_mode_; }
  /// The window size along each spatial dimension (Keras's `pool_size`).
  const std::vector<int64_t>& pool_size() const { return pool_size_; }
  /// The step between windows along each spatial dimension (Keras's `strides`; pool_size when not
  /// given).
  const std::vector<int64_t>& strides() const { return strides_; }
  /// As given (Keras keeps the case).
  const std::string& padding() const { return options_.padding; }
  /// "channels_last" or "channels_first", resolved from image_data_format() when not given.
  const std::string& data_format() const { return data_format_; }

 protected:
  /// Reads pool_size and the options from a config.
  static std::tuple<ops::IntOrTuple, BasePoolingOptions> parse_config(const Config& config);

 private:
  std::string class_;
  int rank_;
  std::string pool_mode_;
  std::vector<int64_t> pool_size_, strides_;
  std::string padding_, data_format_;
  BasePoolingOptions options_;
};

}  // namespace keras::layers

#pragma GCC visibility pop
