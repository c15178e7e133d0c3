#pragma once
// keras.layers.AlphaDropout: dropout for SELU networks. In training, dropped elements are set
// to SELU's negative saturation -scale * alpha, then a * x + b restores the mean and variance
// of zero-mean, unit-variance inputs; the identity in inference.

#include <memory>
#include <optional>

#include "keras/layers/options.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// AlphaDropout's keyword arguments besides `rate`.
struct AlphaDropoutOptions {
  /// As Dropout's: the shape of the keep/drop mask; -1 takes the input's extent.
  std::optional<Shape> noise_shape;
  /// Keras's `seed`: seeds the layer's SeedGenerator; unset, it is seeded from the global
  /// generator.
  std::optional<int64_t> seed;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The AlphaDropout layer (Keras's "AlphaDropout"). With p = rate, alpha' = -1.0507 * 1.6733:
/// kept where a uniform draw is >= p; a = ((1 - p)(1 + p alpha'^2))^-1/2, b = -a alpha' p.
/// rate 1 is accepted at construction (as in Keras) but a training call with it is a
/// ValueError (a is infinite).
class AlphaDropoutLayer : public Layer {
 public:
  /// An AlphaDropout layer; ValueError when `rate` is outside [0, 1] or `noise_shape` is invalid.
  AlphaDropoutLayer(double rate, AlphaDropoutOptions options = {});
  std::string class_name() const override { return "AlphaDropout"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The drop probability (Keras's `rate`).
  double rate() const { return rate_; }
  /// The generator the noise comes from (null when rate is 0).
  random::SeedGenerator* seed_generator() const { return generator_.get(); }

 private:
  double rate_;
  AlphaDropoutOptions options_;
  std::unique_ptr<random::SeedGenerator> generator_;
};

/// Alpha dropout with drop probability `rate` in [0, 1].
LayerPtr<AlphaDropoutLayer> AlphaDropout(double rate, AlphaDropoutOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
