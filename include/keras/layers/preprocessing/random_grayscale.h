#pragma once
// keras.layers.RandomGrayscale: each image turned to grayscale (kept with its channel count)
// with probability `factor` when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomGrayscaleOptions {
  std::string data_format;
  SeedArg seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomGrayscale layer (Keras's "RandomGrayscale"). `factor` in [0, 1] is the probability
/// that an image becomes rgb_to_grayscale of itself, broadcast back over its 3 channels. The
/// transformation is {"should_apply": bool (batch, 1, 1, 1)}, drawn on every call as Keras
/// does. Images keep their dtype (Keras does not cast them). As in Keras, the seed is not
/// part of the config.
class RandomGrayscaleLayer : public RandomImageLayer {
 public:
  explicit RandomGrayscaleLayer(double factor = 0.5, RandomGrayscaleOptions options = {});
  std::string class_name() const override { return "RandomGrayscale"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  double factor() const { return factor_; }

 private:
  double factor_;
};

/// A layer turning images to grayscale at random while training.
LayerPtr<RandomGrayscaleLayer> RandomGrayscale(double factor = 0.5,
                                               RandomGrayscaleOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
