#pragma once
// keras.layers.RandomFlip: each image flipped with probability 1/2 when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomFlip.
struct RandomFlipOptions {
  /// "horizontal" (left-right), "vertical" (up-down) or "horizontal_and_vertical" (Keras draws
  /// one coin per image and flips both ways together: a half turn).
  std::string mode = "horizontal_and_vertical";
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

/// The RandomFlip layer (Keras's "RandomFlip"). The transformation is {"flips": bool of shape
/// (batch, 1, 1, 1), or (1, 1, 1) for one image}.
class RandomFlipLayer : public RandomImageLayer {
 public:
  /// Builds the layer; ValueError for an unknown mode.
  explicit RandomFlipLayer(RandomFlipOptions options = {});
  std::string class_name() const override { return "RandomFlip"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `mode`: "horizontal", "vertical" or "horizontal_and_vertical".
  const std::string& mode() const { return options_.mode; }

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  RandomFlipOptions options_;
};

/// A layer flipping images at random while training.
LayerPtr<RandomFlipLayer> RandomFlip(RandomFlipOptions options = {});
/// RandomFlip with `mode` given first, as Keras's positional argument.
LayerPtr<RandomFlipLayer> RandomFlip(const std::string& mode, RandomFlipOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
