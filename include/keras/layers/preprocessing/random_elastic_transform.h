#pragma once
// keras.layers.RandomElasticTransform: some images distorted by a smooth random displacement
// field (ops::image::elastic_transform) when training.
//
//   auto elastic = layers::RandomElasticTransform({.factor = 0.8, .scale = 0.5, .seed = 5});

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomElasticTransform.
struct RandomElasticTransformOptions {
  /// The probability of distorting an image is drawn per image from this range in [0, 1] (a
  /// number f means (0, f)), so an image is distorted with probability (lower + upper) / 2.
  Factor factor = 1.0;
  /// The range in [0, 1] (a number s means (0, s)) of the distortion d drawn once per call:
  /// alpha = max(H, W) 0.1 d, sigma = min(H, W) 0.05 d.
  Factor scale = 1.0;
  /// "bilinear" or "nearest".
  std::string interpolation = "bilinear";
  /// "constant", "nearest", "wrap", "mirror" or "reflect".
  std::string fill_mode = "reflect";
  /// The value of points outside the input when fill_mode is "constant".
  double fill_value = 0.0;
  /// Distorted batches are clipped to this range.
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

/// The RandomElasticTransform layer (Keras's "RandomElasticTransform"). The transformation is
/// {"apply_transform" (batch,) bool, "distortion_factor" (0-d), "seed" (0-d int64, the noise's
/// seed)}; keras-cpp's noise differs from JAX's, so only its distribution matches Keras. With
/// a zero upper factor or scale nothing is drawn and images pass through (unclipped, as Keras).
class RandomElasticTransformLayer : public RandomImageLayer {
 public:
  /// Builds the layer; ValueError for a factor or scale outside [0, 1].
  explicit RandomElasticTransformLayer(RandomElasticTransformOptions options = {});
  std::string class_name() const override { return "RandomElasticTransform"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's get_elastic_transform_params: (alpha, sigma) for an image of the given size and a
  /// distortion factor.
  static std::pair<double, double> elastic_params(int64_t height, int64_t width, double factor);

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  RandomElasticTransformOptions options_;
  std::pair<double, double> factor_, scale_;
};

/// A layer distorting images elastically at random while training.
LayerPtr<RandomElasticTransformLayer> RandomElasticTransform(
    RandomElasticTransformOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
