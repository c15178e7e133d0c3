#pragma once
// keras.layers.RandomFlip: each image flipped with probability 1/2 when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RandomFlipOptions {
  /// "horizontal" (left-right), "vertical" (up-down) or "horizontal_and_vertical" (Keras draws
  /// one coin per image and flips both ways together: a half turn).
  std::string mode = "horizontal_and_vertical";
  SeedArg seed;
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RandomFlip layer (Keras's "RandomFlip"). The transformation is {"flips": bool of shape
/// (batch, 1, 1, 1), or (1, 1, 1) for one image}.
class RandomFlipLayer : public RandomImageLayer {
 public:
  explicit RandomFlipLayer(RandomFlipOptions options = {});
  std::string class_name() const override { return "RandomFlip"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

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
