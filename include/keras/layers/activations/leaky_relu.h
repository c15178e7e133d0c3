#pragma once
// keras.layers.LeakyReLU: x for x >= 0, negative_slope * x otherwise.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.LeakyReLU.
struct LeakyReLUOptions {
  /// Keras 3's default (keras.activations.leaky_relu's is 0.2). Must be >= 0.
  double negative_slope = 0.3;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The LeakyReLU layer (Keras's "LeakyReLU").
class LeakyReLULayer : public Layer {
 public:
  /// A LeakyReLU layer; ValueError when `negative_slope` is negative or NaN.
  explicit LeakyReLULayer(LeakyReLUOptions options = {});
  std::string class_name() const override { return "LeakyReLU"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Reads "negative_slope", or Keras 2's "alpha".
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The slope applied to negative inputs (Keras's `negative_slope`).
  double negative_slope() const { return options_.negative_slope; }

 private:
  LeakyReLUOptions options_;
};

/// A leaky rectified linear unit layer.
LayerPtr<LeakyReLULayer> LeakyReLU(LeakyReLUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
