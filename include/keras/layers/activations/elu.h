#pragma once
// keras.layers.ELU: x for x > 0, alpha * (exp(x) - 1) otherwise.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.ELU.
struct ELUOptions {
  /// Keras's `alpha`: the scale of the negative part, alpha * (exp(x) - 1) for x <= 0.
  double alpha = 1.0;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The ELU layer (Keras's "ELU").
class ELULayer : public Layer {
 public:
  /// An ELU layer with these options (ELU() wraps one in a LayerPtr).
  explicit ELULayer(ELUOptions options = {});
  std::string class_name() const override { return "ELU"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// The base keys plus "alpha" (Keras 3 writes no alpha and so loses it; keras-cpp keeps it,
  /// and Keras's ELU(alpha=...) reads it back).
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The scale of the negative part (Keras's `alpha`).
  double alpha() const { return options_.alpha; }

 private:
  ELUOptions options_;
};

/// An exponential linear unit layer.
LayerPtr<ELULayer> ELU(ELUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
