#pragma once
// keras.layers.Solarization: pixels brighter than a random threshold inverted (255 - x, on the
// 0-255 scale), after adding a random brightness, when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.Solarization.
struct SolarizationOptions {
  /// A number f in [0, 1] (meaning (0, f)) or a pair: additions are drawn from
  /// [lower, upper * 255] (Keras scales only the upper bound).
  Factor addition_factor = 0.0;
  /// As addition_factor, for the thresholds.
  Factor threshold_factor = 0.0;
  /// The range of the pixel values, mapped to [0, 255] for the transform and back.
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

/// The Solarization layer (Keras's "Solarization"). The transformation is {"additions",
/// "thresholds"}, each (batch, 1, 1, 1) in the compute dtype; on the 0-255 scale an output is
/// clip(x + addition, 0, 255), replaced by 255 minus itself where it is not below the threshold.
class SolarizationLayer : public RandomImageLayer {
 public:
  /// Builds the layer; ValueError for a factor outside [0, 1].
  explicit SolarizationLayer(SolarizationOptions options = {});
  std::string class_name() const override { return "Solarization"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `addition_factor` as a sorted (lower, upper) in [0, 1]; additions are drawn from
  /// [lower, upper * 255].
  std::pair<double, double> addition_factor() const { return addition_factor_; }
  /// Keras's `threshold_factor` as a sorted (lower, upper) in [0, 1]; thresholds are drawn from
  /// [lower, upper * 255].
  std::pair<double, double> threshold_factor() const { return threshold_factor_; }

 protected:
  Tensor transform(const Tensor& images, const Transformation& transformation) override;

 private:
  std::pair<double, double> addition_factor_, threshold_factor_;
  SolarizationOptions options_;
};

/// A layer solarizing images at random while training.
LayerPtr<SolarizationLayer> Solarization(SolarizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
