#include "keras/layers/rnn/time_distributed.h"

#include "keras/layers/core/dense.h"
#include "keras/layers/registry.h"
#include "keras/ops/ops.h"

namespace keras::layers {

TimeDistributedLayer::TimeDistributedLayer(std::shared_ptr<Layer> layer,
                                           TimeDistributedOptions options)
    : Layer(base_options(options), "time_distributed"), layer_(std::move(layer)) {
  check(static_cast<bool>(layer_), "TimeDistributed '", name(),
        "': `layer` must be a layer; got none.");
  set_supports_masking(true);
  track_layer("layer", layer_);
}

void TimeDistributedLayer::build(const Shape& input_shape) {
  check(input_shape.rank() >= 3, "TimeDistributed '", name(),
        "': expected inputs with at least 3 dimensions (batch, timesteps, ...); got shape ",
        shape_string(input_shape), ".");
  Shape child{input_shape[0]};
  for (int d = 2; d < input_shape.rank(); ++d) child.push_back(input_shape[d]);
  layer_->ensure_built({child}, false);
}

Tensor TimeDistributedLayer::call(const Tensor& inputs, const CallContext& ctx) {
  check(inputs.ndim() >= 3, "TimeDistributed '", name(),
        "': expected inputs with at least 3 dimensions (batch, timesteps, ...); got shape ",
        inputs.shape(), ".");
  const int64_t batch = inputs.shape()[0], timesteps = inputs.shape()[1];
  const Tensor& mask = ctx.mask;
  if (mask.defined())
    check(mask.ndim() >= 2 && mask.shape()[0] == batch && mask.shape()[1] == timesteps,
          "TimeDistributed '", name(), "': the mask must have shape (batch, timesteps, ...) = (",
          batch, ", ", timesteps, ", ...); got ", mask.shape(), ".");
  check(timesteps > 0, "TimeDistributed '", name(),
        "': the inputs need at least one timestep; got shape ", inputs.shape(), ".");

  // Dense acts on the last axis row by row: all timesteps at once give the same values.
  if (dynamic_cast<DenseLayer*>(layer_.get())) {
    Shape flat{batch * timesteps};
    for (int d = 2; d < inputs.ndim(); ++d) flat.push_back(inputs.shape()[d]);
    CallContext inner = ctx;
    inner.mask = Tensor();
    inner.masks.clear();
    Tensor y = layer_->call(ops::reshape(inputs, flat), inner);
    Shape out{batch, timesteps};
    for (int d = 1; d < y.ndim(); ++d) out.push_back(y.shape()[d]);
    return ops::reshape(y, out);
  }

  // The inner layer's call once per timestep, as Keras 3; a mask of rank >= 3 gives each step
  // its own (batch, ...) mask when the inner layer takes masks.
  TensorList xs = ops::unstack(inputs, timesteps, 1);
  TensorList masks;
  if (mask.defined() && mask.ndim() >= 3 && layer_->supports_masking())
    masks = ops::unstack(mask, timesteps, 1);
  TensorList ys;
  ys.reserve(static_cast<size_t>(timesteps));
  for (int64_t t = 0; t < timesteps; ++t) {
    CallContext inner = ctx;
    inner.mask = masks.empty() ? Tensor() : masks[static_cast<size_t>(t)];
    inner.masks.clear();
    ys.push_back(layer_->call(xs[static_cast<size_t>(t)], inner));
  }
  return ops::stack(ys, 1);
}

Config TimeDistributedLayer::get_config() const {
  Config c = Layer::get_config();
  c["layer"] = serialize(*layer_);
  return c;
}

std::shared_ptr<Layer> TimeDistributedLayer::from_config(const Config& c) {
  check(c.contains("layer"), "TimeDistributed.from_config: the config has no 'layer'.");
  TimeDistributedOptions o;
  read_base_config(c, o);
  return std::make_shared<TimeDistributedLayer>(deserialize(c["layer"]), o);
}

LayerPtr<TimeDistributedLayer> TimeDistributed(std::shared_ptr<Layer> layer,
                                               TimeDistributedOptions options) {
  return make_layer<TimeDistributedLayer>(std::move(layer), std::move(options));
}

}  // namespace keras::layers
