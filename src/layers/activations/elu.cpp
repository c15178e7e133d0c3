#include "keras/layers/activations/elu.h"

#include "keras/ops/ops.h"

namespace keras::layers {

ELULayer::ELULayer(ELUOptions options)
    : Layer(base_options(options), "elu"), options_(std::move(options)) {
  set_supports_masking(true);
  set_built(true);
}

Tensor ELULayer::call(const Tensor& inputs, const CallContext&) {
  return ops::elu(inputs, options_.alpha);
}

Config ELULayer::get_config() const {
  Config c = Layer::get_config();
  c["alpha"] = options_.alpha;
  return c;
}

std::shared_ptr<Layer> ELULayer::from_config(const Config& c) {
  ELUOptions o;
  read_base_config(c, o);
  if (c.contains("alpha")) o.alpha = c["alpha"].get<double>();
  return std::make_shared<ELULayer>(o);
}

LayerPtr<ELULayer> ELU(ELUOptions options) { return make_layer<ELULayer>(std::move(options)); }

}  // namespace keras::layers
