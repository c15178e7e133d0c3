#pragma once
// keras.layers.RandomPosterization: each image's pixels reduced to a random number of bits (on
// the 0-255 scale) when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomPosterizationOptions {
  /// The range of the pixel values, mapped to [0, 255] for the transform and back.
  std::pair<double, double> value_range = {0.0, 255.0};
  std::string data_format;
  SeedArg seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomPosterization layer (Keras's "RandomPosterization"). `factor` in [1, 8] (a number
/// f means (1, f)) bounds the bits kept: per image b = randint(lower, upper) (upper excluded,
/// as Keras's randint; b = lower when they are equal), and each pixel, truncated to uint8,
/// becomes (x >> (8 - b)) << (8 - b). The transformation is {"shift_factor": uint8 (batch,)}.
class RandomPosterizationLayer : public RandomImageLayer {
 public:
  RandomPosterizationLayer(Factor factor, RandomPosterizationOptions options = {});
  std::string class_name() const override { return "RandomPosterization"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomPosterizationOptions options_;
};

/// A layer posterizing images at random while training.
LayerPtr<RandomPosterizationLayer> RandomPosterization(Factor factor,
                                                       RandomPosterizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
