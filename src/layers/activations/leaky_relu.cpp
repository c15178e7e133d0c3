#include "keras/layers/activations/leaky_relu.h"

#include <cmath>

#include "keras/ops/ops.h"

namespace keras::layers {

LeakyReLULayer::LeakyReLULayer(LeakyReLUOptions options)
    : Layer(base_options(options), "leaky_re_lu"), options_(std::move(options)) {
  check(options_.negative_slope >= 0 && !std::isnan(options_.negative_slope), "LeakyReLU '",
        name(), "': negative_slope must be a float >= 0; got ", options_.negative_slope, ".");
  set_supports_masking(true);
  set_built(true);
}

Tensor LeakyReLULayer::call(const Tensor& inputs, const CallContext&) {
  return ops::leaky_relu(inputs, options_.negative_slope);
}

Config LeakyReLULayer::get_config() const {
  Config c = Layer::get_config();
  c["negative_slope"] = options_.negative_slope;
  return c;
}

std::shared_ptr<Layer> LeakyReLULayer::from_config(const Config& c) {
  LeakyReLUOptions o;
  read_base_config(c, o);
  if (c.contains("negative_slope")) o.negative_slope = c["negative_slope"].get<double>();
  else if (c.contains("alpha")) o.negative_slope = c["alpha"].get<double>();
  return std::make_shared<LeakyReLULayer>(o);
}

LayerPtr<LeakyReLULayer> LeakyReLU(LeakyReLUOptions options) {
  return make_layer<LeakyReLULayer>(std::move(options));
}

}  // namespace keras::layers
