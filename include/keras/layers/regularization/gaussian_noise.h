#pragma once
// keras.layers.GaussianNoise: in training, adds zero-centered Gaussian noise of standard
// deviation `stddev`; the identity in inference.

#include <memory>
#include <optional>

#include "keras/layers/options.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct GaussianNoiseOptions {
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The GaussianNoise layer (Keras's "GaussianNoise"); stddev in [0, 1] as Keras checks.
class GaussianNoiseLayer : public Layer {
 public:
  GaussianNoiseLayer(double stddev, GaussianNoiseOptions options = {});
  std::string class_name() const override { return "GaussianNoise"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  double stddev() const { return stddev_; }
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
