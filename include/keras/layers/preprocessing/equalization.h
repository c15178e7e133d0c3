#pragma once
// keras.layers.Equalization: histogram equalization of each channel when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.Equalization.
struct EqualizationOptions {
  /// Sorted, as Keras stores it; images are mapped from it to [0, 255] and back.
  std::pair<double, double> value_range = {0.0, 255.0};
  /// The number of histogram bins (at least 1).
  int64_t bins = 256;
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Equalization layer (Keras's "Equalization"). As Keras does, one histogram per channel
/// is taken over the whole batch (not per image), a pixel x on the 0-255 scale falls in bin
/// int(x (bins - 1) / 255), and becomes round(255 (cdf[bin] - cdf_min) / (cdf[-1] - cdf_min));
/// a channel with at most one filled bin is left as it is. Keras computes the lookup table in
/// int32 and overflows past 2^31 / 255 pixels per channel; keras-cpp computes it in float64.
/// Draws nothing; applied when training only, as Keras's transform_images.
class EqualizationLayer : public BaseImagePreprocessingLayer {
 public:
  /// Builds the layer (value_range sorted); ValueError for bins < 1 or equal range ends.
  explicit EqualizationLayer(EqualizationOptions options = {});
  std::string class_name() const override { return "Equalization"; }
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  Tensor equalize_channel(const Tensor& channel) const;

  EqualizationOptions options_;
};

/// A layer equalizing the histograms of images while training.
LayerPtr<EqualizationLayer> Equalization(EqualizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
