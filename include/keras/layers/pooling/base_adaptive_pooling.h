#pragma once
// The adaptive pooling layers (Keras 3.12+'s BaseAdaptivePooling): AdaptiveAveragePooling1D/2D/3D
// and AdaptiveMaxPooling1D/2D/3D pool each spatial dimension down to a fixed output_size with
// PyTorch's windows (window i of n over L spans [floor(i L / n), ceil((i + 1) L / n))).

#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of the adaptive pooling layers after output_size.
struct BaseAdaptivePoolingOptions {
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// Mean or maximum over adaptive windows of 1, 2 or 3 spatial dimensions.
class BaseAdaptivePoolingLayer : public Layer {
 public:
  /// `pool_mode` is "max" or "average".
  BaseAdaptivePoolingLayer(int rank, const std::string& pool_mode,
                           const ops::IntOrTuple& output_size, BaseAdaptivePoolingOptions options,
                           const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  /// The number of spatial dimensions: 1, 2 or 3.
  int rank() const { return rank_; }
  /// "max" or "average".
  const std::string& pool_mode() const { return pool_mode_; }
  /// The output's size along each spatial dimension (Keras's `output_size`).
  const std::vector<int64_t>& output_size() const { return output_size_; }
  /// "channels_last" or "channels_first", resolved from image_data_format() when not given.
  const std::string& data_format() const { return data_format_; }

 protected:
  /// Reads output_size and the options from a config.
  static std::tuple<ops::IntOrTuple, BaseAdaptivePoolingOptions> parse_config(const Config& config);

 private:
  std::string class_;
  int rank_;
  std::string pool_mode_;
  std::vector<int64_t> output_size_;
  std::string data_format_;
  BaseAdaptivePoolingOptions options_;
};

}  // namespace keras::layers

#pragma GCC visibility pop
