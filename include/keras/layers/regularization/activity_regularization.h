#pragma once
// keras.layers.ActivityRegularization: the identity, adding l1 * sum(|x|) + l2 * sum(x^2),
// divided by the batch size (Keras 3.14+), to the layer's losses at every call.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct ActivityRegularizationOptions {
  double l1 = 0.0;
  double l2 = 0.0;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The ActivityRegularization layer (Keras's "ActivityRegularization").
class ActivityRegularizationLayer : public Layer {
 public:
  explicit ActivityRegularizationLayer(ActivityRegularizationOptions options = {});
  std::string class_name() const override { return "ActivityRegularization"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  double l1() const { return options_.l1; }
  double l2() const { return options_.l2; }

 private:
  ActivityRegularizationOptions options_;
};

/// An identity layer whose losses() penalize its output.
LayerPtr<ActivityRegularizationLayer> ActivityRegularization(
    ActivityRegularizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
