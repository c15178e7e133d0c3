#pragma once
// keras.layers.MixUp: each image blended with another of its batch when training (Zhang et
// al. 2017, "mixup: Beyond Empirical Risk Minimization").
//
//   auto mix = layers::MixUp({.alpha = 0.2, .seed = 1});
//   auto t = mix->get_random_transformation(images);
//   Tensor x = mix->transform_images(images, t), y = mix->transform_labels(labels, t);

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.MixUp.
struct MixUpOptions {
  /// The Beta(alpha, alpha) distribution of the weights (positive).
  double alpha = 0.2;
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The seed of the layer's random draws (Keras's `seed`); none seeds them at random.
  SeedArg seed;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The MixUp layer (Keras's "MixUp"): image i becomes w_i x_i + (1 - w_i) x_p(i), with w_i ~
/// Beta(alpha, alpha) and p a random permutation of the batch. The transformation is
/// {"mix_weight" (batch,), "permutation_order" (batch,) int64}. A call transforms images only;
/// mix the labels of the same batch with transform_labels and the same transformation.
class MixUpLayer : public RandomImageLayer {
 public:
  /// Builds the layer; ValueError unless alpha is positive and finite.
  explicit MixUpLayer(MixUpOptions options = {});
  std::string class_name() const override { return "MixUp"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  /// Labels (batch, ...) mixed with the weights and permutation of `transformation`.
  Tensor transform_labels(const Tensor& labels, const Transformation& transformation,
                          bool training = true) const;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

 private:
  MixUpOptions options_;
};

/// A layer mixing the images of a batch while training.
LayerPtr<MixUpLayer> MixUp(MixUpOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
