// Sum, Mean and MeanMetricWrapper as keras/src/metrics/reduction_metrics.py.

#include "keras/metrics/reduction_metrics.h"

#include <numeric>

#include "keras/core/errors.h"
#include "keras/losses/loss.h"
#include "keras/ops/ops.h"
#include "keras/tensor/keras_mask.h"

namespace keras::metrics {
namespace {

std::vector<int> axes_from(int first, int end) {
  std::vector<int> axes(static_cast<size_t>(std::max(0, end - first)));
  std::iota(axes.begin(), axes.end(), first);
  return axes;
}

Tensor reduce(const Tensor& x, const std::vector<int>& axes, bool use_mean) {
  return use_mean ? ops::mean(x, axes) : ops::sum(x, axes);
}

// Keras's apply_mask with reduction "sum": the mask multiplies the weights.
Tensor masked_weight(const Tensor& sample_weight, const Tensor& mask, DType dtype) {
  Tensor m = ops::cast(mask, dtype);
  auto [mm, w] = losses::squeeze_or_expand_to_same_rank(m, ops::cast(sample_weight, dtype));
  return ops::multiply(w, mm);
}

void accumulate_mean(Variable& total, Variable& count, const Tensor& values,
                     const Tensor& sample_weight, DType dtype) {
  auto [v, w] = reduce_to_samplewise_values(values, sample_weight, true, dtype);
  total.assign_add(ops::sum(v));
  Tensor n = w.defined()
                 ? ops::sum(w)
                 : ops::full({}, v.ndim() >= 1 ? static_cast<double>(v.shape()[0]) : 1.0, dtype);
  count.assign_add(ops::cast(n, dtype));
}

}  // namespace

std::pair<Tensor, Tensor> reduce_to_samplewise_values(Tensor values, Tensor sample_weight,
                                                      bool use_mean, DType dtype) {
  Tensor mask = get_keras_mask(values);
  values = ops::cast(values, dtype);
  if (sample_weight.defined()) {
    sample_weight = ops::cast(sample_weight, dtype);
    if (mask.defined()) sample_weight = masked_weight(sample_weight, mask, dtype);
    std::tie(values, sample_weight) = losses::squeeze_or_expand_to_same_rank(values, sample_weight);
    int weight_ndim = sample_weight.ndim();
    if (values.ndim() > weight_ndim)
      values = reduce(values, axes_from(weight_ndim, values.ndim()), use_mean);
    sample_weight = ops::broadcast_to(sample_weight, values.shape());
    values = ops::multiply(values, sample_weight);
    if (weight_ndim > 1) sample_weight = reduce(sample_weight, axes_from(1, weight_ndim), use_mean);
  }
  if (values.ndim() > 1) values = reduce(values, axes_from(1, values.ndim()), use_mean);
  return {values, sample_weight};
}

Sum::Sum(std::string name, std::optional<DType> dtype) : Metric(std::move(name), dtype) {
  total_ = add_variable({}, "total");
}

void Sum::update_state(const Tensor& values, const Tensor& sample_weight) {
  auto [v, w] = reduce_to_samplewise_values(values, sample_weight, false, dtype());
  total_.assign_add(ops::sum(v));
}

void Sum::update_state(const Tensor&, const Tensor&, const Tensor&) {
  throw ValueError("Sum '" + name() +
                   "' accumulates values: call update_state(values, sample_weight), not "
                   "(y_true, y_pred, sample_weight).");
}

Tensor Sum::result() const {
  return ops::cast(total_.value(), dtype());
}

Mean::Mean(std::string name, std::optional<DType> dtype) : Metric(std::move(name), dtype) {
  total_ = add_variable({}, "total");
  count_ = add_variable({}, "count");
}

void Mean::update_state(const Tensor& values, const Tensor& sample_weight) {
  accumulate_mean(total_, count_, values, sample_weight, dtype());
}

void Mean::update_state(const Tensor&, const Tensor&, const Tensor&) {
  throw ValueError("Mean '" + name() +
                   "' averages values: call update_state(values, sample_weight), not "
                   "(y_true, y_pred, sample_weight). MeanMetricWrapper averages a function "
                   "of (y_true, y_pred).");
}

Tensor Mean::result() const {
  return ops::divide_no_nan(total_.value(), ops::cast(count_.value(), dtype()));
}

std::vector<Tensor> Mean::stateless_update_values(const std::vector<Tensor>& metric_variables,
                                                  const Tensor& values,
                                                  const Tensor& sample_weight) {
  return with_values(metric_variables, [&] { update_state(values, sample_weight); });
}

MeanMetricWrapper::MeanMetricWrapper(Fn fn, std::string name, std::optional<DType> dtype,
                                     std::string direction)
    : Metric(std::move(name), dtype), fn_(std::move(fn)) {
  check(static_cast<bool>(fn_), "MeanMetricWrapper '", this->name(),
        "' needs a function; got an empty one.");
  total_ = add_variable({}, "total");
  count_ = add_variable({}, "count");
  set_direction(std::move(direction));
}

void MeanMetricWrapper::update_state(const Tensor& y_true, const Tensor& y_pred,
                                     const Tensor& sample_weight) {
  check(y_true.defined() && y_pred.defined(), "Metric '", name(),
        "' needs both y_true and y_pred; one of them is undefined.");
  Tensor mask = get_keras_mask(y_pred);
  Tensor values = fn_(y_true, y_pred);
  Tensor weight = sample_weight;
  if (weight.defined() && mask.defined()) weight = masked_weight(weight, mask, dtype());
  accumulate_mean(total_, count_, values, weight, dtype());
}

Tensor MeanMetricWrapper::result() const {
  return ops::divide_no_nan(total_.value(), ops::cast(count_.value(), dtype()));
}

}  // namespace keras::metrics
