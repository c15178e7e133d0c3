#pragma once
// keras.layers.RandomRotation: each image rotated about its centre by a random angle when
// training (ops::image::affine_transform).
//
//   auto rotate = layers::RandomRotation(0.1);           // up to +-36 degrees
//   auto rotate2 = layers::RandomRotation({-0.05, 0.1}, {.fill_mode = "constant"});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomRotation other than `factor`.
struct RandomRotationOptions {
  /// "reflect", "wrap", "constant" or "nearest" (see ops::image::affine_transform).
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

/// The RandomRotation layer (Keras's "RandomRotation"). `factor` is a fraction of a full turn
/// in [-1, 1]: f gives angles in [-f, f] * 360 degrees, (lo, hi) in [lo, hi] * 360; positive
/// angles turn counter-clockwise. The transformation is {"angle" (degrees, (batch,)),
/// "rotation_matrix" ((batch, 8), or (8,) for one image)}.
class RandomRotationLayer : public RandomImageLayer {
 public:
  /// A layer drawing angles from Keras's `factor`; ValueError when it is outside [-1, 1].
  RandomRotationLayer(Factor factor, RandomRotationOptions options = {});
  std::string class_name() const override { return "RandomRotation"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// (lower, upper) as fractions of a turn.
  std::pair<double, double> factor() const { return factor_; }

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  std::pair<double, double> factor_;
  RandomRotationOptions options_;
};

/// A layer rotating images at random while training.
LayerPtr<RandomRotationLayer> RandomRotation(Factor factor, RandomRotationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
