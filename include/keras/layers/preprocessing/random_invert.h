#pragma once
// keras.layers.RandomInvert: images inverted (value_range[1] - x) at random when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomInvertOptions {
  /// The range of the pixel values; an inverted pixel is value_range.second - x (Keras's
  /// formula, which assumes value_range.first is 0).
  std::pair<double, double> value_range = {0.0, 255.0};
  SeedArg seed;
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomInvert layer (Keras's "RandomInvert"). `factor` in [0, 1] (a number f means
/// (0, f)): per image a probability p is drawn from [lower, upper] and a uniform u from [0, 1);
/// the image is inverted when u < p. The transformation is {"apply_inversion": bool (batch,)}.
/// In inference the images pass through unchanged (not even cast), as in Keras.
class RandomInvertLayer : public RandomImageLayer {
 public:
  explicit RandomInvertLayer(Factor factor = 1.0, RandomInvertOptions options = {});
  std::string class_name() const override { return "RandomInvert"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  std::pair<double, double> factor() const { return factor_; }

 private:
  std::pair<double, double> factor_;
  RandomInvertOptions options_;
};

/// A layer inverting images at random while training.
LayerPtr<RandomInvertLayer> RandomInvert(Factor factor = 1.0, RandomInvertOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
