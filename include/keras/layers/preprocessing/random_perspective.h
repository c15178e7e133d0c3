#pragma once
// keras.layers.RandomPerspective: some images warped by a random perspective (their corners
// moved) when training.
//
//   auto warp = layers::RandomPerspective({.factor = 0.5, .scale = 0.3, .seed = 4});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomPerspective.
struct RandomPerspectiveOptions {
  /// The probability of warping an image is drawn per image from this range in [0, 1] (a
  /// number f means (0, f)), so an image is warped with probability (lower + upper) / 2.
  Factor factor = 1.0;
  /// In [0, 1]: each corner moves by up to scale / 2 times its own coordinates.
  double scale = 1.0;
  /// "bilinear" or "nearest".
  std::string interpolation = "bilinear";
  /// The value of points outside the input.
  double fill_value = 0.0;
  /// The seed of the layer's random draws (Keras's `seed`); none seeds them at random.
  SeedArg seed;
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The RandomPerspective layer (Keras's "RandomPerspective"). The corners (0, 0), (W - 1, 0),
/// (0, H - 1), (W - 1, H - 1) are the start points; end = start (1 + u), u uniform in
/// [-scale / 2, scale / 2) per coordinate; the image is warped by perspective_transform(start,
/// end). The transformation is {"apply_perspective" (batch,) bool, "start_points" and
/// "end_points" (batch, 4, 2)}.
class RandomPerspectiveLayer : public RandomImageLayer {
 public:
  /// Builds the layer; ValueError for a factor outside [0, 1].
  explicit RandomPerspectiveLayer(RandomPerspectiveOptions options = {});
  std::string class_name() const override { return "RandomPerspective"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  RandomPerspectiveOptions options_;
  std::pair<double, double> factor_;
};

/// A layer warping images by random perspectives while training.
LayerPtr<RandomPerspectiveLayer> RandomPerspective(RandomPerspectiveOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
