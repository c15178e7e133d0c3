#pragma once
// keras.layers.GaussianDropout: in training, multiplies by 1-centered Gaussian noise of
// standard deviation sqrt(rate / (1 - rate)); the identity in inference.

#include <memory>
#include <optional>

#include "keras/layers/options.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// GaussianDropout's keyword arguments besides `rate`.
struct GaussianDropoutOptions {
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

/// The GaussianDropout layer (Keras's "GaussianDropout"). rate 1 is accepted at construction
/// (as in Keras) but a training call with it is a ValueError (the noise is unbounded).
class GaussianDropoutLayer : public Layer {
 public:
  /// A GaussianDropout layer; ValueError when `rate` is outside [0, 1].
  GaussianDropoutLayer(double rate, GaussianDropoutOptions options = {});
  std::string class_name() const override { return "GaussianDropout"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The drop probability whose variance the noise matches (Keras's `rate`).
  double rate() const { return rate_; }
  /// The generator the noise comes from (null when rate is 0).
  random::SeedGenerator* seed_generator() const { return generator_.get(); }

 private:
  double rate_;
  GaussianDropoutOptions options_;
  std::unique_ptr<random::SeedGenerator> generator_;
};

/// Multiplicative Gaussian noise with the variance of Dropout(rate).
LayerPtr<GaussianDropoutLayer> GaussianDropout(double rate, GaussianDropoutOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
