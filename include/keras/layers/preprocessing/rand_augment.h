#pragma once
// keras.layers.RandAugment: num_ops augmentations picked at random from eleven and applied in
// turn when training (Cubuk et al. 2019, "RandAugment").
//
//   auto augment = layers::RandAugment({.num_ops = 2, .factor = 0.5, .seed = 1});

#include <string>
#include <vector>

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandAugment.
struct RandAugmentOptions {
  /// The range of the pixel values, passed to each augmentation.
  std::pair<double, double> value_range = {0.0, 255.0};
  /// How many augmentations a call applies (one pick each, with repetition).
  int64_t num_ops = 2;
  /// The strength range in [0, 1] (a number f means (0, f)) every augmentation gets.
  Factor factor = 0.5;
  /// "bilinear" or "nearest", for the geometric augmentations.
  std::string interpolation = "bilinear";
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

/// The RandAugment layer (Keras's "RandAugment"). Its augmentations, in Keras's order (the
/// indices drawn): RandomShear, RandomTranslation, RandomRotation, RandomBrightness,
/// RandomColorDegeneration, RandomContrast, RandomSharpness, RandomPosterization,
/// Solarization, AutoContrast, Equalization, each built as Keras builds it from factor,
/// value_range, interpolation and seed. They are made through the layer registry, so a class
/// this build lacks is reported when it is picked (NotImplementedError naming it), never
/// silently skipped. The transformation is {"layer_idxes" (num_ops,) int32} plus the picked
/// augmentations' transformations, their keys prefixed with the augmentation's snake-case name
/// ("random_shear/shear_factor").
class RandAugmentLayer : public RandomImageLayer {
 public:
  /// Builds the layer and its augmentations from `options`; ValueError for a factor outside [0, 1].
  explicit RandAugmentLayer(RandAugmentOptions options = {});
  std::string class_name() const override { return "RandAugment"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's _AUGMENT_LAYERS: the augmentations' snake-case names, in index order.
  static const std::vector<std::string>& augmentation_names();
  /// The augmentation at `index`, or null when this build has no such layer class.
  std::shared_ptr<BaseImagePreprocessingLayer> augmentation(size_t index) const {
    return augmentations_.at(index);
  }

 private:
  RandAugmentOptions options_;
  std::pair<double, double> factor_;
  std::vector<std::shared_ptr<BaseImagePreprocessingLayer>> augmentations_;
};

/// A layer applying num_ops random augmentations while training.
LayerPtr<RandAugmentLayer> RandAugment(RandAugmentOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
