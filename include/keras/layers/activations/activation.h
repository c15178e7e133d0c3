#pragma once
// keras.layers.Activation: applies an activation function given by name (or a custom one).
//
//   auto act = layers::Activation("relu");

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.Activation besides `activation`.
struct ActivationOptions {
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The Activation layer (Keras's "Activation").
class ActivationLayer : public Layer {
 public:
  /// A layer applying `activation` elementwise; masks pass through unchanged.
  explicit ActivationLayer(activations::Activation activation, ActivationOptions options = {});
  std::string class_name() const override { return "Activation"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  /// ValueError when the config has no "activation".
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The function the layer applies (Keras's `activation`).
  const activations::Activation& activation() const { return activation_; }

 private:
  activations::Activation activation_;
};

/// A layer applying `activation` ("relu", "softmax", ... or a named custom function).
LayerPtr<ActivationLayer> Activation(activations::Activation activation,
                                     ActivationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
