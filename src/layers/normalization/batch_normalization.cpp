#include "keras/layers/normalization/batch_normalization.h"

#include <cmath>

#include "keras/autograd/gradient_tape.h"
#include "keras/backend/backend.h"
#include "keras/core/config.h"
#include "keras/core/promotion.h"
#include "keras/distribution/runtime.h"
#include "keras/ops/ops.h"

namespace keras::layers {
namespace {

// The square root of another initializer's values: batch renormalization tracks standard
// deviations, initialized from moving_variance_initializer (internal; never serialized).
class SqrtInitializer final : public initializers::Initializer {
 public:
  explicit SqrtInitializer(initializers::InitializerPtr inner) : inner_(std::move(inner)) {}
  Tensor operator()(const Shape& shape, DType dtype) const override {
    return ops::sqrt((*inner_)(shape, dtype));
  }
  std::string class_name() const override { return "SqrtOf" + inner_->class_name(); }

 private:
  initializers::InitializerPtr inner_;
};

Config clipping_to_config(const RenormClipping& c) {
  Config out = Config::object();
  if (c.rmax) out["rmax"] = *c.rmax;
  if (c.rmin) out["rmin"] = *c.rmin;
  if (c.dmax) out["dmax"] = *c.dmax;
  return out;
}

RenormClipping clipping_from_config(const Config& c) {
  check(c.is_object(), "BatchNormalization: `renorm_clipping` must be a dict with keys among "
                       "rmax, rmin, dmax; got ", c.dump(), ".");
  RenormClipping out;
  for (auto it = c.begin(); it != c.end(); ++it) {
    const std::string& k = it.key();
    check(k == "rmax" || k == "rmin" || k == "dmax",
          "Received invalid keys for `renorm_clipping` argument: ", c.dump(),
          ". Supported values: [rmax, rmin, dmax].");
    if (it.value().is_null()) continue;
    double v = it.value().get<double>();
    (k == "rmax" ? out.rmax : k == "rmin" ? out.rmin : out.dmax) = v;
  }
  return out;
}

// What BatchNormalization computes in: at least float32 (it is prone to overflow in float16).
Tensor upcast(const Tensor& x) {
  DType t = result_type({x.dtype(), DType::Float32});
  return x.dtype() == t ? x : ops::cast(x, t);
}

}  // namespace

BatchNormalizationLayer::BatchNormalizationLayer(BatchNormalizationOptions options)
    : Layer(base_options(options), "batch_normalization"), options_(std::move(options)) {
  const std::string who = "BatchNormalization '" + name() + "'";
  check(std::isfinite(options_.epsilon) && options_.epsilon >= 0, who,
        ": epsilon must be a non-negative number; got ", options_.epsilon, ".");
  check(std::isfinite(options_.momentum), who, ": momentum must be a finite number; got ",
        options_.momentum, ".");
  if (options_.renorm) {
    if (!options_.renorm_clipping) options_.renorm_clipping = RenormClipping{};
    const RenormClipping& c = *options_.renorm_clipping;
    check(!(c.rmax && c.rmin && *c.rmax < *c.rmin), who,
          ": rmax should be greater than rmin in the `renorm_clipping` argument. Received: "
          "rmax=", c.rmax.value_or(0), ", rmin=", c.rmin.value_or(0), ".");
    check(!(c.dmax && *c.dmax < 0), who,
          ": dmax should be non-negative in the `renorm_clipping` argument. Received: dmax=",
          c.dmax.value_or(0), ".");
  }
  set_supports_masking(true);
}

void BatchNormalizationLayer::build(const Shape& input_shape) {
  const int ndim = input_shape.rank();
  check(options_.axis >= -ndim && options_.axis < ndim, "BatchNormalization '", name(),
        "': axis ", options_.axis, " is out of bounds for input shape ",
        shape_string(input_shape), ".");
  axis_ = options_.axis < 0 ? options_.axis + ndim : options_.axis;
  ndim_ = ndim;
  channels_ = input_shape[axis_];
  check(channels_ > 0, "BatchNormalization '", name(), "': axis ", options_.axis,
        " of the input must have a known size; got input shape ", shape_string(input_shape),
        ".");
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
  moving_mean_ = add_weight({.shape = shape,
                             .initializer = options_.moving_mean_initializer,
                             .trainable = false,
                             .name = "moving_mean", .autocast = false});
  moving_variance_ = add_weight({.shape = shape,
                                 .initializer = options_.moving_variance_initializer,
                                 .trainable = false,
                                 .name = "moving_variance", .autocast = false});
  if (options_.renorm) {
    auto stddev_init =
        std::make_shared<SqrtInitializer>(options_.moving_variance_initializer.get());
    moving_stddev_ = add_weight(
        {.shape = shape, .initializer = stddev_init, .trainable = false, .name = "moving_stddev", .autocast = false});
    renorm_mean_ = add_weight({.shape = shape,
                               .initializer = options_.moving_mean_initializer,
                               .trainable = false,
                               .name = "renorm_mean", .autocast = false});
    renorm_stddev_ = add_weight(
        {.shape = shape, .initializer = stddev_init, .trainable = false, .name = "renorm_stddev", .autocast = false});
  }
}

std::pair<Tensor, Tensor> BatchNormalizationLayer::batch_moments(const Tensor& x,
                                                                 const Tensor& mask) const {
  std::vector<int> reduction;
  for (int d = 0; d < ndim_; ++d)
    if (d != axis_) reduction.push_back(d);
  if (!mask.defined()) return ops::moments(x, reduction, false, options_.synchronized);
  check(!options_.synchronized || distribution::num_processes() == 1, "BatchNormalization '",
        name(), "': synchronized=true with a mask is not supported in a job of several processes;"
        " drop the mask or set synchronized=false.");
  // Statistics over the positions the mask keeps (Keras's _moments): the mask has the input's
  // rank minus one and broadcasts along a trailing features axis.
  Tensor keep = ops::broadcast_to(ops::cast(ops::expand_dims(mask, -1), DType::Bool), x.shape());
  Tensor count = ops::sum(ops::cast(keep, x.dtype()), reduction, true);
  Tensor denom = ops::add(count, config::epsilon());
  Tensor mean = ops::divide(ops::sum(ops::where(keep, x, 0.0), reduction, true), denom);
  Tensor diff = ops::where(keep, ops::subtract(x, mean), 0.0);
  Tensor variance = ops::divide(ops::sum(ops::square(diff), reduction, true), denom);
  return {ops::reshape(mean, {channels_}), ops::reshape(variance, {channels_})};
}

Tensor BatchNormalizationLayer::call(const Tensor& inputs, const CallContext& ctx) {
  check(inputs.ndim() == ndim_ && inputs.shape()[axis_] == channels_, "BatchNormalization '",
        name(), "': expected an input of rank ", ndim_, " with ", channels_, " features on axis ",
        options_.axis, "; got shape ", inputs.shape(), ".");
  if (ctx.mask.defined())
    check(ctx.mask.ndim() == inputs.ndim() - 1, "BatchNormalization '", name(),
          "': the mask should have one dimension less than the inputs. Received: mask.shape=",
          ctx.mask.shape(), ", inputs.shape=", inputs.shape(), ".");
  const Tensor x = upcast(inputs);
  const DType t = x.dtype();
  auto as_t = [t](const Variable& v) {
    return v.defined() ? (v.dtype() == t ? v.value() : ops::cast(v, t)) : Tensor();
  };
  Tensor gamma = as_t(gamma_), beta = as_t(beta_);
  Tensor mean, variance;
  // Keras 3: a frozen BatchNormalization runs in inference mode even when training.
  if (ctx.training.value_or(false) && trainable()) {
    std::tie(mean, variance) = batch_moments(x, ctx.mask);
    // Shape inference runs on data-free tensors: the statistics are not updated then.
    const bool update = !x.backend().is_symbolic();
    const double m = options_.momentum;
    if (options_.renorm) {
      // Corrections r, d towards the renorm statistics, held constant for the gradient:
      // (x_hat * r + d) * gamma + beta = x_hat * (r * gamma) + (d * gamma + beta).
      const double eps = options_.epsilon;
      Tensor stddev = ops::sqrt(ops::add(variance, eps));
      Tensor rmean = as_t(renorm_mean_);
      Tensor rstd_raw = as_t(renorm_stddev_);
      Tensor rstd = ops::maximum(rstd_raw, std::sqrt(eps));
      Tensor r = ops::divide(stddev, rstd);
      Tensor d = ops::divide(ops::subtract(mean, rmean), rstd);
      const RenormClipping& c = *options_.renorm_clipping;
      if (c.rmin) r = ops::maximum(r, *c.rmin);
      if (c.rmax) r = ops::minimum(r, *c.rmax);
      if (c.dmax) d = ops::clip(d, -*c.dmax, *c.dmax);
      r = ops::stop_gradient(r);
      d = ops::stop_gradient(d);
      Tensor new_beta = gamma.defined() ? ops::multiply(d, gamma) : d;
      if (beta.defined()) new_beta = ops::add(new_beta, beta);
      gamma = gamma.defined() ? ops::multiply(r, gamma) : r;
      beta = new_beta;
      if (update) {
        NoGradScope no_grad;
        const double rm = options_.renorm_momentum;
        renorm_mean_.assign(ops::add(ops::multiply(rmean, rm), ops::multiply(mean, 1.0 - rm)));
        renorm_stddev_.assign(
            ops::add(ops::multiply(rstd_raw, rm), ops::multiply(stddev, 1.0 - rm)));
        moving_mean_.assign(
            ops::add(ops::multiply(as_t(moving_mean_), m), ops::multiply(mean, 1.0 - m)));
        Tensor new_std = ops::add(ops::multiply(as_t(moving_stddev_), m),
                                  ops::multiply(stddev, 1.0 - m));
        moving_stddev_.assign(new_std);
        // The variance follows from the standard deviation (clamped at 0 against rounding).
        moving_variance_.assign(ops::relu(ops::subtract(ops::square(new_std), eps)));
      }
    } else if (update) {
      NoGradScope no_grad;
      moving_mean_.assign(
          ops::add(ops::multiply(as_t(moving_mean_), m), ops::multiply(mean, 1.0 - m)));
      moving_variance_.assign(
          ops::add(ops::multiply(as_t(moving_variance_), m), ops::multiply(variance, 1.0 - m)));
    }
  } else {
    mean = as_t(moving_mean_);
    variance = as_t(moving_variance_);
  }
  Tensor out = ops::batch_normalization(x, mean, variance, axis_, beta, gamma, options_.epsilon);
  return out.dtype() == compute_dtype() ? out : ops::cast(out, compute_dtype());
}

Config BatchNormalizationLayer::get_config() const {
  Config c = Layer::get_config();
  c["axis"] = options_.axis;
  c["momentum"] = options_.momentum;
  c["epsilon"] = options_.epsilon;
  c["center"] = options_.center;
  c["scale"] = options_.scale;
  c["beta_initializer"] = initializers::serialize(*options_.beta_initializer);
  c["gamma_initializer"] = initializers::serialize(*options_.gamma_initializer);
  c["moving_mean_initializer"] = initializers::serialize(*options_.moving_mean_initializer);
  c["moving_variance_initializer"] =
      initializers::serialize(*options_.moving_variance_initializer);
  c["beta_regularizer"] = regularizers::serialize(options_.beta_regularizer.get());
  c["gamma_regularizer"] = regularizers::serialize(options_.gamma_regularizer.get());
  c["beta_constraint"] = constraints::serialize(options_.beta_constraint.get());
  c["gamma_constraint"] = constraints::serialize(options_.gamma_constraint.get());
  c["synchronized"] = options_.synchronized;
  // Keras 3.15 writes the renorm keys always (3.10 had none of them; they are read optional).
  c["renorm"] = options_.renorm;
  c["renorm_clipping"] = options_.renorm && options_.renorm_clipping
                             ? clipping_to_config(*options_.renorm_clipping)
                             : Config(nullptr);
  c["renorm_momentum"] = options_.renorm_momentum;
  return c;
}

std::shared_ptr<Layer> BatchNormalizationLayer::from_config(const Config& c) {
  BatchNormalizationOptions o;
  read_base_config(c, o);
  o.axis = c.value("axis", -1);
  o.momentum = c.value("momentum", 0.99);
  o.epsilon = c.value("epsilon", 1e-3);
  o.center = c.value("center", true);
  o.scale = c.value("scale", true);
  auto init = [&](const char* key, initializers::InitializerArg& out) {
    if (c.contains(key) && !c[key].is_null()) out = initializers::deserialize(c[key]);
  };
  init("beta_initializer", o.beta_initializer);
  init("gamma_initializer", o.gamma_initializer);
  init("moving_mean_initializer", o.moving_mean_initializer);
  init("moving_variance_initializer", o.moving_variance_initializer);
  if (c.contains("beta_regularizer")) o.beta_regularizer = regularizers::deserialize(c["beta_regularizer"]);
  if (c.contains("gamma_regularizer")) o.gamma_regularizer = regularizers::deserialize(c["gamma_regularizer"]);
  if (c.contains("beta_constraint")) o.beta_constraint = constraints::deserialize(c["beta_constraint"]);
  if (c.contains("gamma_constraint")) o.gamma_constraint = constraints::deserialize(c["gamma_constraint"]);
  o.synchronized = c.value("synchronized", false);
  o.renorm = c.value("renorm", false);
  if (c.contains("renorm_clipping") && !c["renorm_clipping"].is_null())
    o.renorm_clipping = clipping_from_config(c["renorm_clipping"]);
  o.renorm_momentum = c.value("renorm_momentum", 0.99);
  return std::make_shared<BatchNormalizationLayer>(std::move(o));
}

LayerPtr<BatchNormalizationLayer> BatchNormalization(BatchNormalizationOptions options) {
  return make_layer<BatchNormalizationLayer>(std::move(options));
}

}  // namespace keras::layers
