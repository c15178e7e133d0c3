#pragma once
// keras.layers.Identity: returns its input (and passes its mask on).

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct IdentityOptions {
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Identity layer (Keras's "Identity").
class IdentityLayer : public Layer {
 public:
  explicit IdentityLayer(IdentityOptions options = {});
  std::string class_name() const override { return "Identity"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// A placeholder layer that performs no operation.
LayerPtr<IdentityLayer> Identity(IdentityOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
