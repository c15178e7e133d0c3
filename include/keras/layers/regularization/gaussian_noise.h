#pragma once
// keras.layers.GaussianNoise: in training, adds zero-centered Gaussian noise of standard
// deviation `stddev`; the identity in inference.

#include <memory>
#include <optional>

#include "keras/layers/options.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// GaussianNoise's keyword arguments besides `stddev`.
struct GaussianNoiseOptions {
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

/// The GaussianNoise layer (Keras's "GaussianNoise"); stddev in [0, 1] as Keras checks.
class GaussianNoiseLayer : public Layer {
 public:
  /// A GaussianNoise layer; ValueError when `stddev` is outside [0, 1].
  GaussianNoiseLayer(double stddev, GaussianNoiseOptions options = {});
  std::string class_name() const override { return "GaussianNoise"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The standard deviation of the added noise (Keras's `stddev`).
  double stddev() const { return stddev_; }
  /// The generator the noise comes from (null when stddev is 0).
  random::SeedGenerator* seed_generator() const { return generator_.get(); }

 private:
  double stddev_;
  GaussianNoiseOptions options_;
  std::unique_ptr<random::SeedGenerator> generator_;
};

/// Additive Gaussian noise of standard deviation `stddev`.
LayerPtr<GaussianNoiseLayer> GaussianNoise(double stddev, GaussianNoiseOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
