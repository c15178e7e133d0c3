#pragma once
// keras.layers.ReLU: min(max_value, x) for x > threshold, negative_slope * (x - threshold)
// otherwise (keras.activations.relu with its three arguments).

#include <optional>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct ReLUOptions {
  /// The largest output (>= 0); unset for no limit (Keras's None).
  std::optional<double> max_value;
  /// The slope below the threshold (>= 0).
  double negative_slope = 0.0;
  /// Inputs up to this value (>= 0) are damped.
  double threshold = 0.0;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The ReLU layer (Keras's "ReLU").
class ReLULayer : public Layer {
 public:
  explicit ReLULayer(ReLUOptions options = {});
  std::string class_name() const override { return "ReLU"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  const ReLUOptions& options() const { return options_; }

 private:
  ReLUOptions options_;
};

/// A rectified linear unit layer.
LayerPtr<ReLULayer> ReLU(ReLUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
