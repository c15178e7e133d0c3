#pragma once
// keras.layers.ContrastLimitedAdaptiveHistogramEqualization (CLAHE): histogram equalization
// per tile of a grid, with clipped histograms, blended bilinearly between tiles.

#include <array>

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.ContrastLimitedAdaptiveHistogramEqualization.
struct ContrastLimitedAdaptiveHistogramEqualizationOptions {
  /// The range of the pixel values (kept as given); images are mapped from it to [0, 255]
  /// and back.
  std::pair<double, double> value_range = {0.0, 255.0};
  /// Each tile's histogram is clipped at clip_limit * pixels per tile / 256 and the excess
  /// spread over all 256 bins; 0 or less: no clipping.
  double clip_limit = 4.0;
  /// Tiles along the height and the width.
  std::array<int64_t, 2> tile_grid_size = {8, 8};
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The ContrastLimitedAdaptiveHistogramEqualization layer (Keras's class of that name). As
/// Keras: the images (padded symmetrically to whole tiles) get one 256-bin histogram per
/// image, tile and channel of int(clip(x, 0, 255)); a pixel's value is the bilinear blend of the
/// normalized cdfs of the four tiles whose centres surround it. Applied in inference too (Keras
/// ignores `training`); the output has the input's dtype.
class ContrastLimitedAdaptiveHistogramEqualizationLayer : public BaseImagePreprocessingLayer {
 public:
  /// Builds the layer from `options` (Keras's keyword arguments).
  explicit ContrastLimitedAdaptiveHistogramEqualizationLayer(
      ContrastLimitedAdaptiveHistogramEqualizationOptions options = {});
  std::string class_name() const override { return "ContrastLimitedAdaptiveHistogramEqualization"; }
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  /// Keras's _clahe on channels_last images on the 0-255 scale (float32 results).
  Tensor clahe(const Tensor& images) const;

  ContrastLimitedAdaptiveHistogramEqualizationOptions options_;
};

/// A layer applying CLAHE to images.
LayerPtr<ContrastLimitedAdaptiveHistogramEqualizationLayer>
ContrastLimitedAdaptiveHistogramEqualization(
    ContrastLimitedAdaptiveHistogramEqualizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
