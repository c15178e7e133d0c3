#pragma once
// keras.layers.RandomBrightness: a random delta (a fraction of value_range) added to each
// image when training, clipped to value_range.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomBrightness other than `factor`.
struct RandomBrightnessOptions {
  /// The range of the pixel values (sorted; outputs are clipped to it).
  std::pair<double, double> value_range = {0.0, 255.0};
  /// The seed of the layer's random draws (Keras's `seed`); none seeds them at random.
  SeedArg seed;
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The RandomBrightness layer (Keras's "RandomBrightness"). `factor` is in [-1, 1] (f gives
/// [-f, f]); the delta is drawn from it and multiplied by the width of value_range. The
/// transformation is {"rgb_delta": (batch, 1, 1, 1)}. Integer images stay integers (the delta
/// is truncated to the image dtype, as Keras does).
class RandomBrightnessLayer : public RandomImageLayer {
 public:
  /// A layer drawing deltas from Keras's `factor`; ValueError when it is outside [-1, 1].
  RandomBrightnessLayer(Factor factor, RandomBrightnessOptions options = {});
  std::string class_name() const override { return "RandomBrightness"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as the (lower, upper) range the deltas are drawn from.
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
