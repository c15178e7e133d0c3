// PearsonCorrelation and ConcordanceCorrelation as keras/src/metrics/correlation_metrics.py.

#include "keras/metrics/correlation_metrics.h"

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/losses/loss.h"
#include "keras/ops/ops.h"
#include "metrics/config_read.h"

namespace keras::metrics {

Tensor pearson_correlation(const Tensor& y_true_in, const Tensor& y_pred_in, int axis) {
  check(y_true_in.defined() && y_pred_in.defined(),
        "pearson_correlation needs both y_true and y_pred; one of them is undefined.");
  Tensor y_pred = y_pred_in;
  Tensor y_true = ops::cast(y_true_in, y_pred.dtype());
  std::tie(y_true, y_pred) = losses::squeeze_or_expand_to_same_rank(y_true, y_pred);
  Tensor tn = y_true - ops::mean(y_true, axis, true);
  Tensor pn = y_pred - ops::mean(y_pred, axis, true);
  tn = tn / ops::std(tn, axis, true);
  pn = pn / ops::std(pn, axis, true);
  return ops::mean(tn * pn, axis);
}

Tensor concordance_correlation(const Tensor& y_true_in, const Tensor& y_pred_in, int axis) {
  check(y_true_in.defined() && y_pred_in.defined(),
        "concordance_correlation needs both y_true and y_pred; one of them is undefined.");
  Tensor y_pred = y_pred_in;
  Tensor y_true = ops::cast(y_true_in, y_pred.dtype());
  std::tie(y_true, y_pred) = losses::squeeze_or_expand_to_same_rank(y_true, y_pred);
  Tensor true_mean = ops::mean(y_true, axis, true);
  Tensor pred_mean = ops::mean(y_pred, axis, true);
  Tensor true_var = ops::var(y_true - true_mean, axis, true);
  Tensor pred_var = ops::var(y_pred - pred_mean, axis, true);
  // Keras centres y_true on y_pred's mean here; kept as written.
  Tensor covar = (y_true - pred_mean) * (y_pred - pred_mean);
  Tensor norm = true_var + pred_var + ops::square(true_mean - pred_mean);
  return ops::mean(2.0 * covar / (norm + config::epsilon()), axis);
}

PearsonCorrelation::PearsonCorrelation(PearsonCorrelationOptions options)
    : MeanMetricWrapper(
          [axis = options.axis](const Tensor& t, const Tensor& p) {
            return pearson_correlation(t, p, axis);
          },
          options.name, options.dtype, "up"),
      options_(std::move(options)) {}
Config PearsonCorrelation::get_config() const {
  Config c = Metric::get_config();
  c["axis"] = options_.axis;
  return c;
}
MetricPtr PearsonCorrelation::from_config(const Config& c) {
  PearsonCorrelationOptions o;
  o.name = detail::read<std::string>(c, "name", o.name);
  o.dtype = detail::read_dtype(c);
  o.axis = detail::read<int>(c, "axis", o.axis);
  return std::make_shared<PearsonCorrelation>(o);
}

ConcordanceCorrelation::ConcordanceCorrelation(ConcordanceCorrelationOptions options)
    : MeanMetricWrapper(
          [axis = options.axis](const Tensor& t, const Tensor& p) {
            return concordance_correlation(t, p, axis);
          },
          options.name, options.dtype, "up"),
      options_(std::move(options)) {}
Config ConcordanceCorrelation::get_config() const {
  Config c = Metric::get_config();
  c["axis"] = options_.axis;
  return c;
}
MetricPtr ConcordanceCorrelation::from_config(const Config& c) {
  ConcordanceCorrelationOptions o;
  o.name = detail::read<std::string>(c, "name", o.name);
  o.dtype = detail::read_dtype(c);
  o.axis = detail::read<int>(c, "axis", o.axis);
  return std::make_shared<ConcordanceCorrelation>(o);
}

}  // namespace keras::metrics
