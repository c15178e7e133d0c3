#pragma once
// keras.layers.RandomColorJitter: RandomBrightness, RandomContrast, RandomSaturation and
// RandomHue in that order, each where its factor is given, when training.

#include <memory>

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

class RandomBrightnessLayer;
class RandomContrastLayer;
class RandomSaturationLayer;
class RandomHueLayer;

/// The arguments of keras.layers.RandomColorJitter.
struct RandomColorJitterOptions {
  /// The range of the pixel values, passed to each part (kept as given).
  std::pair<double, double> value_range = {0.0, 255.0};
  /// The factor of each part, as that layer takes it; none leaves the part out.
  std::optional<Factor> brightness_factor;
  /// RandomContrast's factor; none leaves contrast out.
  std::optional<Factor> contrast_factor;
  /// RandomSaturation's factor; none leaves saturation out.
  std::optional<Factor> saturation_factor;
  /// RandomHue's factor; none leaves hue out.
  std::optional<Factor> hue_factor;
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

/// The RandomColorJitter layer (Keras's "RandomColorJitter"). Each part is a layer of its own
/// (built with the jitter's value_range and seed, tracked as random_brightness, ...), whose
/// transformation is drawn from the jitter's generator inside transform_images, as Keras
/// does; get_random_transformation draws nothing. The parts get the jitter's data_format
/// (Keras leaves them at the global image_data_format; the two agree for channels_last). The
/// config holds the factors as given.
class RandomColorJitterLayer : public RandomImageLayer {
 public:
  /// Builds the layer and one part for each factor given.
  explicit RandomColorJitterLayer(RandomColorJitterOptions options = {});
  std::string class_name() const override { return "RandomColorJitter"; }
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The arguments as given (the factors unconverted, as the config holds them).
  const RandomColorJitterOptions& options() const { return options_; }

 private:
  RandomColorJitterOptions options_;
  std::shared_ptr<RandomBrightnessLayer> brightness_;
  std::shared_ptr<RandomContrastLayer> contrast_;
  std::shared_ptr<RandomSaturationLayer> saturation_;
  std::shared_ptr<RandomHueLayer> hue_;
};

/// A layer jittering brightness, contrast, saturation and hue at random while training.
LayerPtr<RandomColorJitterLayer> RandomColorJitter(RandomColorJitterOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
