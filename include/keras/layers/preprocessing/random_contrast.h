#pragma once
// keras.layers.RandomContrast: each image's contrast scaled by a random factor when training:
// (x - mean) * factor + mean per channel (mean over height and width), clipped to value_range.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomContrastOptions {
  /// The range of the pixel values (outputs are clipped to it).
  std::pair<double, double> value_range = {0.0, 255.0};
  SeedArg seed;
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomContrast layer (Keras's "RandomContrast"). `factor` is in [0, 1]: Keras turns a
/// number f into (lower, upper) = (0, f) and a pair into its sorted self, and draws the
/// contrast factor from [1 - lower, 1 + upper]. The transformation is {"contrast_factor":
/// (batch, 1, 1, 1)}.
class RandomContrastLayer : public RandomImageLayer {
 public:
  RandomContrastLayer(Factor factor, RandomContrastOptions options = {});
  std::string class_name() const override { return "RandomContrast"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomContrastOptions options_;
};

/// A layer changing the contrast of images at random while training.
LayerPtr<RandomContrastLayer> RandomContrast(Factor factor, RandomContrastOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
