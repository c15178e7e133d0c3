#pragma once
// keras.layers.Equalization: histogram equalization of each channel when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct EqualizationOptions {
  /// Sorted, as Keras stores it; images are mapped from it to [0, 255] and back.
  std::pair<double, double> value_range = {0.0, 255.0};
  /// The number of histogram bins (at least 1).
  int64_t bins = 256;
  std::string data_format;
  std::string name;
  bool trainable = true;
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
  explicit EqualizationLayer(EqualizationOptions options = {});
  std::string class_name() const override { return "Equalization"; }
  Config get_config() const override;
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
