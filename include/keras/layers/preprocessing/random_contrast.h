#pragma once
// keras.layers.RandomContrast: each image's contrast scaled by a random factor when training:
// (x - mean) * factor + mean per channel (mean over height and width), clipped to value_range.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomContrast other than `factor`.
struct RandomContrastOptions {
  /// The range of the pixel values (outputs are clipped to it).
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

/// The RandomContrast layer (Keras's "RandomContrast"). `factor` is in [0, 1]: Keras turns a
/// number f into (lower, upper) = (0, f) and a pair into its sorted self, and draws the
/// contrast factor from [1 - lower, 1 + upper]. The transformation is {"contrast_factor":
/// (batch, 1, 1, 1)}.
class RandomContrastLayer : public RandomImageLayer {
 public:
  /// A layer drawing contrast factors from Keras's `factor`; ValueError when it is outside [0, 1].
  RandomContrastLayer(Factor factor, RandomContrastOptions options = {});
  std::string class_name() const override { return "RandomContrast"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as (lower, upper): contrast factors are drawn from [1 - lower, 1 + upper].
  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomContrastOptions options_;
};

/// A layer changing the contrast of images at random while training.
LayerPtr<RandomContrastLayer> RandomContrast(Factor factor, RandomContrastOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
