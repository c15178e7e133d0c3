#pragma once
// keras.layers.RandomSaturation: the saturation of each image scaled by a random factor when
// training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomSaturationOptions {
  /// Sorted, as Keras stores it; the scaled saturation is clipped to it (Keras's quirk: with
  /// the default (0, 255) saturations above 1 pass).
  std::pair<double, double> value_range = {0.0, 255.0};
  std::string data_format;
  SeedArg seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomSaturation layer (Keras's "RandomSaturation"). `factor` is in [-1, 1] (f gives
/// (-f, f)); each image draws u from it and multiplies its HSV saturation by
/// u / (1 - u + 1e-7) (0.5 keeps it, 1 makes it as large as possible, 0 gray). The
/// transformation is {"factor": (batch,)}, the multipliers; drawn on every call, as Keras
/// does. Images must have 3 channels.
class RandomSaturationLayer : public RandomImageLayer {
 public:
  explicit RandomSaturationLayer(Factor factor, RandomSaturationOptions options = {});
  std::string class_name() const override { return "RandomSaturation"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomSaturationOptions options_;
};

/// A layer changing the saturation of images at random while training.
LayerPtr<RandomSaturationLayer> RandomSaturation(Factor factor,
                                                 RandomSaturationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
