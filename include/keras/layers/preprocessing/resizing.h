#pragma once
// keras.layers.Resizing: images resized to (height, width) with ops::image::resize.
//
//   auto resize = layers::Resizing(224, 224, {.crop_to_aspect_ratio = true});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.Resizing other than `height` and `width`.
struct ResizingOptions {
  /// "bilinear", "nearest", "bicubic", "lanczos3" or "lanczos5".
  std::string interpolation = "bilinear";
  /// Crop the largest centred window of the target aspect ratio before resizing, so the image
  /// is not distorted.
  bool crop_to_aspect_ratio = false;
  /// Pad the image (with fill_value) to the target aspect ratio before resizing, so the image
  /// is not distorted.
  bool pad_to_aspect_ratio = false;
  /// Only "constant" (with fill_value) is supported, as in Keras.
  std::string fill_mode = "constant";
  /// The value of the padding when pad_to_aspect_ratio is set.
  double fill_value = 0.0;
  /// Use an antialiasing filter when downsampling.
  bool antialias = false;
  /// Empty for keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Resizing layer (Keras's "Resizing"). Integer images stay integers (rounded and
/// saturated); floating ones are resized in the layer's dtype.
class ResizingLayer : public BaseImagePreprocessingLayer {
 public:
  /// A layer resizing images to `height` x `width` pixels; ValueError unless both are positive,
  /// or for both crop_to_aspect_ratio and pad_to_aspect_ratio.
  ResizingLayer(int64_t height, int64_t width, ResizingOptions options = {});
  std::string class_name() const override { return "Resizing"; }
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
  ResizingOptions options_;
};

/// A layer resizing images to (height, width).
LayerPtr<ResizingLayer> Resizing(int64_t height, int64_t width, ResizingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
