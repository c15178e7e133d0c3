#pragma once
// keras.layers.ActivityRegularization: the identity, adding l1 * sum(|x|) + l2 * sum(x^2),
// divided by the batch size (Keras 3.14+), to the layer's losses at every call.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.ActivityRegularization.
struct ActivityRegularizationOptions {
  /// Keras's `l1`: the factor of the L1 penalty sum(|x|) (>= 0).
  double l1 = 0.0;
  /// Keras's `l2`: the factor of the L2 penalty sum(x^2) (>= 0).
  double l2 = 0.0;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The ActivityRegularization layer (Keras's "ActivityRegularization").
class ActivityRegularizationLayer : public Layer {
 public:
  /// An ActivityRegularization layer; ValueError when `l1` or `l2` is negative or not finite.
  explicit ActivityRegularizationLayer(ActivityRegularizationOptions options = {});
  std::string class_name() const override { return "ActivityRegularization"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The L1 penalty factor (Keras's `l1`).
  double l1() const { return options_.l1; }
  /// The L2 penalty factor (Keras's `l2`).
  double l2() const { return options_.l2; }

 private:
  ActivityRegularizationOptions options_;
};

/// An identity layer whose losses() penalize its output.
LayerPtr<ActivityRegularizationLayer> ActivityRegularization(
    ActivityRegularizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
