#pragma once
// keras.layers.Identity: returns its input (and passes its mask on).

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Identity's arguments.
struct IdentityOptions {
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Identity layer (Keras's "Identity").
class IdentityLayer : public Layer {
 public:
  /// keras.layers.Identity: returns its inputs unchanged.
  explicit IdentityLayer(IdentityOptions options = {});
  std::string class_name() const override { return "Identity"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// A placeholder layer that performs no operation.
LayerPtr<IdentityLayer> Identity(IdentityOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
