#pragma once
// keras.layers.ELU: x for x > 0, alpha * (exp(x) - 1) otherwise.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct ELUOptions {
  double alpha = 1.0;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The ELU layer (Keras's "ELU").
class ELULayer : public Layer {
 public:
  explicit ELULayer(ELUOptions options = {});
  std::string class_name() const override { return "ELU"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// The base keys plus "alpha" (Keras 3 writes no alpha and so loses it; keras-cpp keeps it,
  /// and Keras's ELU(alpha=...) reads it back).
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  double alpha() const { return options_.alpha; }

 private:
  ELUOptions options_;
};

/// An exponential linear unit layer.
LayerPtr<ELULayer> ELU(ELUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
