#include "keras/layers/normalization/layer_normalization.h"

#include <algorithm>
#include <cmath>

#include "keras/core/promotion.h"
#include "keras/ops/ops.h"

namespace keras::layers {

LayerNormalizationLayer::LayerNormalizationLayer(LayerNormalizationOptions options)
    : Layer(base_options(options), "layer_normalization"), options_(std::move(options)) {
  set_autocast(false);  // Keras: computes in float32 itself, then casts to the compute dtype
  check(std::isfinite(options_.epsilon) && options_.epsilon >= 0, "LayerNormalization '", name(),
        "': epsilon must be a non-negative number; got ", options_.epsilon, ".");
  check(!options_.axis.axes().empty(), "LayerNormalization '", name(),
        "': argument 'axis' is an empty list; give at least one axis.");
  set_supports_masking(true);
}

void LayerNormalizationLayer::build(const Shape& input_shape) {
  const std::string who = "LayerNormalization '" + name() + "'";
  axes_ = options_.axis.canonical(input_shape.rank(), who);
  std::sort(axes_.begin(), axes_.end());
  Shape shape;
  for (int d : axes_) {
    check(input_shape[d] > 0, who, ": axis ", d, " of the input must have a known size; got "
          "input shape ", shape_string(input_shape), ".");
    shape.push_back(input_shape[d]);
  }
  built_shape_ = input_shape;
  // Keras 3.15 stores the axes as a list once built: an int becomes [axis], a list is sorted;
  // negative axes stay negative.
  std::vector<int> given = options_.axis.axes();
  std::sort(given.begin(), given.end());
  options_.axis = AxesArg(given);
  if (options_.scale || options_.rms_scaling)
    gamma_ = add_weight({.shape = shape,
                         .initializer = options_.gamma_initializer,
                         .regularizer = options_.gamma_regularizer,
                         .constraint = options_.gamma_constraint,
                         .name = "gamma", .autocast = false});
  if (options_.center && !options_.rms_scaling)
    beta_ = add_weight({.shape = shape,
                        .initializer = options_.beta_initializer,
                        .regularizer = options_.beta_regularizer,
                        .constraint = options_.beta_constraint,
                        .name = "beta", .autocast = false});
}

Tensor LayerNormalizationLayer::call(const Tensor& inputs, const CallContext&) {
  bool ok = inputs.ndim() == built_shape_.rank();
  for (size_t i = 0; ok && i < axes_.size(); ++i)
    ok = inputs.shape()[axes_[i]] == built_shape_[axes_[i]];
  check(ok, "LayerNormalization '", name(), "': expected an input like ",
        shape_string(built_shape_), " (normalized over axis ", options_.axis.str(), "); got shape ",
        inputs.shape(), ".");
  Tensor out;
  if (options_.rms_scaling) {
    // The deprecated rms_scaling: x * rsqrt(var(x) + epsilon) * gamma, in at least float32.
    const DType t = result_type({inputs.dtype(), DType::Float32});
    Tensor x = ops::cast(inputs, t);
    Tensor inv = ops::rsqrt(ops::add(ops::var(x, axes_, true), options_.epsilon));
    out = ops::multiply(x, inv);
    if (gamma_.defined()) {
      Tensor g = ops::cast(gamma_, t);
      if (!(axes_.size() == 1 && axes_[0] == x.ndim() - 1)) {
        Shape b(std::vector<int64_t>(x.ndim(), 1));
        for (int d : axes_) b[d] = x.shape()[d];
        g = ops::reshape(g, b);
      }
      out = ops::multiply(out, g);
    }
    out = ops::cast(out, inputs.dtype());
  } else {
    Tensor gamma = gamma_.defined() ? gamma_.value() : Tensor();
    Tensor beta = beta_.defined() ? beta_.value() : Tensor();
    out = ops::layer_normalization(inputs, gamma, beta, axes_, options_.epsilon);
  }
  return out.dtype() == compute_dtype() ? out : ops::cast(out, compute_dtype());
}

Config LayerNormalizationLayer::get_config() const {
  Config c = Layer::get_config();
  c["axis"] = options_.axis.to_config();
  c["epsilon"] = options_.epsilon;
  c["center"] = options_.center;
  c["scale"] = options_.scale;
  c["rms_scaling"] = options_.rms_scaling;
  c["beta_initializer"] = initializers::serialize(*options_.beta_initializer);
  c["gamma_initializer"] = initializers::serialize(*options_.gamma_initializer);
  c["beta_regularizer"] = regularizers::serialize(options_.beta_regularizer.get());
  c["gamma_regularizer"] = regularizers::serialize(options_.gamma_regularizer.get());
  c["beta_constraint"] = constraints::serialize(options_.beta_constraint.get());
  c["gamma_constraint"] = constraints::serialize(options_.gamma_constraint.get());
  return c;
}

std::shared_ptr<Layer> LayerNormalizationLayer::from_config(const Config& c) {
  LayerNormalizationOptions o;
  read_base_config(c, o);
  if (c.contains("axis")) o.axis = AxesArg::from_config(c["axis"], "LayerNormalization");
  o.epsilon = c.value("epsilon", 1e-3);
  o.center = c.value("center", true);
  o.scale = c.value("scale", true);
  o.rms_scaling = c.value("rms_scaling", false);
  if (c.contains("beta_initializer")) o.beta_initializer = initializers::deserialize(c["beta_initializer"]);
  if (c.contains("gamma_initializer")) o.gamma_initializer = initializers::deserialize(c["gamma_initializer"]);
  if (c.contains("beta_regularizer")) o.beta_regularizer = regularizers::deserialize(c["beta_regularizer"]);
  if (c.contains("gamma_regularizer")) o.gamma_regularizer = regularizers::deserialize(c["gamma_regularizer"]);
  if (c.contains("beta_constraint")) o.beta_constraint = constraints::deserialize(c["beta_constraint"]);
  if (c.contains("gamma_constraint")) o.gamma_constraint = constraints::deserialize(c["gamma_constraint"]);
  return std::make_shared<LayerNormalizationLayer>(std::move(o));
}

LayerPtr<LayerNormalizationLayer> LayerNormalization(LayerNormalizationOptions options) {
  return make_layer<LayerNormalizationLayer>(std::move(options));
}

}  // namespace keras::layers
