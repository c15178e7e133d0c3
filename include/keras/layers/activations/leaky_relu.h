#pragma once
// keras.layers.LeakyReLU: x for x >= 0, negative_slope * x otherwise.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct LeakyReLUOptions {
  /// Keras 3's default (keras.activations.leaky_relu's is 0.2). Must be >= 0.
  double negative_slope = 0.3;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The LeakyReLU layer (Keras's "LeakyReLU").
class LeakyReLULayer : public Layer {
 public:
  explicit LeakyReLULayer(LeakyReLUOptions options = {});
  std::string class_name() const override { return "LeakyReLU"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Reads "negative_slope", or Keras 2's "alpha".
  static std::shared_ptr<Layer> from_config(const Config& config);

  double negative_slope() const { return options_.negative_slope; }

 private:
  LeakyReLUOptions options_;
};

/// A leaky rectified linear unit layer.
LayerPtr<LeakyReLULayer> LeakyReLU(LeakyReLUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
