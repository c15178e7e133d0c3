#pragma once
// keras.layers.Activation: applies an activation function given by name (or a custom one).
//
//   auto act = layers::Activation("relu");

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct ActivationOptions {
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Activation layer (Keras's "Activation").
class ActivationLayer : public Layer {
 public:
  explicit ActivationLayer(activations::Activation activation, ActivationOptions options = {});
  std::string class_name() const override { return "Activation"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  const activations::Activation& activation() const { return activation_; }

 private:
  activations::Activation activation_;
};

/// A layer applying `activation` ("relu", "softmax", ... or a named custom function).
LayerPtr<ActivationLayer> Activation(activations::Activation activation,
                                     ActivationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
