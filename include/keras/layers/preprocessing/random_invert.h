#pragma once
// keras.layers.RandomInvert: images inverted (value_range[1] - x) at random when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomInvert other than `factor`.
struct RandomInvertOptions {
  /// The range of the pixel values; an inverted pixel is value_range.second - x (Keras's
  /// formula, which assumes value_range.first is 0).
  std::pair<double, double> value_range = {0.0, 255.0};
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

/// The RandomInvert layer (Keras's "RandomInvert"). `factor` in [0, 1] (a number f means
/// (0, f)): per image a probability p is drawn from [lower, upper] and a uniform u from [0, 1);
/// the image is inverted when u < p. The transformation is {"apply_inversion": bool (batch,)}.
/// In inference the images pass through unchanged (not even cast), as in Keras.
class RandomInvertLayer : public RandomImageLayer {
 public:
  /// A layer inverting with probabilities drawn from Keras's `factor`; ValueError outside [0, 1].
  explicit RandomInvertLayer(Factor factor = 1.0, RandomInvertOptions options = {});
  std::string class_name() const override { return "RandomInvert"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as the (lower, upper) range of the inversion probabilities.
  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomInvertOptions options_;
};

/// A layer inverting images at random while training.
LayerPtr<RandomInvertLayer> RandomInvert(Factor factor = 1.0, RandomInvertOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
