#pragma once
// keras.layers.RandomPosterization: each image's pixels reduced to a random number of bits (on
// the 0-255 scale) when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomPosterization other than `factor`.
struct RandomPosterizationOptions {
  /// The range of the pixel values, mapped to [0, 255] for the transform and back.
  std::pair<double, double> value_range = {0.0, 255.0};
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The seed of the layer's random draws (Keras's `seed`); none seeds them at random.
  SeedArg seed;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The RandomPosterization layer (Keras's "RandomPosterization"). `factor` in [1, 8] (a number
/// f means (1, f)) bounds the bits kept: per image b = randint(lower, upper) (upper excluded,
/// as Keras's randint; b = lower when they are equal), and each pixel, truncated to uint8,
/// becomes (x >> (8 - b)) << (8 - b). The transformation is {"shift_factor": uint8 (batch,)}.
class RandomPosterizationLayer : public RandomImageLayer {
 public:
  /// A layer drawing bit depths from Keras's `factor`; ValueError when it is outside [1, 8].
  RandomPosterizationLayer(Factor factor, RandomPosterizationOptions options = {});
  std::string class_name() const override { return "RandomPosterization"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as the (lower, upper) range of the bits kept.
  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomPosterizationOptions options_;
};

/// A layer posterizing images at random while training.
LayerPtr<RandomPosterizationLayer> RandomPosterization(Factor factor,
                                                       RandomPosterizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
