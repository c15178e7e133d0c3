#pragma once
// keras.layers.AutoContrast: each image's values stretched so its minimum becomes
// value_range.first and its maximum value_range.second, in training and in inference alike.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.AutoContrast.
struct AutoContrastOptions {
  /// The range of the pixel values (sorted, as Keras does); each image is stretched to fill it.
  std::pair<double, double> value_range = {0.0, 255.0};
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The AutoContrast layer (Keras's "AutoContrast"). The minimum and maximum are taken over
/// axes 1 and 2 of the batch, as Keras does whatever the data_format (for channels_last: per
/// image and channel). Constant images (0 / 0) come back unchanged. Outputs are in the compute
/// dtype.
class AutoContrastLayer : public BaseImagePreprocessingLayer {
 public:
  /// Builds the layer from `options` (Keras's keyword arguments).
  explicit AutoContrastLayer(AutoContrastOptions options = {});
  std::string class_name() const override { return "AutoContrast"; }
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  AutoContrastOptions options_;
};

/// A layer stretching each image's contrast to the full value range.
LayerPtr<AutoContrastLayer> AutoContrast(AutoContrastOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
