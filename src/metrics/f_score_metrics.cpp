// FBetaScore and F1Score as keras/src/metrics/f_score_metrics.py (counted on the host).

#include "keras/metrics/f_score_metrics.h"

#include <cmath>
#include <sstream>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "metrics/config_read.h"
#include "metrics/host.h"

namespace keras::metrics {
namespace {

using detail::device;
using detail::host;
using detail::shape_str;

std::string fmt(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::optional<std::string> read_optional_string(const Config& c, const char* key) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  return c[key].get<std::string>();
}

std::optional<double> read_optional_double(const Config& c, const char* key) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  return c[key].get<double>();
}

}  // namespace

FBetaScore::FBetaScore(FBetaScoreOptions options)
    : Metric(options.name, options.dtype), options_(std::move(options)) {
  set_direction("up");
  const auto& a = options_.average;
  if (a && *a != "micro" && *a != "macro" && *a != "weighted")
    throw ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', "
                     "'macro', 'weighted'}. Received: average=" + *a);
  if (!(options_.beta > 0.0))
    throw ValueError("Invalid `beta` argument value. It should be > 0. Received: beta=" +
                     fmt(options_.beta));
  if (options_.threshold && !(*options_.threshold > 0.0 && *options_.threshold <= 1.0))
    throw ValueError("Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                     "Received: threshold=" + fmt(*options_.threshold));
}

void FBetaScore::update_state(const Tensor& y_true_in, const Tensor& y_pred_in,
                              const Tensor& sample_weight) {
  check(y_true_in.defined() && y_pred_in.defined(), class_name(), " '", name(),
        "' needs both y_true and y_pred; one of them is undefined.");
  if (y_pred_in.ndim() != 2 || y_true_in.ndim() != 2)
    throw ValueError(class_name() + " expects 2D inputs with shape (batch_size, output_dim). "
                     "Received input shapes: y_pred.shape=" + shape_str(y_pred_in.shape()) +
                     " and y_true.shape=" + shape_str(y_true_in.shape()) + ".");
  check(y_true_in.shape() == y_pred_in.shape(), class_name(), " '", name(),
        "': y_true and y_pred must have the same shape; got ", y_true_in.shape(), " and ",
        y_pred_in.shape(), ".");
  const int64_t b = y_pred_in.shape()[0], k = y_pred_in.shape()[1];
  bool micro = options_.average && *options_.average == "micro";
  if (!built_) {
    Shape s = micro ? Shape{} : Shape{k};
    true_positives_ = add_variable(s, "true_positives");
    false_positives_ = add_variable(s, "false_positives");
    false_negatives_ = add_variable(s, "false_negatives");
    intermediate_weights_ = add_variable(s, "intermediate_weights");
    built_ = true;
  } else if (!micro) {
    check(true_positives_.shape()[0] == k, class_name(), " '", name(), "' was built for ",
          true_positives_.shape()[0], " classes; got y_pred of shape ", y_pred_in.shape(), ".");
  }
  std::vector<double> t = host(ops::cast(y_true_in, dtype()));
  std::vector<double> p = host(ops::cast(y_pred_in, dtype()));
  std::vector<double> w(t.size(), 1.0);
  if (sample_weight.defined()) {
    Tensor sw = ops::cast(sample_weight, dtype());
    while (sw.ndim() < 2) sw = ops::expand_dims(sw, {sw.ndim()});
    try {
      w = host(ops::broadcast_to(sw, y_true_in.shape()));
    } catch (const Error&) {
      throw ValueError(class_name() + " '" + name() + "': sample_weight of shape " +
                       shape_str(sample_weight.shape()) + " does not broadcast to " +
                       shape_str(y_true_in.shape()) + ".");
    }
  }
  const size_t n = micro ? 1 : static_cast<size_t>(k);
  std::vector<double> tp(n, 0), fp(n, 0), fn(n, 0), iw(n, 0);
  double th = options_.threshold ? static_cast<double>(static_cast<float>(*options_.threshold)) : 0;
  for (int64_t r = 0; r < b; ++r) {
    const double* row = p.data() + r * k;
    double mx = row[0];
    for (int64_t j = 1; j < k; ++j) mx = std::max(mx, row[j]);
    for (int64_t j = 0; j < k; ++j) {
      size_t i = static_cast<size_t>(r * k + j), c = micro ? 0 : static_cast<size_t>(j);
      double pred = options_.threshold ? (row[j] > th ? 1.0 : 0.0)
                                       : (row[j] >= mx && std::abs(row[j]) > 1e-9 ? 1.0 : 0.0);
      tp[c] += pred * t[i] * w[i];
      fp[c] += pred * (1 - t[i]) * w[i];
      fn[c] += (1 - pred) * t[i] * w[i];
      iw[c] += t[i] * w[i];
    }
  }
  Shape s = true_positives_.shape();
  true_positives_.assign_add(device(tp, s, dtype()));
  false_positives_.assign_add(device(fp, s, dtype()));
  false_negatives_.assign_add(device(fn, s, dtype()));
  intermediate_weights_.assign_add(device(iw, s, dtype()));
}

Tensor FBetaScore::result() const {
  bool per_class = !options_.average;
  if (!built_) return device({0.0}, Shape{}, dtype());
  std::vector<double> tp = host(true_positives_.value()), fp = host(false_positives_.value()),
                      fn = host(false_negatives_.value()), iw = host(intermediate_weights_.value());
  const double eps = config::epsilon(), b2 = options_.beta * options_.beta;
  std::vector<double> f(tp.size());
  for (size_t i = 0; i < tp.size(); ++i) {
    double precision = tp[i] / (tp[i] + fp[i] + eps), recall = tp[i] / (tp[i] + fn[i] + eps);
    f[i] = precision * recall / (b2 * precision + recall + eps) * (1 + b2);
  }
  if (per_class) return device(f, true_positives_.shape(), dtype());
  double out = 0;
  if (*options_.average == "weighted") {
    double total = 0;
    for (double x : iw) total += x;
    for (size_t i = 0; i < f.size(); ++i) out += f[i] * (iw[i] / (total + eps));
  } else {
    for (double x : f) out += x;
    out /= static_cast<double>(f.size());
  }
  return device({out}, Shape{}, dtype());
}

Config FBetaScore::get_config() const {
  Config c = Metric::get_config();
  c["average"] = options_.average ? Config(*options_.average) : Config(nullptr);
  c["beta"] = options_.beta;
  c["threshold"] = options_.threshold ? Config(*options_.threshold) : Config(nullptr);
  return c;
}

MetricPtr FBetaScore::from_config(const Config& c) {
  FBetaScoreOptions o;
  o.name = detail::read<std::string>(c, "name", o.name);
  o.dtype = detail::read_dtype(c);
  o.average = read_optional_string(c, "average");
  o.beta = detail::read<double>(c, "beta", o.beta);
  o.threshold = read_optional_double(c, "threshold");
  return std::make_shared<FBetaScore>(o);
}

F1Score::F1Score(F1ScoreOptions o)
    : FBetaScore({.average = o.average, .beta = 1.0, .threshold = o.threshold, .name = o.name,
                  .dtype = o.dtype}) {}

Config F1Score::get_config() const {
  Config c = FBetaScore::get_config();
  c.erase("beta");
  return c;
}

MetricPtr F1Score::from_config(const Config& c) {
  F1ScoreOptions o;
  o.name = detail::read<std::string>(c, "name", o.name);
  o.dtype = detail::read_dtype(c);
  o.average = read_optional_string(c, "average");
  o.threshold = read_optional_double(c, "threshold");
  return std::make_shared<F1Score>(o);
}

}  // namespace keras::metrics
