#pragma once
// keras.layers.GaussianDropout: in training, multiplies by 1-centered Gaussian noise of
// standard deviation sqrt(rate / (1 - rate)); the identity in inference.

#include <memory>
#include <optional>

#include "keras/layers/options.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct GaussianDropoutOptions {
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The GaussianDropout layer (Keras's "GaussianDropout"). rate 1 is accepted at construction
/// (as in Keras) but a training call with it is a ValueError (the noise is unbounded).
class GaussianDropoutLayer : public Layer {
 public:
  GaussianDropoutLayer(double rate, GaussianDropoutOptions options = {});
  std::string class_name() const override { return "GaussianDropout"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  double rate() const { return rate_; }
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
