#pragma once
// keras.layers.Resizing: images resized to (height, width) with ops::image::resize.
//
//   auto resize = layers::Resizing(224, 224, {.crop_to_aspect_ratio = true});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct ResizingOptions {
  /// "bilinear", "nearest", "bicubic", "lanczos3" or "lanczos5".
  std::string interpolation = "bilinear";
  bool crop_to_aspect_ratio = false;
  bool pad_to_aspect_ratio = false;
  /// Only "constant" (with fill_value) is supported, as in Keras.
  std::string fill_mode = "constant";
  double fill_value = 0.0;
  bool antialias = false;
  /// Empty for keras::config::image_data_format().
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Resizing layer (Keras's "Resizing"). Integer images stay integers (rounded and
/// saturated); floating ones are resized in the layer's dtype.
class ResizingLayer : public BaseImagePreprocessingLayer {
 public:
  ResizingLayer(int64_t height, int64_t width, ResizingOptions options = {});
  std::string class_name() const override { return "Resizing"; }
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t height() const { return height_; }
  int64_t width() const { return width_; }

 private:
  int64_t height_, width_;
  ResizingOptions options_;
};

/// A layer resizing images to (height, width).
LayerPtr<ResizingLayer> Resizing(int64_t height, int64_t width, ResizingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
