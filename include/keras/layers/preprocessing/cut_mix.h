#pragma once
// keras.layers.CutMix: a random rectangle of each image replaced by the same rectangle of
// another image of its batch when training (Yun et al. 2019, "CutMix").
//
//   auto cut = layers::CutMix({.factor = 1.0, .seed = 2});
//   auto t = cut->get_random_transformation(images);
//   Tensor x = cut->transform_images(images, t), y = cut->transform_labels(labels, t);

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.CutMix.
struct CutMixOptions {
  /// The range in [0, 1] (a number f means (0, f)) of the Beta distribution's parameter: each
  /// call draws alpha from it, then each image's kept area fraction w from Beta(alpha, alpha).
  Factor factor = 1.0;
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

/// The CutMix layer (Keras's "CutMix"): image i takes a box of sides sqrt(1 - w_i) times its
/// own from image p(i), p a random permutation of the batch. The transformation is
/// {"permutation_order" (batch,) int32, "batch_masks" (the images' shape, bool: the box),
/// "mix_weight" (batch,): 1 - the box's area fraction}; a single image (rank 3) is left as it
/// is. A call transforms images only; mix labels with transform_labels.
class CutMixLayer : public RandomImageLayer {
 public:
  /// Builds the layer from `options`; ValueError for a factor outside [0, 1].
  explicit CutMixLayer(CutMixOptions options = {});
  std::string class_name() const override { return "CutMix"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  /// Labels (batch, classes) mixed by area: w labels + (1 - w) labels[permutation].
  Tensor transform_labels(const Tensor& labels, const Transformation& transformation,
                          bool training = true) const;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  CutMixOptions options_;
  std::pair<double, double> factor_;
};

/// A layer cutting and pasting boxes between the images of a batch while training.
LayerPtr<CutMixLayer> CutMix(CutMixOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
