#include "keras/layers/core/masking.h"

#include "keras/ops/ops.h"

namespace keras::layers {

MaskingLayer::MaskingLayer(MaskingOptions options)
    : Layer(base_options(options), "masking"), options_(std::move(options)) {
  set_supports_masking(true);
  set_built(true);
}

Tensor MaskingLayer::call(const Tensor& inputs, const CallContext&) {
  check(inputs.ndim() >= 1, "Masking '", name(), "': expected inputs of rank >= 1; got shape ",
        inputs.shape(), ".");
  Tensor keep = ops::any(ops::not_equal(inputs, options_.mask_value), -1, /*keepdims=*/true);
  return ops::multiply(inputs, ops::cast(keep, inputs.dtype()));
}

Tensor MaskingLayer::compute_mask(const Tensor& inputs, const Tensor&) const {
  return ops::any(ops::not_equal(inputs, options_.mask_value), -1);
}

Config MaskingLayer::get_config() const {
  Config c = Layer::get_config();
  c["mask_value"] = options_.mask_value;
  return c;
}

std::shared_ptr<Layer> MaskingLayer::from_config(const Config& c) {
  MaskingOptions o;
  read_base_config(c, o);
  if (c.contains("mask_value")) {
    const Config& v = c["mask_value"];
    // Keras writes a number; a tensor-valued mask_value is a serialized record.
    check(v.is_number(), "Masking.from_config: mask_value must be a number; got ", v.dump(),
          ".");
    o.mask_value = v.get<double>();
  }
  return std::make_shared<MaskingLayer>(o);
}

LayerPtr<MaskingLayer> Masking(MaskingOptions options) {
  return make_layer<MaskingLayer>(std::move(options));
}

}  // namespace keras::layers
