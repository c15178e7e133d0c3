#include "keras/layers/preprocessing/normalization.h"

#include <algorithm>

#include "keras/autograd/gradient_tape.h"
#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

std::string axis_string(const std::vector<int>& axis) {
  std::string s = "(";
  for (size_t i = 0; i < axis.size(); ++i) s += (i ? ", " : "") + std::to_string(axis[i]);
  return s + (axis.size() == 1 ? ",)" : ")");
}

// A statistic given at construction as a float64 host tensor (weak scalars made concrete).
Tensor host_statistic(const Tensor& t) {
  if (!t.defined()) return t;
  NoGradScope no_grad;
  return ops::convert_to_tensor(t, DType::Float64);
}

}  // namespace

NormalizationLayer::NormalizationLayer(NormalizationOptions options)
    : Layer(base_options(options), "normalization"), options_(std::move(options)) {
  set_supports_masking(true);
  options_.mean = host_statistic(options_.mean);
  options_.variance = host_statistic(options_.variance);
  const Tensor& m = options_.mean;
  const Tensor& v = options_.variance;
  check(m.defined() == v.defined(), "Normalization '", name(),
        "': when setting values directly, both mean and variance must be set; got mean ",
        m.defined() ? "set" : "None", " and variance ", v.defined() ? "set" : "None", ".");
  if (m.defined()) {
    check(m.shape() == v.shape(), "Normalization '", name(),
          "': when setting values directly, mean and variance must have the same shape; got ",
          "mean shape ", m.shape(), " and variance shape ", v.shape(), ".");
    check(m.ndim() <= static_cast<int>(options_.axis.size()), "Normalization '", name(),
          "': the rank of mean must be less than or equal to the number of axes (",
          options_.axis.size(), "); got mean shape ", m.shape(), " for axis ",
          axis_string(options_.axis), ".");
  }
}

void NormalizationLayer::build(const Shape& input_shape) {
  const int ndim = input_shape.rank();
  build_shape_ = input_shape;
  for (int a : options_.axis)
    check(a >= -ndim && a < ndim, "Normalization '", name(),
          "': all axis values must be in the range [-ndim, ndim); got inputs with ndim=", ndim,
          " (shape ", shape_string(input_shape), ") and axis=", axis_string(options_.axis), ".");
  keep_axis_.clear();
  for (int a : options_.axis) keep_axis_.push_back(a < 0 ? a + ndim : a);
  std::sort(keep_axis_.begin(), keep_axis_.end());
  keep_axis_.erase(std::unique(keep_axis_.begin(), keep_axis_.end()), keep_axis_.end());
  for (int d : keep_axis_)
    check(input_shape[d] >= 0, "Normalization '", name(),
          "': all axes to be kept must have a known extent; got axis=",
          axis_string(options_.axis), " and input shape ", shape_string(input_shape),
          " with an unknown extent at index ", d, ".");
  reduce_axis_.clear();
  broadcast_shape_ = Shape();
  mean_and_var_shape_ = Shape();
  for (int d = 0; d < ndim; ++d) {
    const bool keep = std::find(keep_axis_.begin(), keep_axis_.end(), d) != keep_axis_.end();
    if (!keep) reduce_axis_.push_back(d);
    broadcast_shape_.push_back(keep ? input_shape[d] : 1);
    if (keep) mean_and_var_shape_.push_back(input_shape[d]);
  }
  if (!options_.mean.defined()) {
    adapt_mean_ = add_weight({.shape = mean_and_var_shape_, .initializer = "zeros",
                              .trainable = false, .name = "mean"});
    adapt_variance_ = add_weight({.shape = mean_and_var_shape_, .initializer = "ones",
                                  .trainable = false, .name = "variance"});
    count_ = add_weight({.shape = Shape{}, .initializer = "zeros", .trainable = false,
                         .dtype = DType::Int32, .name = "count"});
    return;
  }
  // Fixed statistics: right-aligned against the kept axes, then broadcast.
  auto place = [&](const Tensor& stat, const char* what) {
    Tensor t = stat;
    if (t.ndim() > 0) {
      Shape expanded;
      for (int d = 0; d < ndim; ++d) expanded.push_back(1);
      for (int i = 1; i <= t.ndim(); ++i)
        expanded[keep_axis_[keep_axis_.size() - static_cast<size_t>(i)]] = t.shape()[t.ndim() - i];
      t = ops::reshape(t, expanded);
    }
    for (int d = 0; d < ndim; ++d)
      check(t.ndim() == 0 || t.shape()[d] == 1 || t.shape()[d] == broadcast_shape_[d],
            "Normalization '", name(), "': the ", what, " of shape ", stat.shape(),
            " does not broadcast to the kept axes ", axis_string(options_.axis),
            " of inputs of shape ", shape_string(input_shape), ".");
    return ops::cast(ops::broadcast_to(t, broadcast_shape_), variable_dtype());
  };
  NoGradScope no_grad;
  backend::BackendScope real(backend::current_real().name());
  fixed_mean_ = ops::copy(place(options_.mean, "mean"));
  fixed_variance_ = ops::copy(place(options_.variance, "variance"));
}

Tensor NormalizationLayer::mean() const {
  check(built(), "Normalization '", name(), "' is not built; call it or adapt() it first.");
  if (fixed_mean_.defined()) return fixed_mean_;
  return ops::reshape(adapt_mean_.value(), broadcast_shape_);
}

Tensor NormalizationLayer::variance() const {
  check(built(), "Normalization '", name(), "' is not built; call it or adapt() it first.");
  if (fixed_variance_.defined()) return fixed_variance_;
  return ops::reshape(adapt_variance_.value(), broadcast_shape_);
}

Tensor NormalizationLayer::call(const Tensor& inputs, const CallContext&) {
  check(inputs.ndim() == build_shape_.rank(), "Normalization '", name(), "' was built for rank-",
        build_shape_.rank(), " inputs (", shape_string(build_shape_), "); got shape ",
        inputs.shape(), ".");
  for (int d : keep_axis_)
    check(inputs.shape()[d] == broadcast_shape_[d], "Normalization '", name(),
          "': expected inputs of shape ", shape_string(build_shape_), " on the kept axes ",
          axis_string(options_.axis), "; got shape ", inputs.shape(), ".");
  const DType dtype = compute_dtype();
  Tensor x = ops::cast(inputs, dtype);
  Tensor m = ops::cast(pd::on_backend_of(mean(), inputs), dtype);
  Tensor v = ops::cast(pd::on_backend_of(variance(), inputs), dtype);
  Tensor scale = ops::maximum(ops::sqrt(v), Tensor(config::epsilon()));
  if (options_.invert) return ops::add(m, ops::multiply(x, scale));
  return ops::divide(ops::subtract(x, m), scale);
}

void NormalizationLayer::check_adapt_shape(const Shape& shape) const {
  check(shape.rank() == build_shape_.rank(), "Normalization '", name(),
        "': the layer was built with input shape ", shape_string(build_shape_),
        ", but adapt() got data of an incompatible shape ", shape, ".");
  for (int d : keep_axis_)
    check(shape[d] == build_shape_[d], "Normalization '", name(),
          "': the layer was built with input shape ", shape_string(build_shape_),
          ", but adapt() got data of an incompatible shape ", shape, ".");
}

void NormalizationLayer::assign_statistics(const Tensor& mean, const Tensor& variance) {
  adapt_mean_.assign(ops::cast(ops::reshape(mean, mean_and_var_shape_), adapt_mean_.dtype()));
  adapt_variance_.assign(
      ops::cast(ops::reshape(variance, mean_and_var_shape_), adapt_variance_.dtype()));
}

void NormalizationLayer::adapt(const Tensor& data) {
  check(data.defined(), "Normalization '", name(), "': adapt() got an undefined tensor.");
  check(!options_.mean.defined(), "Normalization '", name(),
        "': adapt() learns the mean and variance, but the layer was given fixed ones.");
  if (!built()) ensure_built({data.shape()}, false);
  else check_adapt_shape(data.shape());
  NoGradScope no_grad;
  Tensor x = is_floating(data.dtype()) ? data : ops::cast(data, compute_dtype());
  assign_statistics(ops::mean(x, reduce_axis_), ops::var(x, reduce_axis_));
}

void NormalizationLayer::adapt(const TensorList& batches) {
  check(!batches.empty(), "Normalization '", name(),
        "': adapt() received no batches; pass at least one.");
  check(!options_.mean.defined(), "Normalization '", name(),
        "': adapt() learns the mean and variance, but the layer was given fixed ones.");
  check(batches[0].defined(), "Normalization '", name(), "': batch 0 is an undefined tensor.");
  if (!built()) ensure_built({batches[0].shape()}, false);
  NoGradScope no_grad;
  Tensor total_mean = ops::zeros(mean_and_var_shape_, compute_dtype());
  Tensor total_var = ops::zeros(mean_and_var_shape_, compute_dtype());
  double total_count = 0;
  for (size_t i = 0; i < batches.size(); ++i) {
    check(batches[i].defined(), "Normalization '", name(), "': batch ", i,
          " is an undefined tensor.");
    check_adapt_shape(batches[i].shape());
    Tensor batch = ops::cast(batches[i], compute_dtype());
    Tensor batch_mean = ops::mean(batch, reduce_axis_);
    Tensor batch_var = ops::var(batch, reduce_axis_);
    double batch_count = 1;
    for (int d : reduce_axis_) batch_count *= static_cast<double>(batch.shape()[d]);
    total_count += batch_count;
    const double batch_weight = batch_count / total_count;
    const double existing_weight = 1.0 - batch_weight;
    Tensor new_mean = ops::add(ops::multiply(total_mean, existing_weight),
                               ops::multiply(batch_mean, batch_weight));
    total_var = ops::add(
        ops::multiply(ops::add(total_var, ops::square(ops::subtract(total_mean, new_mean))),
                      existing_weight),
        ops::multiply(ops::add(batch_var, ops::square(ops::subtract(batch_mean, new_mean))),
                      batch_weight));
    total_mean = new_mean;
  }
  assign_statistics(total_mean, total_var);
}

Config NormalizationLayer::get_config() const {
  Config c = Layer::get_config();
  c["axis"] = options_.axis;
  c["invert"] = options_.invert;
  c["mean"] = options_.mean.defined() ? pd::tensor_to_config(options_.mean) : Config(nullptr);
  c["variance"] =
      options_.variance.defined() ? pd::tensor_to_config(options_.variance) : Config(nullptr);
  return c;
}

std::shared_ptr<Layer> NormalizationLayer::from_config(const Config& c) {
  NormalizationOptions o;
  read_base_config(c, o);
  if (c.contains("axis")) {
    const Config& a = c["axis"];
    if (a.is_null()) o.axis = {};
    else if (a.is_number()) o.axis = {a.get<int>()};
    else o.axis = a.get<std::vector<int>>();
  }
  o.invert = c.value("invert", false);
  if (c.contains("mean")) o.mean = pd::config_to_tensor(c["mean"], "Normalization mean");
  if (c.contains("variance"))
    o.variance = pd::config_to_tensor(c["variance"], "Normalization variance");
  return std::make_shared<NormalizationLayer>(o);
}

LayerPtr<NormalizationLayer> Normalization(NormalizationOptions options) {
  return make_layer<NormalizationLayer>(std::move(options));
}

}  // namespace keras::layers
