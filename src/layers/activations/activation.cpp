#include "keras/layers/activations/activation.h"

namespace keras::layers {

ActivationLayer::ActivationLayer(activations::Activation activation, ActivationOptions options)
    : Layer(base_options(options), "activation"), activation_(std::move(activation)) {
  set_supports_masking(true);
  set_built(true);
}

Tensor ActivationLayer::call(const Tensor& inputs, const CallContext&) {
  return activation_(inputs);
}

Config ActivationLayer::get_config() const {
  Config c = Layer::get_config();
  c["activation"] = activations::serialize(activation_);
  return c;
}

std::shared_ptr<Layer> ActivationLayer::from_config(const Config& c) {
  ActivationOptions o;
  read_base_config(c, o);
  check(c.contains("activation"), "Activation.from_config: the config has no 'activation': ",
        c.dump(), ".");
  return std::make_shared<ActivationLayer>(activations::deserialize(c["activation"]), o);
}

LayerPtr<ActivationLayer> Activation(activations::Activation activation,
                                     ActivationOptions options) {
  return make_layer<ActivationLayer>(std::move(activation), std::move(options));
}

}  // namespace keras::layers
