#pragma once
// keras.layers.RandomCrop: a (height, width) window cut from each batch at a random place
// when training.
//
//   auto crop = layers::RandomCrop(24, 24, {.seed = 1});   // (N, 32, 32, 3) -> (N, 24, 24, 3)

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomCrop other than `height` and `width`.
struct RandomCropOptions {
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

/// The RandomCrop layer (Keras's "RandomCrop"). When training, one window of the target size is
/// cut from the whole batch, its corner drawn uniformly from the positions that fit; an image
/// not larger than the target in both dimensions instead yields the centred window of the
/// target's aspect ratio, resized (bilinear) to the target. The transformation is {"h_start",
/// "w_start"} (0-d int32). As Keras 3.15's code does (its docstring describes a centre crop),
/// inference returns the images unchanged, while the symbolic output shape (what a Functional
/// model is built on) is the target size.
class RandomCropLayer : public RandomImageLayer {
 public:
  /// A layer cropping images to `height` x `width` pixels; ValueError unless both are positive.
  RandomCropLayer(int64_t height, int64_t width, RandomCropOptions options = {});
  std::string class_name() const override { return "RandomCrop"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `height`: the height of the crop, in pixels.
  int64_t height() const { return height_; }
  /// Keras's `width`: the width of the crop, in pixels.
  int64_t width() const { return width_; }

 private:
  int64_t height_, width_;
  // Keras stores a seed drawn at construction when none is given (make_default_seed), though
  // its generator stays unseeded; so does keras-cpp.
  int64_t config_seed_;
};

/// A layer cropping images at random while training.
LayerPtr<RandomCropLayer> RandomCrop(int64_t height, int64_t width, RandomCropOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
