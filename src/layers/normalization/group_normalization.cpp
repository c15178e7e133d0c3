#include "keras/layers/normalization/group_normalization.h"

#include <cmath>

#include "keras/core/promotion.h"
#include "keras/ops/ops.h"

namespace keras::layers {

GroupNormalizationLayer::GroupNormalizationLayer(int groups, GroupNormalizationOptions options)
    : Layer(base_options(options), "group_normalization"),
      groups_(groups),
      options_(std::move(options)) {
  set_autocast(false);  // Keras: computes in float32 itself, then casts to the compute dtype
  check(groups > 0 || groups == -1, "GroupNormalization '", name(),
        "': received an invalid value for argument `groups`, expected a positive integer (or "
        "-1 for instance normalization). Received: groups=", groups, ".");
  check(std::isfinite(options_.epsilon) && options_.epsilon >= 0, "GroupNormalization '", name(),
        "': epsilon must be a non-negative number; got ", options_.epsilon, ".");
  set_supports_masking(true);
}

void GroupNormalizationLayer::build(const Shape& input_shape) {
  const std::string who = "GroupNormalization '" + name() + "'";
  const int ndim = input_shape.rank();
  check(options_.axis >= -ndim && options_.axis < ndim, who, ": axis ", options_.axis,
        " is out of bounds for input shape ", shape_string(input_shape), ".");
  axis_ = options_.axis < 0 ? options_.axis + ndim : options_.axis;
  check(axis_ > 0, who, ": axis ", options_.axis,
        " is the batch axis; give the channels axis (e.g. -1 or 1).");
  ndim_ = ndim;
  channels_ = input_shape[axis_];
  check(channels_ > 0, who, ": axis ", options_.axis,
        " of the input should have a defined dimension but the layer received an input with "
        "shape ", shape_string(input_shape), ".");
  if (groups_ == -1) groups_ = static_cast<int>(channels_);
  check(channels_ >= groups_, who, ": number of groups (", groups_,
        ") cannot be more than the number of channels (", channels_, ").");
  check(channels_ % groups_ == 0, who, ": number of groups (", groups_,
        ") must divide the number of channels (", channels_, ").");
  const Shape shape{channels_};
  if (options_.scale)
    gamma_ = add_weight({.shape = shape,
                         .initializer = options_.gamma_initializer,
                         .regularizer = options_.gamma_regularizer,
                         .constraint = options_.gamma_constraint,
                         .name = "gamma", .autocast = false});
  if (options_.center)
    beta_ = add_weight({.shape = shape,
                        .initializer = options_.beta_initializer,
                        .regularizer = options_.beta_regularizer,
                        .constraint = options_.beta_constraint,
                        .name = "beta", .autocast = false});
}

Tensor GroupNormalizationLayer::call(const Tensor& inputs, const CallContext&) {
  check(inputs.ndim() == ndim_ && inputs.shape()[axis_] == channels_, "GroupNormalization '",
        name(), "': expected an input of rank ", ndim_, " with ", channels_,
        " channels on axis ", options_.axis, "; got shape ", inputs.shape(), ".");
  // (..., C, ...) -> (..., G, C / G, ...): statistics per sample and group over every other
  // non-batch axis, in at least float32.
  const DType t = result_type({inputs.dtype(), DType::Float32});
  Tensor x = inputs.dtype() == t ? inputs : ops::cast(inputs, t);
  const int64_t per_group = channels_ / groups_;
  Shape grouped, param;
  std::vector<int> reduction;
  for (int d = 0; d < ndim_; ++d) {
    if (d == axis_) {
      grouped.push_back(groups_);
      grouped.push_back(per_group);
      param.push_back(groups_);
      param.push_back(per_group);
      reduction.push_back(d + 1);
    } else {
      grouped.push_back(x.shape()[d]);
      param.push_back(1);
      if (d > 0) reduction.push_back(d < axis_ ? d : d + 1);
    }
  }
  Tensor xg = ops::reshape(x, grouped);
  auto [mean, variance] = ops::moments(xg, reduction, true);
  // x * inv + (beta - mean * inv), inv = gamma / sqrt(variance + epsilon), as Keras computes.
  Tensor inv = ops::rsqrt(ops::add(variance, options_.epsilon));
  if (gamma_.defined()) inv = ops::multiply(inv, ops::reshape(ops::cast(gamma_, t), param));
  Tensor res = ops::negative(ops::multiply(mean, inv));
  if (beta_.defined()) res = ops::add(res, ops::reshape(ops::cast(beta_, t), param));
  Tensor out = ops::reshape(ops::add(ops::multiply(xg, inv), res), x.shape());
  return out.dtype() == compute_dtype() ? out : ops::cast(out, compute_dtype());
}

Config GroupNormalizationLayer::get_config() const {
  Config c = Layer::get_config();
  c["groups"] = groups_;
  c["axis"] = options_.axis;
  c["epsilon"] = options_.epsilon;
  c["center"] = options_.center;
  c["scale"] = options_.scale;
  c["beta_initializer"] = initializers::serialize(*options_.beta_initializer);
  c["gamma_initializer"] = initializers::serialize(*options_.gamma_initializer);
  c["beta_regularizer"] = regularizers::serialize(options_.beta_regularizer.get());
  c["gamma_regularizer"] = regularizers::serialize(options_.gamma_regularizer.get());
  c["beta_constraint"] = constraints::serialize(options_.beta_constraint.get());
  c["gamma_constraint"] = constraints::serialize(options_.gamma_constraint.get());
  return c;
}

std::shared_ptr<Layer> GroupNormalizationLayer::from_config(const Config& c) {
  GroupNormalizationOptions o;
  read_base_config(c, o);
  o.axis = c.value("axis", -1);
  o.epsilon = c.value("epsilon", 1e-3);
  o.center = c.value("center", true);
  o.scale = c.value("scale", true);
  if (c.contains("beta_initializer")) o.beta_initializer = initializers::deserialize(c["beta_initializer"]);
  if (c.contains("gamma_initializer")) o.gamma_initializer = initializers::deserialize(c["gamma_initializer"]);
  if (c.contains("beta_regularizer")) o.beta_regularizer = regularizers::deserialize(c["beta_regularizer"]);
  if (c.contains("gamma_regularizer")) o.gamma_regularizer = regularizers::deserialize(c["gamma_regularizer"]);
  if (c.contains("beta_constraint")) o.beta_constraint = constraints::deserialize(c["beta_constraint"]);
  if (c.contains("gamma_constraint")) o.gamma_constraint = constraints::deserialize(c["gamma_constraint"]);
  return std::make_shared<GroupNormalizationLayer>(c.value("groups", 32), std::move(o));
}

LayerPtr<GroupNormalizationLayer> GroupNormalization(int groups,
                                                     GroupNormalizationOptions options) {
  return make_layer<GroupNormalizationLayer>(groups, std::move(options));
}

}  // namespace keras::layers
