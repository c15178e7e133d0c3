#pragma once
// keras.layers.ReLU: min(max_value, x) for x > threshold, negative_slope * (x - threshold)
// otherwise (keras.activations.relu with its three arguments).

#include <optional>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.ReLU.
struct ReLUOptions {
  /// The largest output (>= 0); unset for no limit (Keras's None).
  std::optional<double> max_value;
  /// The slope below the threshold (>= 0).
  double negative_slope = 0.0;
  /// Inputs up to this value (>= 0) are damped.
  double threshold = 0.0;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The ReLU layer (Keras's "ReLU").
class ReLULayer : public Layer {
 public:
  /// A ReLU layer; ValueError when `max_value`, `negative_slope` or `threshold` is negative.
  explicit ReLULayer(ReLUOptions options = {});
  std::string class_name() const override { return "ReLU"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The layer's arguments (Keras's `max_value`, `negative_slope`, `threshold`) and base options.
  const ReLUOptions& options() const { return options_; }

 private:
  ReLUOptions options_;
};

/// A rectified linear unit layer.
LayerPtr<ReLULayer> ReLU(ReLUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
