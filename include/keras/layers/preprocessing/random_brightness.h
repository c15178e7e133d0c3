#pragma once
// keras.layers.RandomBrightness: a random delta (a fraction of value_range) added to each
// image when training, clipped to value_range.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomBrightnessOptions {
  /// The range of the pixel values (sorted; outputs are clipped to it).
  std::pair<double, double> value_range = {0.0, 255.0};
  SeedArg seed;
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomBrightness layer (Keras's "RandomBrightness"). `factor` is in [-1, 1] (f gives
/// [-f, f]); the delta is drawn from it and multiplied by the width of value_range. The
/// transformation is {"rgb_delta": (batch, 1, 1, 1)}. Integer images stay integers (the delta
/// is truncated to the image dtype, as Keras does).
class RandomBrightnessLayer : public RandomImageLayer {
 public:
  RandomBrightnessLayer(Factor factor, RandomBrightnessOptions options = {});
  std::string class_name() const override { return "RandomBrightness"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomBrightnessOptions options_;
};

/// A layer changing the brightness of images at random while training.
LayerPtr<RandomBrightnessLayer> RandomBrightness(Factor factor,
                                                 RandomBrightnessOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
