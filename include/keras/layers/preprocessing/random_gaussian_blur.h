#pragma once
// keras.layers.RandomGaussianBlur: each image blurred with a Gaussian kernel, with a random
// probability, when training.

#include <array>

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.RandomGaussianBlur other than `factor`.
struct RandomGaussianBlurOptions {
  /// Odd kernel sizes (width, height), as ops::image::gaussian_blur takes them.
  std::array<int64_t, 2> kernel_size = {3, 3};
  /// A number s in [0, 1] (meaning (0, s)) or a pair: the standard deviations are drawn from it.
  Factor sigma = 1.0;
  /// The range of the pixel values (kept as given); outputs are clipped to it.
  std::pair<double, double> value_range = {0.0, 255.0};
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

/// The RandomGaussianBlur layer (Keras's "RandomGaussianBlur"). `factor` is in [0, 1] (f gives
/// (0, f)); each image draws a probability p from it and a threshold u from [0, 1) and is
/// blurred when u < p. One (sigma_x, sigma_y) pair, drawn from `sigma` plus 1e-6, serves the
/// whole batch. The transformation is {"should_apply_blur": bool (batch,), "blur_factor": (2,)};
/// nothing is drawn in inference.
class RandomGaussianBlurLayer : public RandomImageLayer {
 public:
  /// A layer blurring with probabilities drawn from Keras's `factor`; ValueError outside [0, 1].
  explicit RandomGaussianBlurLayer(Factor factor = 1.0, RandomGaussianBlurOptions options = {});
  std::string class_name() const override { return "RandomGaussianBlur"; }
  Transformation get_random_transformation(
      const Tensor& images, bool training = true,
      std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `factor` as the (lower, upper) range of the blur probabilities.
  std::pair<double, double> factor() const { return factor_; }
  /// Keras's `sigma` as the (lower, upper) range of the standard deviations.
  std::pair<double, double> sigma() const { return sigma_; }

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  std::pair<double, double> factor_, sigma_;
  RandomGaussianBlurOptions options_;
};

/// A layer blurring images at random while training.
LayerPtr<RandomGaussianBlurLayer> RandomGaussianBlur(Factor factor = 1.0,
                                                     RandomGaussianBlurOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
