#include "keras/layers/regularization/activity_regularization.h"

#include <cmath>

#include "keras/backend/backend.h"
#include "keras/layers/regularization/dropout.h"
#include "keras/ops/ops.h"

namespace keras::layers {

ActivityRegularizationLayer::ActivityRegularizationLayer(ActivityRegularizationOptions options)
    : Layer(base_options(options), "activity_regularization"), options_(std::move(options)) {
  for (auto [arg, v] : {std::pair{"l1", options_.l1}, std::pair{"l2", options_.l2}})
    check(std::isfinite(v) && v >= 0, "ActivityRegularization '", name(),
          "': invalid value for argument ", arg, ": expected a non-negative float. Received: ",
          arg, "=", v, ".");
  set_supports_masking(true);
  set_built(true);
}

Tensor ActivityRegularizationLayer::call(const Tensor& inputs, const CallContext&) {
  Tensor x = autocast(inputs);
  // Shape inference runs on data-free tensors: no loss is recorded then.
  if (x.backend().is_symbolic() || (options_.l1 == 0 && options_.l2 == 0)) return x;
  // Keras's L1L2 penalty of the output, divided by the batch size (Keras 3.14+, as for every
  // activity regularizer; 0 for an empty batch).
  Tensor xf = is_floating(x.dtype()) ? x : ops::cast(x, compute_dtype());
  Tensor loss = ops::zeros({}, xf.dtype());
  if (options_.l1) loss = ops::add(loss, ops::multiply(ops::sum(ops::absolute(xf)), options_.l1));
  if (options_.l2) loss = ops::add(loss, ops::multiply(ops::sum(ops::square(xf)), options_.l2));
  if (x.ndim() > 0)
    loss = ops::divide_no_nan(loss, ops::full({}, static_cast<double>(x.shape()[0]), loss.dtype()));
  add_loss(loss);
  return x;
}

Config ActivityRegularizationLayer::get_config() const {
  Config c = Layer::get_config();
  c.erase("activity_regularizer");
  c["l1"] = options_.l1;
  c["l2"] = options_.l2;
  return c;
}

std::shared_ptr<Layer> ActivityRegularizationLayer::from_config(const Config& c) {
  ActivityRegularizationOptions o;
  read_base_config(c, o);
  o.l1 = c.value("l1", 0.0);
  o.l2 = c.value("l2", 0.0);
  return std::make_shared<ActivityRegularizationLayer>(std::move(o));
}

LayerPtr<ActivityRegularizationLayer> ActivityRegularization(ActivityRegularizationOptions options) {
  return make_layer<ActivityRegularizationLayer>(std::move(options));
}

}  // namespace keras::layers
