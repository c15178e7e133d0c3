#pragma once
// keras.layers.RandomColorDegeneration: each image blended towards its grayscale version by a
// random amount when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomColorDegenerationOptions {
  /// Sorted, as Keras stores it; outputs are clipped to it.
  std::pair<double, double> value_range = {0.0, 255.0};
  std::string data_format;
  SeedArg seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomColorDegeneration layer (Keras's "RandomColorDegeneration"). `factor` is in
/// [-1, 1] (f gives (-f, f), as Keras's base factor); each image draws a from it and becomes
/// clip(x + a (gray(x) - x), value_range). The transformation is {"factor": (batch, 1, 1, 1)};
/// drawn on every call, as Keras does. Images must have 3 channels.
class RandomColorDegenerationLayer : public RandomImageLayer {
 public:
  explicit RandomColorDegenerationLayer(Factor factor, RandomColorDegenerationOptions options = {});
  std::string class_name() const override { return "RandomColorDegeneration"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  std::pair<double, double> factor() const { return factor_; }

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  std::pair<double, double> factor_;
  RandomColorDegenerationOptions options_;
};

/// A layer desaturating images by random amounts while training.
LayerPtr<RandomColorDegenerationLayer> RandomColorDegeneration(
    Factor factor, RandomColorDegenerationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
