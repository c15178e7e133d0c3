#pragma once
// keras.layers.Solarization: pixels brighter than a random threshold inverted (255 - x, on the
// 0-255 scale), after adding a random brightness, when training.

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct SolarizationOptions {
  /// A number f in [0, 1] (meaning (0, f)) or a pair: additions are drawn from
  /// [lower, upper * 255] (Keras scales only the upper bound).
  Factor addition_factor = 0.0;
  /// As addition_factor, for the thresholds.
  Factor threshold_factor = 0.0;
  /// The range of the pixel values, mapped to [0, 255] for the transform and back.
  std::pair<double, double> value_range = {0.0, 255.0};
  SeedArg seed;
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Solarization layer (Keras's "Solarization"). The transformation is {"additions",
/// "thresholds"}, each (batch, 1, 1, 1) in the compute dtype; on the 0-255 scale an output is
/// clip(x + addition, 0, 255), replaced by 255 minus itself where it is not below the threshold.
class SolarizationLayer : public RandomImageLayer {
 public:
  explicit SolarizationLayer(SolarizationOptions options = {});
  std::string class_name() const override { return "Solarization"; }
  Transformation get_random_transformation(const Tensor& images, bool training = true,
                                           std::optional<random::Seed> seed = std::nullopt) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  std::pair<double, double> addition_factor() const { return addition_factor_; }
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
