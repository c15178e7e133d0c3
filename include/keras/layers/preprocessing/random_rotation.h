#pragma once
// keras.layers.RandomRotation: each image rotated about its centre by a random angle when
// training (ops::image::affine_transform).
//
//   auto rotate = layers::RandomRotation(0.1);           // up to +-36 degrees
//   auto rotate2 = layers::RandomRotation({-0.05, 0.1}, {.fill_mode = "constant"});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomRotationOptions {
  /// "reflect", "wrap", "constant" or "nearest" (see ops::image::affine_transform).
  std::string fill_mode = "reflect";
  /// "bilinear" or "nearest".
  std::string interpolation = "bilinear";
  SeedArg seed;
  double fill_value = 0.0;
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomRotation layer (Keras's "RandomRotation"). `factor` is a fraction of a full turn
/// in [-1, 1]: f gives angles in [-f, f] * 360 degrees, (lo, hi) in [lo, hi] * 360; positive
/// angles turn counter-clockwise. The transformation is {"angle" (degrees, (batch,)),
/// "rotation_matrix" ((batch, 8), or (8,) for one image)}.
class RandomRotationLayer : public RandomImageLayer {
 public:
  RandomRotationLayer(Factor factor, RandomRotationOptions options = {});
  std::string class_name() const override { return "RandomRotation"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
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
