#pragma once
// keras.layers.CenterCrop: the central (height, width) window of the images; images smaller
// than the target are first cropped to its aspect ratio and resized (bilinear) instead.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.CenterCrop other than `height` and `width`.
struct CenterCropOptions {
  /// Empty for keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The CenterCrop layer (Keras's "CenterCrop"). Outputs are in the layer's dtype.
class CenterCropLayer : public BaseImagePreprocessingLayer {
 public:
  /// A layer cropping images to `height` x `width` pixels; ValueError unless both are positive.
  CenterCropLayer(int64_t height, int64_t width, CenterCropOptions options = {});
  std::string class_name() const override { return "CenterCrop"; }
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `height`: the height of the output images, in pixels.
  int64_t height() const { return height_; }
  /// Keras's `width`: the width of the output images, in pixels.
  int64_t width() const { return width_; }

 private:
  int64_t height_, width_;
};

/// A layer cropping the centre (height, width) of images.
LayerPtr<CenterCropLayer> CenterCrop(int64_t height, int64_t width, CenterCropOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
