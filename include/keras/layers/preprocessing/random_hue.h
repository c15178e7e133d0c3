#pragma once
// keras.layers.RandomHue: the hue of each image rotated by a random amount when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomHue other than `factor`.
struct RandomHueOptions {
  /// The range of the pixel values (kept as given; images are mapped from it to [0, 1]).
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

/// The RandomHue layer (Keras's "RandomHue"). `factor` is in [0, 1] (f gives (0, f)); each
/// image draws an amount from it and a sign, and its hue (in [0, 1)) moves by sign * amount / 2,
/// wrapping around. The transformation is {"factor": (batch,)}, the signed half amounts;
/// drawn on every call, as Keras does. Images must have 3 channels.
class RandomHueLayer : public RandomImageLayer {
 public:
  /// A layer drawing hue shifts from Keras's `factor`; ValueError when it is outside [0, 1].
  explicit RandomHueLayer(Factor factor, RandomHueOptions options = {});
  std::string class_name() const override { return "RandomHue"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as the (lower, upper) range the shift amounts are drawn from.
  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomHueOptions options_;
};

/// A layer rotating the hue of images at random while training.
LayerPtr<RandomHueLayer> RandomHue(Factor factor, RandomHueOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
