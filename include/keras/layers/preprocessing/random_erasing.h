#pragma once
// keras.layers.RandomErasing: a random rectangle of some images replaced by noise or a fill
// value when training (Zhong et al. 2017, "Random Erasing Data Augmentation").
//
//   auto erase = layers::RandomErasing({.factor = 0.5, .scale = {0.02, 0.2}, .seed = 3});

#include <vector>

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomErasing.
struct RandomErasingOptions {
  /// The probability of erasing an image is drawn per image from this range in [0, 1] (a
  /// number f means (0, f)), so an image is erased with probability (lower + upper) / 2.
  Factor factor = 1.0;
  /// The range, in [0, 1], of the squared side fractions: the box's width and height are
  /// sqrt(u) * the image's, u drawn from this range for each.
  Factor scale = Factor(0.02, 0.33);
  /// Empty: normal noise times value_range's upper end; one number; or one per channel
  /// (three). The fill is clipped to value_range.
  std::vector<double> fill_value;
  /// The range of the pixel values: the fill is clipped to it and noise scaled by its upper end.
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

/// The RandomErasing layer (Keras's "RandomErasing"). The transformation is {"apply_erasing"
/// (batch,) bool, "batch_masks" (the images' shape, bool: the box), "fill_value" (the images'
/// shape)}.
class RandomErasingLayer : public RandomImageLayer {
 public:
  /// Builds the layer; ValueError for a factor or scale outside [0, 1].
  explicit RandomErasingLayer(RandomErasingOptions options = {});
  std::string class_name() const override { return "RandomErasing"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  RandomErasingOptions options_;
  std::pair<double, double> factor_, scale_;
};

/// A layer erasing random rectangles of images while training.
LayerPtr<RandomErasingLayer> RandomErasing(RandomErasingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
