#include "keras/layers/activations/prelu.h"

#include <algorithm>

#include "keras/ops/ops.h"

namespace keras::layers {

PReLULayer::PReLULayer(PReLUOptions options)
    : Layer(base_options(options), "p_re_lu"), options_(std::move(options)) {
  for (int a : options_.shared_axes)
    check(a >= 1, "PReLU '", name(), "': shared_axes must be axes >= 1 (axis 0 is the batch); got ",
          a, ".");
  set_supports_masking(true);
}

void PReLULayer::build(const Shape& input_shape) {
  const int rank = input_shape.rank();
  check(rank >= 2, "PReLU '", name(), "': expected inputs of rank >= 2 (batch and features); got ",
        "input shape ", shape_string(input_shape), ".");
  Shape param(input_shape.begin() + 1, input_shape.end());
  for (int a : options_.shared_axes) {
    check(a < rank, "PReLU '", name(), "': shared axis ", a, " is out of range for input shape ",
          shape_string(input_shape), ".");
    param[a - 1] = 1;
  }
  for (int d = 0; d < param.rank(); ++d)
    check(param[d] >= 0, "PReLU '", name(), "': axis ", d + 1, " of the input shape ",
          shape_string(input_shape), " is unknown; give it or add it to shared_axes.");
  input_shape_ = input_shape;
  alpha_ = add_weight({.shape = param,
                       .initializer = options_.alpha_initializer,
                       .regularizer = options_.alpha_regularizer,
                       .constraint = options_.alpha_constraint,
                       .name = "alpha"});
}

Tensor PReLULayer::call(const Tensor& inputs, const CallContext&) {
  // Keras's InputSpec: the rank and the non-shared axes are fixed at build.
  bool ok = inputs.ndim() == input_shape_.rank();
  for (int d = 1; ok && d < inputs.ndim(); ++d)
    if (std::find(options_.shared_axes.begin(), options_.shared_axes.end(), d) ==
        options_.shared_axes.end())
      ok = inputs.shape()[d] == input_shape_[d];
  check(ok, "PReLU '", name(), "': expected inputs of shape ", shape_string(input_shape_),
        " (built for it); got ", inputs.shape(), ".");
  // max(x, 0) + alpha * min(x, 0) in one select: x where x > 0, alpha * x elsewhere.
  Tensor x = ops::cast(inputs, compute_dtype());
  return ops::where(ops::greater(x, 0), x, ops::multiply(alpha_.value(), x));
}

Config PReLULayer::get_config() const {
  Config c = Layer::get_config();
  c["alpha_initializer"] = initializers::serialize(*options_.alpha_initializer);
  c["alpha_regularizer"] = regularizers::serialize(options_.alpha_regularizer.get());
  c["alpha_constraint"] = constraints::serialize(options_.alpha_constraint.get());
  c["shared_axes"] = options_.shared_axes.empty() ? Config(nullptr) : Config(options_.shared_axes);
  return c;
}

std::shared_ptr<Layer> PReLULayer::from_config(const Config& c) {
  PReLUOptions o;
  read_base_config(c, o);
  if (c.contains("alpha_initializer")) o.alpha_initializer = initializers::deserialize(c["alpha_initializer"]);
  if (c.contains("alpha_regularizer")) o.alpha_regularizer = regularizers::deserialize(c["alpha_regularizer"]);
  if (c.contains("alpha_constraint")) o.alpha_constraint = constraints::deserialize(c["alpha_constraint"]);
  if (c.contains("shared_axes") && !c["shared_axes"].is_null()) {
    const Config& s = c["shared_axes"];
    if (s.is_number_integer()) o.shared_axes = {s.get<int>()};
    else o.shared_axes = s.get<std::vector<int>>();
  }
  return std::make_shared<PReLULayer>(o);
}

LayerPtr<PReLULayer> PReLU(PReLUOptions options) {
  return make_layer<PReLULayer>(std::move(options));
}

}  // namespace keras::layers
