#pragma once
// keras.layers.AutoContrast: each image's values stretched so its minimum becomes
// value_range.first and its maximum value_range.second, in training and in inference alike.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct AutoContrastOptions {
  std::pair<double, double> value_range = {0.0, 255.0};
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The AutoContrast layer (Keras's "AutoContrast"). The minimum and maximum are taken over
/// axes 1 and 2 of the batch, as Keras does whatever the data_format (for channels_last: per
/// image and channel). Constant images (0 / 0) come back unchanged. Outputs are in the compute
/// dtype.
class AutoContrastLayer : public BaseImagePreprocessingLayer {
 public:
  explicit AutoContrastLayer(AutoContrastOptions options = {});
  std::string class_name() const override { return "AutoContrast"; }
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  AutoContrastOptions options_;
};

/// A layer stretching each image's contrast to the full value range.
LayerPtr<AutoContrastLayer> AutoContrast(AutoContrastOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
