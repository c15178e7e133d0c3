#include "keras/layers/activations/softmax.h"

#include "keras/ops/ops.h"

namespace keras::layers {

SoftmaxLayer::SoftmaxLayer(SoftmaxOptions options)
    : Layer(base_options(options), "softmax"), options_(std::move(options)) {
  set_supports_masking(true);
  set_built(true);
}

Tensor SoftmaxLayer::call(const Tensor& inputs, const CallContext& ctx) {
  Tensor x = inputs;
  Tensor keep;
  if (ctx.mask.defined()) {
    keep = ctx.mask.dtype() == DType::Bool ? ctx.mask : ops::cast(ctx.mask, DType::Bool);
    // Keras adds (1 - mask) * large_negative: -3e4 in float16, -1e9 otherwise.
    const double large_negative = x.dtype() == DType::Float16 ? -3e4 : -1e9;
    x = ops::where(keep, x, ops::add(x, large_negative));
  }
  Tensor y = ops::softmax(x, options_.axis);
  // Zero the masked positions, in case a whole axis was masked.
  if (keep.defined()) y = ops::multiply(y, ops::cast(keep, y.dtype()));
  return y;
}

Config SoftmaxLayer::get_config() const {
  Config c = Layer::get_config();
  const ops::Axes& a = options_.axis;
  if (a.is_none()) c["axis"] = nullptr;
  else if (a.list().size() == 1) c["axis"] = a.list()[0];
  else c["axis"] = std::vector<int>(a.list().begin(), a.list().end());
  return c;
}

std::shared_ptr<Layer> SoftmaxLayer::from_config(const Config& c) {
  SoftmaxOptions o;
  read_base_config(c, o);
  if (c.contains("axis")) {
    const Config& a = c["axis"];
    if (a.is_null()) o.axis = ops::Axes();
    else if (a.is_number_integer()) o.axis = a.get<int>();
    else o.axis = a.get<std::vector<int>>();
  }
  return std::make_shared<SoftmaxLayer>(o);
}

LayerPtr<SoftmaxLayer> Softmax(SoftmaxOptions options) {
  return make_layer<SoftmaxLayer>(std::move(options));
}

}  // namespace keras::layers
