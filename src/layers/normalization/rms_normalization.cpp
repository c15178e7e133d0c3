#include "keras/layers/normalization/rms_normalization.h"

#include <algorithm>
#include <cmath>

#include "keras/ops/ops.h"

namespace keras::layers {

RMSNormalizationLayer::RMSNormalizationLayer(RMSNormalizationOptions options)
    : Layer(base_options(options), "rms_normalization"), options_(std::move(options)) {
  check(std::isfinite(options_.epsilon) && options_.epsilon >= 0, "RMSNormalization '", name(),
        "': epsilon must be a non-negative number; got ", options_.epsilon, ".");
  check(!options_.axis.axes().empty(), "RMSNormalization '", name(),
        "': argument 'axis' is an empty list; give at least one axis.");
}

void RMSNormalizationLayer::build(const Shape& input_shape) {
  const std::string who = "RMSNormalization '" + name() + "'";
  axes_ = options_.axis.canonical(input_shape.rank(), who);
  // Keras sorts the axes as given (a list) and keeps them as they were written.
  std::vector<int> as_given = options_.axis.axes();
  std::sort(as_given.begin(), as_given.end());
  std::vector<size_t> order(axes_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return options_.axis.axes()[a] < options_.axis.axes()[b]; });
  // The weight spans the axes in the order Keras lists them (sorted as given).
  Shape shape;
  for (size_t i : order) {
    int d = axes_[i];
    check(input_shape[d] > 0, who, ": axis ", d, " of the input must have a known size; got "
          "input shape ", shape_string(input_shape), ".");
    shape.push_back(input_shape[d]);
  }
  std::vector<int> sorted_axes;
  for (size_t i : order) sorted_axes.push_back(axes_[i]);
  axes_ = sorted_axes;
  options_.axis = AxesArg(as_given);
  built_shape_ = input_shape;
  scale_ = add_weight({.shape = shape, .initializer = "ones", .name = "scale"});
}

Tensor RMSNormalizationLayer::call(const Tensor& inputs, const CallContext&) {
  bool ok = inputs.ndim() == built_shape_.rank();
  for (size_t i = 0; ok && i < axes_.size(); ++i)
    ok = inputs.shape()[axes_[i]] == built_shape_[axes_[i]];
  check(ok, "RMSNormalization '", name(), "': expected an input like ",
        shape_string(built_shape_), " (normalized over axis ", options_.axis.str(), "); got shape ",
        inputs.shape(), ".");
  Tensor x = is_floating(inputs.dtype()) && inputs.dtype() != compute_dtype()
                 ? ops::cast(inputs, compute_dtype())
                 : inputs;
  // The scale spans the normalized axes: it broadcasts as is when they are the trailing axes
  // in increasing order, otherwise it is laid out along them.
  bool trailing = true;
  for (size_t i = 0; i < axes_.size(); ++i)
    trailing = trailing && axes_[i] == x.ndim() - static_cast<int>(axes_.size() - i);
  Tensor scale = scale_.value();
  if (!trailing) {
    std::vector<int64_t> b(x.ndim(), 1);
    std::vector<int> perm(axes_.begin(), axes_.end());
    std::vector<int> rank_order(perm.size());
    for (size_t i = 0; i < rank_order.size(); ++i) rank_order[i] = static_cast<int>(i);
    // Order the weight's axes by input axis before the reshape.
    std::sort(rank_order.begin(), rank_order.end(),
              [&](int a, int c) { return perm[a] < perm[c]; });
    bool in_order = std::is_sorted(perm.begin(), perm.end());
    if (!in_order) scale = ops::transpose(scale, rank_order);
    for (int d : axes_) b[d] = x.shape()[d];
    scale = ops::reshape(scale, Shape(b));
  }
  Tensor out = ops::rms_normalization(x, scale, axes_, options_.epsilon);
  return out.dtype() == compute_dtype() ? out : ops::cast(out, compute_dtype());
}

Config RMSNormalizationLayer::get_config() const {
  Config c = Layer::get_config();
  c["axis"] = options_.axis.to_config();
  c["epsilon"] = options_.epsilon;
  return c;
}

std::shared_ptr<Layer> RMSNormalizationLayer::from_config(const Config& c) {
  RMSNormalizationOptions o;
  read_base_config(c, o);
  if (c.contains("axis")) o.axis = AxesArg::from_config(c["axis"], "RMSNormalization");
  o.epsilon = c.value("epsilon", 1e-6);
  return std::make_shared<RMSNormalizationLayer>(std::move(o));
}

LayerPtr<RMSNormalizationLayer> RMSNormalization(RMSNormalizationOptions options) {
  return make_layer<RMSNormalizationLayer>(std::move(options));
}

}  // namespace keras::layers
