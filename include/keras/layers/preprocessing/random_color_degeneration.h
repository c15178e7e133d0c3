#pragma once
// keras.layers.RandomColorDegeneration: each image blended towards its grayscale version by a
// random amount when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomColorDegeneration other than `factor`.
struct RandomColorDegenerationOptions {
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

/// The RandomColorDegeneration layer (Keras's "RandomColorDegeneration"). `factor` is in
/// [-1, 1] (f gives (-f, f), as Keras's base factor); each image draws a from it and becomes
/// clip(x + a (gray(x) - x), value_range). The transformation is {"factor": (batch, 1, 1, 1)};
/// drawn on every call, as Keras does. Images must have 3 channels.
class RandomColorDegenerationLayer : public RandomImageLayer {
 public:
  /// A layer drawing blend amounts from Keras's `factor`; ValueError when it is outside [-1, 1].
  explicit RandomColorDegenerationLayer(Factor factor, RandomColorDegenerationOptions options = {});
  std::string class_name() const override { return "RandomColorDegeneration"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as the (lower, upper) range the blend amounts are drawn from.
  std::pair<double, double> factor() const { return factor_; }

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  std::pair<double, double> factor_;
  RandomColorDegenerationOptions options_;
};

/// A layer desaturating images by random amounts while training.
LayerPtr<RandomColorDegenerationLayer> RandomColorDegeneration(
    Factor factor, RandomColorDegenerationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
