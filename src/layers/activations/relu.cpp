#include "keras/layers/activations/relu.h"

#include <cmath>

#include "keras/ops/ops.h"

namespace keras::layers {

ReLULayer::ReLULayer(ReLUOptions options)
    : Layer(base_options(options), "re_lu"), options_(std::move(options)) {
  check(!options_.max_value || *options_.max_value >= 0.0, "ReLU '", name(),
        "': max_value cannot be negative; got max_value=",
        options_.max_value ? *options_.max_value : 0.0, ".");
  check(options_.negative_slope >= 0.0, "ReLU '", name(),
        "': negative_slope cannot be negative; got negative_slope=", options_.negative_slope,
        ".");
  check(options_.threshold >= 0.0, "ReLU '", name(), "': threshold cannot be negative; got ",
        "threshold=", options_.threshold, ".");
  set_supports_masking(true);
  set_built(true);
}

// keras.activations.relu(x, negative_slope, max_value, threshold), on its fast paths where it
// has them.
Tensor ReLULayer::call(const Tensor& x, const CallContext&) {
  const double slope = options_.negative_slope, threshold = options_.threshold;
  const std::optional<double>& max_value = options_.max_value;
  if (slope != 0.0 && !max_value && threshold == 0.0) return ops::leaky_relu(x, slope);
  bool clip_max = max_value.has_value();
  Tensor y;
  if (threshold != 0.0) {
    y = ops::where(ops::greater(x, threshold), x, ops::zeros_like(x));
  } else if (max_value && *max_value == 6.0) {
    y = ops::relu6(x);
    clip_max = false;
  } else {
    y = ops::relu(x);
  }
  if (clip_max) y = ops::clip(y, 0.0, *max_value);
  if (slope != 0.0) {
    Tensor negative_part = ops::relu(threshold != 0.0 ? ops::subtract(threshold, x) : ops::negative(x));
    y = ops::subtract(y, ops::multiply(negative_part, slope));
  }
  return y;
}

Config ReLULayer::get_config() const {
  Config c = Layer::get_config();
  c["max_value"] = options_.max_value ? Config(*options_.max_value) : Config(nullptr);
  c["negative_slope"] = options_.negative_slope;
  c["threshold"] = options_.threshold;
  return c;
}

std::shared_ptr<Layer> ReLULayer::from_config(const Config& c) {
  ReLUOptions o;
  read_base_config(c, o);
  if (c.contains("max_value") && !c["max_value"].is_null()) o.max_value = c["max_value"].get<double>();
  if (c.contains("negative_slope") && !c["negative_slope"].is_null())
    o.negative_slope = c["negative_slope"].get<double>();
  if (c.contains("threshold") && !c["threshold"].is_null()) o.threshold = c["threshold"].get<double>();
  return std::make_shared<ReLULayer>(o);
}

LayerPtr<ReLULayer> ReLU(ReLUOptions options) { return make_layer<ReLULayer>(std::move(options)); }

}  // namespace keras::layers
