#pragma once
// keras.layers.RandomZoom: each image zoomed about its centre by a random amount when training.
//
//   auto zoom = layers::RandomZoom(0.2);                      // same zoom both ways, +-20%
//   auto zoom2 = layers::RandomZoom({-0.3, -0.1}, {.width_factor = 0.2});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomZoom other than `height_factor`.
struct RandomZoomOptions {
  /// The horizontal zoom range; none keeps the aspect ratio (the vertical zoom is used).
  std::optional<Factor> width_factor;
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

/// The RandomZoom layer (Keras's "RandomZoom"). Factors are in (-1, 1]: positive values zoom
/// out, negative ones zoom in; a value z samples the input at (1 + z) times the output's
/// offsets from the centre. The transformation is {"height_zoom", "width_zoom"} of shape
/// (batch, 1) (1 + the drawn factor).
class RandomZoomLayer : public RandomImageLayer {
 public:
  /// A layer zooming by amounts drawn from Keras's `height_factor` (and width_factor).
  RandomZoomLayer(Factor height_factor, RandomZoomOptions options = {});
  std::string class_name() const override { return "RandomZoom"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  Factor height_factor_;
  std::pair<double, double> height_range_, width_range_;
  RandomZoomOptions options_;
};

/// A layer zooming images at random while training.
LayerPtr<RandomZoomLayer> RandomZoom(Factor height_factor, RandomZoomOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
