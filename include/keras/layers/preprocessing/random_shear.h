#pragma once
// keras.layers.RandomShear: each image sheared along x and y by random amounts when training.
//
//   auto shear = layers::RandomShear(0.2, 0.1, {.fill_mode = "constant"});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomShear other than the factors.
struct RandomShearOptions {
  /// "bilinear" or "nearest".
  std::string interpolation = "bilinear";
  /// "reflect", "wrap", "constant" or "nearest".
  std::string fill_mode = "reflect";
  /// The value of points outside the input when fill_mode is "constant".
  double fill_value = 0.0;
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

/// The RandomShear layer (Keras's "RandomShear"). Factors are numbers in [0, 1] (f means
/// (-f, f)) or pairs of them. Output pixel (x, y) reads input (x + s_x y, s_y x + y): the
/// shear is about the top-left corner, as in Keras, with one random sign for both factors of
/// an image. The transformation is {"shear_factor": (batch, 2), (s_x, s_y)}.
class RandomShearLayer : public RandomImageLayer {
 public:
  /// A layer shearing by amounts drawn from Keras's `x_factor` and `y_factor`.
  RandomShearLayer(Factor x_factor = 0.0, Factor y_factor = 0.0, RandomShearOptions options = {});
  std::string class_name() const override { return "RandomShear"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  std::pair<double, double> x_range_, y_range_;
  RandomShearOptions options_;
};

/// A layer shearing images at random while training.
LayerPtr<RandomShearLayer> RandomShear(Factor x_factor = 0.0, Factor y_factor = 0.0,
                                       RandomShearOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
