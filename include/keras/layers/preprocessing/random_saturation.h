#pragma once
// keras.layers.RandomSaturation: the saturation of each image scaled by a random factor when
// training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomSaturation other than `factor`.
struct RandomSaturationOptions {
  /// Sorted, as Keras stores it; the scaled saturation is clipped to it (Keras's quirk: with
  /// the default (0, 255) saturations above 1 pass).
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

/// The RandomSaturation layer (Keras's "RandomSaturation"). `factor` is in [-1, 1] (f gives
/// (-f, f)); each image draws u from it and multiplies its HSV saturation by
/// u / (1 - u + 1e-7) (0.5 keeps it, 1 makes it as large as possible, 0 gray). The
/// transformation is {"factor": (batch,)}, the multipliers; drawn on every call, as Keras
/// does. Images must have 3 channels.
class RandomSaturationLayer : public RandomImageLayer {
 public:
  /// A layer drawing saturation factors from Keras's `factor`; ValueError outside [-1, 1].
  explicit RandomSaturationLayer(Factor factor, RandomSaturationOptions options = {});
  std::string class_name() const override { return "RandomSaturation"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as the (lower, upper) range u is drawn from.
  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomSaturationOptions options_;
};

/// A layer changing the saturation of images at random while training.
LayerPtr<RandomSaturationLayer> RandomSaturation(Factor factor,
                                                 RandomSaturationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
