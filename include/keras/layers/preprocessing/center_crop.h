#pragma once
// keras.layers.CenterCrop: the central (height, width) window of the images; images smaller
// than the target are first cropped to its aspect ratio and resized (bilinear) instead.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct CenterCropOptions {
  /// Empty for keras::config::image_data_format().
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The CenterCrop layer (Keras's "CenterCrop"). Outputs are in the layer's dtype.
class CenterCropLayer : public BaseImagePreprocessingLayer {
 public:
  CenterCropLayer(int64_t height, int64_t width, CenterCropOptions options = {});
  std::string class_name() const override { return "CenterCrop"; }
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t height() const { return height_; }
  int64_t width() const { return width_; }

 private:
  int64_t height_, width_;
};

/// A layer cropping the centre (height, width) of images.
LayerPtr<CenterCropLayer> CenterCrop(int64_t height, int64_t width, CenterCropOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
