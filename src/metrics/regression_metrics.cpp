// R2Score as keras/src/metrics/regression_metrics.py (sums counted on the host).

#include "keras/metrics/regression_metrics.h"

#include <cmath>

#include "keras/core/errors.h"
#include "keras/losses/loss.h"
#include "keras/ops/ops.h"
#include "metrics/config_read.h"
#include "metrics/host.h"

namespace keras::metrics {
namespace {
using detail::device;
using detail::host;
using detail::shape_str;
}  // namespace

R2Score::R2Score(R2ScoreOptions options)
    : Metric(options.name, options.dtype), options_(std::move(options)) {
  set_direction("up");
  const auto& a = options_.class_aggregation;
  if (a && *a != "uniform_average" && *a != "variance_weighted_average")
    throw ValueError("Invalid value for argument `class_aggregation`. Expected one of (None, "
                     "'uniform_average', 'variance_weighted_average'). Received: "
                     "class_aggregation=" + *a);
  if (options_.num_regressors < 0)
    throw ValueError("Invalid value for argument `num_regressors`. Expected a value >= 0. "
                     "Received: num_regressors=" + std::to_string(options_.num_regressors));
  num_samples_ = add_variable({}, "num_samples");
}

void R2Score::update_state(const Tensor& y_true_in, const Tensor& y_pred_in,
                           const Tensor& sample_weight) {
  check(y_true_in.defined() && y_pred_in.defined(), "R2Score '", name(),
        "' needs both y_true and y_pred; one of them is undefined.");
  auto [y_true, y_pred] = losses::squeeze_or_expand_to_same_rank(ops::cast(y_true_in, dtype()),
                                                                 ops::cast(y_pred_in, dtype()));
  if (y_pred.ndim() != 2 || y_true.ndim() != 2)
    throw ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim). Received "
                     "input shapes: y_pred.shape=" + shape_str(y_pred_in.shape()) +
                     " and y_true.shape=" + shape_str(y_true_in.shape()) + ".");
  check(y_true.shape() == y_pred.shape(), "R2Score '", name(),
        "': y_true and y_pred must have the same shape; got ", y_true_in.shape(), " and ",
        y_pred_in.shape(), ".");
  const int64_t b = y_true.shape()[0], k = y_true.shape()[1];
  if (!built_) {
    squared_sum_ = add_variable({k}, "squared_sum");
    sum_ = add_variable({k}, "sum");
    total_mse_ = add_variable({k}, "residual");
    count_ = add_variable({k}, "count");
    built_ = true;
  } else {
    check(sum_.shape()[0] == k, "R2Score '", name(), "' was built for ", sum_.shape()[0],
          " outputs; got y_true of shape ", y_true_in.shape(), ".");
  }
  std::vector<double> t = host(y_true), p = host(y_pred), w(t.size(), 1.0);
  if (sample_weight.defined()) {
    Tensor sw = ops::cast(sample_weight, dtype());
    if (sw.ndim() == 1) sw = ops::expand_dims(sw, {1});
    try {
      w = host(ops::broadcast_to(sw, y_true.shape()));
    } catch (const Error&) {
      throw ValueError("R2Score '" + name() + "': sample_weight of shape " +
                       shape_str(sample_weight.shape()) + " does not broadcast to " +
                       shape_str(y_true.shape()) + ".");
    }
  }
  std::vector<double> s(k, 0), sq(k, 0), res(k, 0), cnt(k, 0);
  // Keras counts ops.size(y_true): every element, zero-weight rows included.
  const double samples = static_cast<double>(b * k);
  for (int64_t r = 0; r < b; ++r) {
    for (int64_t j = 0; j < k; ++j) {
      size_t i = static_cast<size_t>(r * k + j);
      s[j] += t[i] * w[i];
      sq[j] += t[i] * t[i] * w[i];
      res[j] += (t[i] - p[i]) * (t[i] - p[i]) * w[i];
      cnt[j] += w[i];
    }
  }
  Shape shape{k};
  sum_.assign_add(device(s, shape, dtype()));
  squared_sum_.assign_add(device(sq, shape, dtype()));
  total_mse_.assign_add(device(res, shape, dtype()));
  count_.assign_add(device(cnt, shape, dtype()));
  num_samples_.assign_add(device({samples}, Shape{}, dtype()));
}

Tensor R2Score::result() const {
  if (!built_) return device({0.0}, Shape{}, dtype());
  std::vector<double> s = host(sum_.value()), sq = host(squared_sum_.value()),
                      res = host(total_mse_.value()), cnt = host(count_.value());
  size_t k = s.size();
  std::vector<double> raw(k), total(k);
  for (size_t j = 0; j < k; ++j) {
    double mean = s[j] / cnt[j];
    total[j] = sq[j] - s[j] * mean;
    raw[j] = 1 - res[j] / total[j];
    if (std::isinf(raw[j])) raw[j] = 0.0;
  }
  std::vector<double> r2;
  const auto& a = options_.class_aggregation;
  if (!a) {
    r2 = raw;
  } else if (*a == "uniform_average") {
    double m = 0;
    for (double x : raw) m += x;
    r2 = {m / static_cast<double>(k)};
  } else {
    double num = 0, den = 0;
    for (size_t j = 0; j < k; ++j) num += total[j] * raw[j], den += total[j];
    r2 = {num / den};
  }
  if (options_.num_regressors != 0) {
    double n = host(num_samples_.value())[0], pr = static_cast<double>(options_.num_regressors);
    // Keras warns and falls back to the plain R2 when p >= n - 1.
    if (!(pr > n - 1) && pr != n - 1)
      for (double& x : r2) x = 1.0 - (1.0 - x) * (n - 1.0) / (n - pr - 1.0);
  }
  return a ? device(r2, Shape{}, dtype()) : device(r2, Shape{static_cast<int64_t>(k)}, dtype());
}

Config R2Score::get_config() const {
  Config c = Metric::get_config();
  c["class_aggregation"] =
      options_.class_aggregation ? Config(*options_.class_aggregation) : Config(nullptr);
  c["num_regressors"] = options_.num_regressors;
  return c;
}

MetricPtr R2Score::from_config(const Config& c) {
  R2ScoreOptions o;
  o.name = detail::read<std::string>(c, "name", o.name);
  o.dtype = detail::read_dtype(c);
  if (c.contains("class_aggregation"))
    o.class_aggregation = c["class_aggregation"].is_null()
                              ? std::nullopt
                              : std::optional<std::string>(c["class_aggregation"].get<std::string>());
  o.num_regressors = detail::read<int64_t>(c, "num_regressors", o.num_regressors);
  return std::make_shared<R2Score>(o);
}

}  // namespace keras::metrics
