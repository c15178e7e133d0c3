#pragma once
// keras.layers.RandomShear: each image sheared along x and y by random amounts when training.
//
//   auto shear = layers::RandomShear(0.2, 0.1, {.fill_mode = "constant"});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomShearOptions {
  /// "bilinear" or "nearest".
  std::string interpolation = "bilinear";
  /// "reflect", "wrap", "constant" or "nearest".
  std::string fill_mode = "reflect";
  double fill_value = 0.0;
  std::string data_format;
  SeedArg seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomShear layer (Keras's "RandomShear"). Factors are numbers in [0, 1] (f means
/// (-f, f)) or pairs of them. Output pixel (x, y) reads input (x + s_x y, s_y x + y): the
/// shear is about the top-left corner, as in Keras, with one random sign for both factors of
/// an image. The transformation is {"shear_factor": (batch, 2), (s_x, s_y)}.
class RandomShearLayer : public RandomImageLayer {
 public:
  RandomShearLayer(Factor x_factor = 0.0, Factor y_factor = 0.0, RandomShearOptions options = {});
  std::string class_name() const override { return "RandomShear"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
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
