#pragma once
// keras.layers.RandomGrayscale: each image turned to grayscale (kept with its channel count)
// with probability `factor` when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomGrayscale other than `factor`.
struct RandomGrayscaleOptions {
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

/// The RandomGrayscale layer (Keras's "RandomGrayscale"). `factor` in [0, 1] is the probability
/// that an image becomes rgb_to_grayscale of itself, broadcast back over its 3 channels. The
/// transformation is {"should_apply": bool (batch, 1, 1, 1)}, drawn on every call as Keras
/// does. Images keep their dtype (Keras does not cast them). As in Keras, the seed is not
/// part of the config.
class RandomGrayscaleLayer : public RandomImageLayer {
 public:
  /// A layer graying images with probability `factor`; ValueError outside [0, 1].
  explicit RandomGrayscaleLayer(double factor = 0.5, RandomGrayscaleOptions options = {});
  std::string class_name() const override { return "RandomGrayscale"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor`: the probability that an image is grayed.
  double factor() const { return factor_; }

 private:
  double factor_;
};

/// A layer turning images to grayscale at random while training.
LayerPtr<RandomGrayscaleLayer> RandomGrayscale(double factor = 0.5,
                                               RandomGrayscaleOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
