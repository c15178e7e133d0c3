#include "keras/layers/core/identity.h"

namespace keras::layers {

IdentityLayer::IdentityLayer(IdentityOptions options)
    : Layer(base_options(options), "identity") {
  set_supports_masking(true);
  set_built(true);
}

Tensor IdentityLayer::call(const Tensor& inputs, const CallContext&) { return inputs; }

// Keras's Identity returns any structure unchanged, a list included.
TensorList IdentityLayer::call_list(const TensorList& inputs, const CallContext&) {
  return inputs;
}

TensorList IdentityLayer::compute_mask_list(const TensorList&, const TensorList& masks) const {
  return masks;
}

std::shared_ptr<Layer> IdentityLayer::from_config(const Config& c) {
  IdentityOptions o;
  read_base_config(c, o);
  return std::make_shared<IdentityLayer>(o);
}

LayerPtr<IdentityLayer> Identity(IdentityOptions options) {
  return make_layer<IdentityLayer>(std::move(options));
}

}  // namespace keras::layers
