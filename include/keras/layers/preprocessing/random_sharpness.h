#pragma once
// keras.layers.RandomSharpness: each image blended with a smoothed copy of itself by a random
// amount when training (sharpened past the original for factors above 0.5).

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomSharpness other than `factor`.
struct RandomSharpnessOptions {
  /// Sorted, as Keras stores it; outputs are clipped to it.
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

/// The RandomSharpness layer (Keras's "RandomSharpness"). `factor` is in [0, 1] (f gives
/// (0, f)); each image draws s from it and becomes clip(x + (1 - 2 s) (smooth(x) - x),
/// value_range), where smooth is the 3x3 kernel [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13 per
/// channel with zero padding: 0.5 keeps the image, 0 smooths it, 1 sharpens it. The
/// transformation is {"factor": (batch,)}; drawn on every call, as Keras does.
class RandomSharpnessLayer : public RandomImageLayer {
 public:
  /// A layer drawing sharpness factors from Keras's `factor`; ValueError outside [0, 1].
  explicit RandomSharpnessLayer(Factor factor, RandomSharpnessOptions options = {});
  std::string class_name() const override { return "RandomSharpness"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as the (lower, upper) range s is drawn from.
  std::pair<double, double> factor() const { return factor_; }

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  std::pair<double, double> factor_;
  RandomSharpnessOptions options_;
};

/// A layer sharpening or smoothing images at random while training.
LayerPtr<RandomSharpnessLayer> RandomSharpness(Factor factor, RandomSharpnessOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
