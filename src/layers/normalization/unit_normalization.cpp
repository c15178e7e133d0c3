#include "keras/layers/normalization/unit_normalization.h"

#include "keras/ops/ops.h"

namespace keras::layers {

UnitNormalizationLayer::UnitNormalizationLayer(UnitNormalizationOptions options)
    : Layer(base_options(options), "unit_normalization"), options_(std::move(options)) {
  check(!options_.axis.axes().empty(), "UnitNormalization '", name(),
        "': argument 'axis' is an empty list; give at least one axis.");
  set_supports_masking(true);
  set_built(true);
}

Tensor UnitNormalizationLayer::call(const Tensor& inputs, const CallContext&) {
  std::vector<int> axes =
      options_.axis.canonical(inputs.ndim(), "UnitNormalization '" + name() + "'");
  Tensor x = is_floating(inputs.dtype()) && inputs.dtype() != compute_dtype()
                 ? ops::cast(inputs, compute_dtype())
                 : inputs;
  // Over two axes ops::normalize with order 2 is the Frobenius norm: the L2 norm of the
  // flattened axes, as Keras's x * rsqrt(sum(x^2)) is.
  return ops::normalize(x, axes, 2, 1e-12);
}

Config UnitNormalizationLayer::get_config() const {
  Config c = Layer::get_config();
  c["axis"] = options_.axis.to_config();
  return c;
}

std::shared_ptr<Layer> UnitNormalizationLayer::from_config(const Config& c) {
  UnitNormalizationOptions o;
  read_base_config(c, o);
  if (c.contains("axis")) o.axis = AxesArg::from_config(c["axis"], "UnitNormalization");
  return std::make_shared<UnitNormalizationLayer>(std::move(o));
}

LayerPtr<UnitNormalizationLayer> UnitNormalization(UnitNormalizationOptions options) {
  return make_layer<UnitNormalizationLayer>(std::move(options));
}

}  // namespace keras::layers
