#pragma once
// keras.layers.RandomTranslation: each image shifted by a random fraction of its height and
// width when training.
//
//   auto shift = layers::RandomTranslation(0.1, 0.2);    // up to 10% vertically, 20% across

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomTranslation other than the factors.
struct RandomTranslationOptions {
  /// "reflect", "wrap", "constant" or "nearest".
  std::string fill_mode = "reflect";
  /// "bilinear" or "nearest".
  std::string interpolation = "bilinear";
  /// The seed of the layer's random draws (Keras's `seed`); none seeds them at random.
  SeedArg seed;
  /// The value of points outside the input when fill_mode is "constant".
  double fill_value = 0.0;
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The RandomTranslation layer (Keras's "RandomTranslation"). Factors are fractions in
/// [-1, 1] (f gives [-f, f]); positive values move the content down / right. The
/// transformation is {"translations": (batch, 2) pixels, (width shift, height shift)}.
class RandomTranslationLayer : public RandomImageLayer {
 public:
  /// A layer shifting by fractions drawn from Keras's `height_factor` and `width_factor`.
  RandomTranslationLayer(Factor height_factor, Factor width_factor,
                         RandomTranslationOptions options = {});
  std::string class_name() const override { return "RandomTranslation"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  Factor height_factor_, width_factor_;
  std::pair<double, double> height_range_, width_range_;
  RandomTranslationOptions options_;
};

/// A layer translating images at random while training.
LayerPtr<RandomTranslationLayer> RandomTranslation(Factor height_factor, Factor width_factor,
                                                   RandomTranslationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
