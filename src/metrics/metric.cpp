// The Metric base: variables, reset, and the stateless API by temporary substitution.

#include "keras/metrics/metric.h"

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/layers/layer.h"
#include "keras/ops/ops.h"

namespace keras::metrics {

Metric::Metric(std::string name, std::optional<DType> dtype)
    : name_(std::move(name)), dtype_(dtype.value_or(config::floatx())) {
  check(is_floating(dtype_), "A metric computes in a float dtype; got dtype=", dtype_name(dtype_),
        ".");
}

const std::string& Metric::name() const {
  if (name_.empty()) name_ = unique_name(to_snake_case(class_name()));
  return name_;
}

Variable Metric::add_variable(const Shape& shape, const std::string& name,
                              std::optional<DType> dtype) {
  Variable v(ops::zeros(shape, dtype.value_or(dtype_)),
             {.trainable = false, .name = name, .path = name_.empty() ? name : name_ + "/" + name});
  variables_.push_back(v);
  return v;
}

void Metric::track_metric(std::shared_ptr<Metric> metric) {
  submetrics_.push_back(std::move(metric));
}

std::vector<Variable> Metric::variables() const {
  std::vector<Variable> out = variables_;
  for (const auto& m : submetrics_) {
    auto sub = m->variables();
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

void Metric::reset_state() {
  for (Variable& v : variables_) v.assign(ops::zeros(v.shape(), v.dtype()));
  for (auto& m : submetrics_) m->reset_state();
}

Tensor Metric::operator()(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  update_state(y_true, y_pred, sample_weight);
  return result();
}

Config Metric::get_config() const {
  return {{"name", name()}, {"dtype", std::string(dtype_name(dtype_))}};
}

std::vector<Tensor> Metric::with_values(const std::vector<Tensor>& values,
                                        const std::function<void()>& body) {
  std::vector<Variable> vars = variables();
  check(values.size() == vars.size(), "metric_variables must hold one tensor per variable of ",
        class_name(), " '", name(), "' (", vars.size(), "); got ", values.size(), ".");
  std::vector<Tensor> saved;
  saved.reserve(vars.size());
  for (const Variable& v : vars) saved.push_back(v.value());
  auto restore = [&] {
    for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(saved[i]);
  };
  std::vector<Tensor> out;
  // Metrics that create their variables from the first batch (AUC with multi_label, F-scores,
  // R2Score) may add some in `body`: their values are returned too, and the new variables are
  // left at zero, as a freshly built metric's are.
  auto clear_new = [&](std::vector<Variable> all) {
    for (size_t i = vars.size(); i < all.size(); ++i)
      all[i].assign(ops::zeros(all[i].shape(), all[i].dtype()));
  };
  try {
    for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(values[i]);
    body();
    for (const Variable& v : variables()) out.push_back(v.value());
  } catch (...) {
    restore();
    clear_new(variables());
    throw;
  }
  restore();
  clear_new(variables());
  return out;
}

std::vector<Tensor> Metric::stateless_update_state(const std::vector<Tensor>& metric_variables,
                                                   const Tensor& y_true, const Tensor& y_pred,
                                                   const Tensor& sample_weight) {
  return with_values(metric_variables, [&] { update_state(y_true, y_pred, sample_weight); });
}

Tensor Metric::stateless_result(const std::vector<Tensor>& metric_variables) {
  Tensor r;
  with_values(metric_variables, [&] { r = result(); });
  return r;
}

std::vector<Tensor> Metric::stateless_reset_state() {
  std::vector<Tensor> current;
  for (const Variable& v : variables()) current.push_back(v.value());
  return with_values(current, [&] { reset_state(); });
}

}  // namespace keras::metrics
