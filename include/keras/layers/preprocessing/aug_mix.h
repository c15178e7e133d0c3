#pragma once
// keras.layers.AugMix: images blended with a mix of augmentation chains when training
// (Hendrycks et al. 2020, "AugMix").
//
//   auto augmix = layers::AugMix({.num_chains = 3, .chain_depth = 3, .seed = 2});

#include <string>
#include <vector>

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.AugMix.
struct AugMixOptions {
  /// The range of the pixel values, passed to the augmentations; outputs are clipped to it.
  std::pair<double, double> value_range = {0.0, 255.0};
  /// Augmentation chains mixed per call.
  int64_t num_chains = 3;
  /// Steps per chain; each step applies one random augmentation or none.
  int64_t chain_depth = 3;
  /// The strength range in [0, 1] (a number f means (0, f)) every augmentation gets.
  Factor factor = 0.3;
  /// The Dirichlet(alpha) chain weights and the Beta(alpha, alpha) blend with the original.
  double alpha = 1.0;
  /// All eleven augmentations, or only the seven that do not overlap ImageNet-C's corruptions.
  bool all_ops = true;
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

/// The AugMix layer (Keras's "AugMix"): out = clip(b x + (1 - b) sum_c w_c chain_c(x),
/// value_range), b ~ Beta(alpha, alpha), w ~ Dirichlet(alpha). Its augmentations, in Keras's
/// order: RandomShear, RandomTranslation, RandomRotation, RandomPosterization, Solarization,
/// AutoContrast, Equalization, and with all_ops RandomBrightness, RandomColorDegeneration,
/// RandomContrast, RandomSharpness; made through the layer registry, so a class this build
/// lacks is reported when it is picked (NotImplementedError naming it). Each step picks one of
/// them or none with equal chances (Keras uses Python's unseeded random for this; keras-cpp the
/// layer's generator). The transformation is {"chain_mixing_weights" (num_chains,),
/// "weight_sample" (0-d), "chain_layers" (num_chains, chain_depth) int32: the augmentation's
/// index or -1 for none} plus each step's transformation under "chain<c>/<d>/".
class AugMixLayer : public RandomImageLayer {
 public:
  /// Builds the layer and its augmentations from `options`; ValueError for a factor outside [0, 1].
  explicit AugMixLayer(AugMixOptions options = {});
  std::string class_name() const override { return "AugMix"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The augmentations' snake-case names, in index order (depends on all_ops).
  const std::vector<std::string>& augmentation_names() const;

 private:
  AugMixOptions options_;
  std::pair<double, double> factor_;
  std::vector<std::shared_ptr<BaseImagePreprocessingLayer>> augmentations_;
};

/// A layer mixing chains of random augmentations while training.
LayerPtr<AugMixLayer> AugMix(AugMixOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
