// Confusion-matrix metrics as keras/src/metrics/confusion_metrics.py and metrics_utils.py.
// The counting runs on the host in float64 (one pass over the batch); variables hold the
// running counts in the metric's dtype.

#include "keras/metrics/confusion_metrics.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/losses/loss.h"
#include "keras/ops/ops.h"
#include "metrics/config_read.h"
#include "metrics/host.h"

namespace keras::metrics {
using detail::host;
using detail::device;
using detail::shape_str;
namespace {

constexpr double kNegInf = -1e10;  // Keras's NEG_INF

std::string list_str(const std::vector<double>& v) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
  s << "]";
  return s.str();
}

// Keras's parse_init_thresholds.
std::vector<double> parse_thresholds(const ThresholdsArg& arg, double fallback,
                                     const std::string& who) {
  if (!arg) return {fallback};
  std::vector<double> t = std::holds_alternative<double>(*arg)
                              ? std::vector<double>{std::get<double>(*arg)}
                              : std::get<std::vector<double>>(*arg);
  std::vector<double> bad;
  for (double x : t)
    if (!(x >= 0 && x <= 1)) bad.push_back(x);
  if (!bad.empty())
    throw ValueError(who + ": threshold values must be in [0, 1]. Received: " + list_str(bad));
  if (t.empty()) throw ValueError(who + ": thresholds must not be an empty list.");
  return t;
}

Config thresholds_to_config(const ThresholdsArg& arg) {
  if (!arg) return nullptr;
  if (std::holds_alternative<double>(*arg)) return std::get<double>(*arg);
  return std::get<std::vector<double>>(*arg);
}

ThresholdsArg thresholds_from_config(const Config& c) {
  if (!c.contains("thresholds") || c["thresholds"].is_null()) return std::nullopt;
  if (c["thresholds"].is_array()) return c["thresholds"].get<std::vector<double>>();
  return c["thresholds"].get<double>();
}

// Rounds thresholds to the dtype the comparison runs in (Keras casts them to the variables').
std::vector<double> in_dtype(std::vector<double> t, DType dtype) {
  if (dtype == DType::Float32)
    for (double& x : t) x = static_cast<double>(static_cast<float>(x));
  return t;
}

double divide_no_nan(double a, double b) { return b == 0 ? 0.0 : a / b; }

std::string fmt_double(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

namespace detail {

bool is_evenly_distributed_thresholds(const std::vector<double>& thresholds) {
  size_t n = thresholds.size();
  if (n < 3) return false;
  double eps = config::epsilon();
  for (size_t i = 0; i < n; ++i) {
    double even = static_cast<double>(static_cast<float>(static_cast<double>(i) / (n - 1)));
    if (!(std::abs(thresholds[i] - even) <= eps + 1e-5 * std::abs(even))) return false;
  }
  return true;
}

ConfusionCounts confusion_counts(const Tensor& y_true_in, const Tensor& y_pred_in,
                                 const Tensor& sample_weight_in, const ConfusionArgs& args,
                                 DType dtype, const std::string& who) {
  check(y_true_in.defined() && y_pred_in.defined(), who,
        " needs both y_true and y_pred; one of them is undefined.");
  Tensor y_true = ops::cast(y_true_in, dtype);
  Tensor y_pred = ops::cast(y_pred_in, dtype);
  std::tie(y_pred, y_true) = losses::squeeze_or_expand_to_same_rank(y_pred, y_true);
  check(y_true.shape() == y_pred.shape(), who, ": y_true and y_pred must have the same shape; got ",
        y_true_in.shape(), " and ", y_pred_in.shape(), ".");
  Tensor sw;
  if (sample_weight_in.defined()) {
    sw = ops::expand_dims(ops::cast(sample_weight_in, dtype), {-1});
    std::tie(std::ignore, sw) = losses::squeeze_or_expand_to_same_rank(y_true, sw, false);
  }
  std::vector<int64_t> shape(y_pred.shape().begin(), y_pred.shape().end());
  std::vector<double> t = host(y_true), p = host(y_pred);
  int64_t last = shape.empty() ? 1 : shape.back();
  if (args.top_k) {
    check(*args.top_k >= 1, who, ": top_k must be >= 1; got ", *args.top_k, ".");
    int64_t k = std::min(*args.top_k, last);
    std::vector<int64_t> idx(static_cast<size_t>(last));
    for (size_t row = 0; row * last < p.size(); ++row) {
      double* r = p.data() + row * last;
      for (int64_t j = 0; j < last; ++j) idx[j] = j;
      std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return r[a] > r[b]; });
      std::vector<bool> keep(static_cast<size_t>(last), false);
      for (int64_t j = 0; j < k; ++j) keep[idx[j]] = true;
      for (int64_t j = 0; j < last; ++j)
        if (!keep[j]) r[j] = kNegInf;
    }
  }
  if (args.class_id) {
    if (shape.size() <= 1)
      throw ValueError(who +
                       ": when class_id is provided, y_pred must be a 2D array with shape "
                       "(num_samples, num_classes); found shape " +
                       shape_str(y_pred.shape()) + ".");
    int64_t c = *args.class_id;
    if (c < 0 || c >= last)
      throw ValueError(who + ": class_id=" + std::to_string(c) + " is out of range for " +
                       std::to_string(last) + " classes.");
    std::vector<double> tt, pp;
    for (size_t row = 0; row * last < p.size(); ++row) {
      tt.push_back(t[row * last + c]);
      pp.push_back(p[row * last + c]);
    }
    t = std::move(tt);
    p = std::move(pp);
    shape.back() = 1;
  }
  Shape final_shape(shape);
  std::vector<double> w(p.size(), 1.0);
  if (sw.defined()) {
    try {
      w = host(ops::broadcast_to(sw, final_shape));
    } catch (const Error&) {
      throw ValueError(who + ": sample_weight of shape " + shape_str(sample_weight_in.shape()) +
                       " does not broadcast to the predictions' shape " +
                       shape_str(final_shape) + ".");
    }
  }
  int64_t labels = 1;
  if (args.multi_label) {
    check(shape.size() == 2, who, ": y_pred must have rank 2 when multi_label=True; got shape ",
          final_shape, ".");
    labels = shape[1];
  }
  if (!args.label_weights.empty()) {
    int64_t n = static_cast<int64_t>(args.label_weights.size());
    check(!shape.empty() && shape.back() == n, who, ": label_weights has ", n,
          " entries but y_pred has ", shape.empty() ? 1 : shape.back(), " labels.");
    for (size_t i = 0; i < w.size(); ++i) w[i] *= args.label_weights[i % n];
  }
  const std::vector<double> th = in_dtype(args.thresholds, dtype);
  const size_t T = th.size();
  ConfusionCounts out;
  out.num_labels = labels;
  size_t L = static_cast<size_t>(labels);
  out.tp.assign(T * L, 0);
  out.fp.assign(T * L, 0);
  out.tn.assign(T * L, 0);
  out.fn.assign(T * L, 0);
  if (args.thresholds_distributed_evenly) {
    // _update_confusion_matrix_variables_optimized: bucket = ceil(p * (T - 1)) - 1, counted
    // at every threshold index <= bucket.
    bool with_eps = args.thresholds.front() < 0.0 || args.thresholds.back() > 1.0;
    std::vector<double> tb(T * L, 0), fb(T * L, 0), tot_t(L, 0), tot_f(L, 0);
    for (size_t i = 0; i < p.size(); ++i) {
      size_t l = args.multi_label ? i % L : 0;
      double pv = std::clamp(p[i], 0.0, 1.0);
      double b;
      if (dtype == DType::Float32)
        b = std::ceil(static_cast<float>(pv) * static_cast<float>(T - 1)) - 1.0;
      else
        b = std::ceil(pv * static_cast<double>(T - 1)) - 1.0;
      if (with_eps) b = std::max(b, 0.0);
      double pos = t[i] != 0 ? w[i] : 0.0, neg = t[i] != 0 ? 0.0 : w[i];
      tot_t[l] += pos;
      tot_f[l] += neg;
      if (b < 0) continue;
      size_t bi = std::min(static_cast<size_t>(b), T - 1);
      tb[bi * L + l] += pos;
      fb[bi * L + l] += neg;
    }
    for (size_t l = 0; l < L; ++l) {
      double ct = 0, cf = 0;
      for (size_t k = T; k-- > 0;) {
        ct += tb[k * L + l];
        cf += fb[k * L + l];
        out.tp[k * L + l] = ct;
        out.fp[k * L + l] = cf;
        out.fn[k * L + l] = tot_t[l] - ct;
        out.tn[k * L + l] = tot_f[l] - cf;
      }
    }
    return out;
  }
  for (size_t i = 0; i < p.size(); ++i) {
    size_t l = args.multi_label ? i % L : 0;
    bool label = t[i] != 0;
    for (size_t k = 0; k < T; ++k) {
      bool pred = p[i] > th[k];
      double& cell = label ? (pred ? out.tp : out.fn)[k * L + l] : (pred ? out.fp : out.tn)[k * L + l];
      cell += w[i];
    }
  }
  return out;
}

}  // namespace detail

// ---- the four counts ------------------------------------------------------------------------

ConfusionMatrixConditionCount::ConfusionMatrixConditionCount(char which,
                                                             ConfusionCountOptions options)
    : Metric(options.name, options.dtype), which_(which), options_(std::move(options)) {
  thresholds_ = parse_thresholds(options_.thresholds, 0.5, "Confusion-count metric");
  evenly_ = detail::is_evenly_distributed_thresholds(thresholds_);
  accumulator_ = add_variable({static_cast<int64_t>(thresholds_.size())}, "accumulator");
}

void ConfusionMatrixConditionCount::update_state(const Tensor& y_true, const Tensor& y_pred,
                                                 const Tensor& sample_weight) {
  auto c = detail::confusion_counts(y_true, y_pred, sample_weight,
                                    {.thresholds = thresholds_,
                                     .thresholds_distributed_evenly = evenly_},
                                    dtype(), class_name() + " '" + name() + "'");
  const std::vector<double>& v =
      which_ == 'p' ? c.tp : which_ == 'f' ? c.fp : which_ == 'n' ? c.tn : c.fn;
  accumulator_.assign_add(device(v, accumulator_.shape(), dtype()));
}

Tensor ConfusionMatrixConditionCount::result() const {
  Tensor v = accumulator_.value();
  return thresholds_.size() == 1 ? v.reshape(Shape{}) : v;
}

Config ConfusionMatrixConditionCount::get_config() const {
  Config c = Metric::get_config();
  c["thresholds"] = thresholds_to_config(options_.thresholds);
  return c;
}

template <typename T>
MetricPtr ConfusionMatrixConditionCount::from_config_as(const Config& c) {
  ConfusionCountOptions o;
  o.name = detail::read<std::string>(c, "name", "");
  o.dtype = detail::read_dtype(c);
  o.thresholds = thresholds_from_config(c);
  return std::make_shared<T>(o);
}

TruePositives::TruePositives(ConfusionCountOptions o)
    : ConfusionMatrixConditionCount('p', std::move(o)) {}
TrueNegatives::TrueNegatives(ConfusionCountOptions o)
    : ConfusionMatrixConditionCount('n', std::move(o)) {}
FalsePositives::FalsePositives(ConfusionCountOptions o)
    : ConfusionMatrixConditionCount('f', std::move(o)) {}
FalseNegatives::FalseNegatives(ConfusionCountOptions o)
    : ConfusionMatrixConditionCount('m', std::move(o)) {}
MetricPtr TruePositives::from_config(const Config& c) { return from_config_as<TruePositives>(c); }
MetricPtr TrueNegatives::from_config(const Config& c) { return from_config_as<TrueNegatives>(c); }
MetricPtr FalsePositives::from_config(const Config& c) {
  return from_config_as<FalsePositives>(c);
}
MetricPtr FalseNegatives::from_config(const Config& c) {
  return from_config_as<FalseNegatives>(c);
}

// ---- Precision and Recall -------------------------------------------------------------------

namespace {

Config precision_recall_config(Config c, const PrecisionRecallOptions& o) {
  c["thresholds"] = thresholds_to_config(o.thresholds);
  c["top_k"] = o.top_k ? Config(*o.top_k) : Config(nullptr);
  c["class_id"] = o.class_id ? Config(*o.class_id) : Config(nullptr);
  return c;
}

PrecisionRecallOptions precision_recall_from(const Config& c) {
  PrecisionRecallOptions o;
  o.name = detail::read<std::string>(c, "name", "");
  o.dtype = detail::read_dtype(c);
  o.thresholds = thresholds_from_config(c);
  o.top_k = detail::read_optional_int(c, "top_k");
  o.class_id = detail::read_optional_int(c, "class_id");
  return o;
}

Tensor ratio_result(const Variable& a, const Variable& b, DType dtype) {
  std::vector<double> x = host(a.value()), y = host(b.value()), r(x.size());
  for (size_t i = 0; i < x.size(); ++i) r[i] = divide_no_nan(x[i], x[i] + y[i]);
  if (r.size() == 1) return device(r, Shape{}, dtype);
  return device(r, a.shape(), dtype);
}

}  // namespace

Precision::Precision(PrecisionRecallOptions options)
    : Metric(options.name, options.dtype), options_(std::move(options)) {
  set_direction("up");
  thresholds_ = parse_thresholds(options_.thresholds, options_.top_k ? kNegInf : 0.5, "Precision");
  evenly_ = detail::is_evenly_distributed_thresholds(thresholds_);
  Shape s{static_cast<int64_t>(thresholds_.size())};
  true_positives_ = add_variable(s, "true_positives");
  false_positives_ = add_variable(s, "false_positives");
}

void Precision::update_state(const Tensor& y_true, const Tensor& y_pred,
                             const Tensor& sample_weight) {
  auto c = detail::confusion_counts(
      y_true, y_pred, sample_weight,
      {.thresholds = thresholds_, .thresholds_distributed_evenly = evenly_,
       .top_k = options_.top_k, .class_id = options_.class_id},
      dtype(), "Precision '" + name() + "'");
  true_positives_.assign_add(device(c.tp, true_positives_.shape(), dtype()));
  false_positives_.assign_add(device(c.fp, false_positives_.shape(), dtype()));
}

Tensor Precision::result() const {
  return ratio_result(true_positives_, false_positives_, dtype());
}
Config Precision::get_config() const {
  return precision_recall_config(Metric::get_config(), options_);
}
MetricPtr Precision::from_config(const Config& c) {
  return std::make_shared<Precision>(precision_recall_from(c));
}

Recall::Recall(PrecisionRecallOptions options)
    : Metric(options.name, options.dtype), options_(std::move(options)) {
  set_direction("up");
  thresholds_ = parse_thresholds(options_.thresholds, options_.top_k ? kNegInf : 0.5, "Recall");
  evenly_ = detail::is_evenly_distributed_thresholds(thresholds_);
  Shape s{static_cast<int64_t>(thresholds_.size())};
  true_positives_ = add_variable(s, "true_positives");
  false_negatives_ = add_variable(s, "false_negatives");
}

void Recall::update_state(const Tensor& y_true, const Tensor& y_pred,
                          const Tensor& sample_weight) {
  auto c = detail::confusion_counts(
      y_true, y_pred, sample_weight,
      {.thresholds = thresholds_, .thresholds_distributed_evenly = evenly_,
       .top_k = options_.top_k, .class_id = options_.class_id},
      dtype(), "Recall '" + name() + "'");
  true_positives_.assign_add(device(c.tp, true_positives_.shape(), dtype()));
  false_negatives_.assign_add(device(c.fn, false_negatives_.shape(), dtype()));
}

Tensor Recall::result() const { return ratio_result(true_positives_, false_negatives_, dtype()); }
Config Recall::get_config() const {
  return precision_recall_config(Metric::get_config(), options_);
}
MetricPtr Recall::from_config(const Config& c) {
  return std::make_shared<Recall>(precision_recall_from(c));
}

// ---- X at Y ---------------------------------------------------------------------------------

namespace {
const char* kAtNames[] = {"PrecisionAtRecall", "RecallAtPrecision", "SensitivityAtSpecificity",
                          "SpecificityAtSensitivity"};
const char* kAtKeys[] = {"recall", "precision", "specificity", "sensitivity"};
}  // namespace

SensitivitySpecificityBase::SensitivitySpecificityBase(int kind, double value,
                                                       AtValueOptions options)
    : Metric(options.name, options.dtype), kind_(kind), value_(value),
      options_(std::move(options)) {
  set_direction("up");
  std::string who = kAtNames[kind];
  if (!(value >= 0 && value <= 1))
    throw ValueError(who + ": argument `" + kAtKeys[kind] + "` must be in the range [0, 1]. " +
                     "Received: " + kAtKeys[kind] + "=" + fmt_double(value));
  int64_t n = options_.num_thresholds;
  if (n <= 0)
    throw ValueError(who + ": argument `num_thresholds` must be an integer > 0. Received: "
                     "num_thresholds=" + std::to_string(n));
  if (n == 1) {
    thresholds_ = {0.5};
    evenly_ = false;
  } else {
    thresholds_.push_back(0.0);
    for (int64_t i = 0; i < n - 2; ++i)
      thresholds_.push_back(static_cast<double>(i + 1) * 1.0 / static_cast<double>(n - 1));
    thresholds_.push_back(1.0);
    evenly_ = true;
  }
  Shape s{static_cast<int64_t>(thresholds_.size())};
  true_positives_ = add_variable(s, "true_positives");
  false_positives_ = add_variable(s, "false_positives");
  true_negatives_ = add_variable(s, "true_negatives");
  false_negatives_ = add_variable(s, "false_negatives");
}

void SensitivitySpecificityBase::update_state(const Tensor& y_true, const Tensor& y_pred,
                                              const Tensor& sample_weight) {
  auto c = detail::confusion_counts(
      y_true, y_pred, sample_weight,
      {.thresholds = thresholds_, .thresholds_distributed_evenly = evenly_,
       .class_id = options_.class_id},
      dtype(), class_name() + " '" + name() + "'");
  Shape s = true_positives_.shape();
  true_positives_.assign_add(device(c.tp, s, dtype()));
  false_positives_.assign_add(device(c.fp, s, dtype()));
  true_negatives_.assign_add(device(c.tn, s, dtype()));
  false_negatives_.assign_add(device(c.fn, s, dtype()));
}

Tensor SensitivitySpecificityBase::result() const {
  std::vector<double> tp = host(true_positives_.value()), fp = host(false_positives_.value()),
                      tn = host(true_negatives_.value()), fn = host(false_negatives_.value());
  double best = 0;  // ops.max(where(feasible, dependent, 0), initial=0)
  for (size_t i = 0; i < tp.size(); ++i) {
    // Round through the dtype as Keras's float32 ratios are.
    auto r = [&](double a, double b) {
      double v = divide_no_nan(a, b);
      return dtype() == DType::Float32 ? static_cast<double>(static_cast<float>(v)) : v;
    };
    double recall = r(tp[i], tp[i] + fn[i]), precision = r(tp[i], tp[i] + fp[i]),
           specificity = r(tn[i], tn[i] + fp[i]);
    double constrained, dependent;
    switch (kind_) {
      case 0: constrained = recall, dependent = precision; break;
      case 1: constrained = precision, dependent = recall; break;
      case 2: constrained = specificity, dependent = recall; break;
      default: constrained = recall, dependent = specificity; break;
    }
    double v = dtype() == DType::Float32 ? static_cast<double>(static_cast<float>(value_)) : value_;
    if (constrained >= v) best = std::max(best, dependent);
  }
  return device({best}, Shape{}, dtype());
}

Config SensitivitySpecificityBase::get_config() const {
  Config c = Metric::get_config();
  c["class_id"] = options_.class_id ? Config(*options_.class_id) : Config(nullptr);
  c["num_thresholds"] = options_.num_thresholds;
  c[kAtKeys[kind_]] = value_;
  return c;
}

template <typename T>
MetricPtr SensitivitySpecificityBase::from_config_as(const Config& c, const char* key) {
  check(c.contains(key), T(0.5).class_name(), " config needs '", key, "'; got ", c.dump(), ".");
  AtValueOptions o;
  o.name = detail::read<std::string>(c, "name", "");
  o.dtype = detail::read_dtype(c);
  o.num_thresholds = detail::read<int64_t>(c, "num_thresholds", o.num_thresholds);
  o.class_id = detail::read_optional_int(c, "class_id");
  return std::make_shared<T>(c[key].get<double>(), o);
}

PrecisionAtRecall::PrecisionAtRecall(double v, AtValueOptions o)
    : SensitivitySpecificityBase(0, v, std::move(o)) {}
RecallAtPrecision::RecallAtPrecision(double v, AtValueOptions o)
    : SensitivitySpecificityBase(1, v, std::move(o)) {}
SensitivityAtSpecificity::SensitivityAtSpecificity(double v, AtValueOptions o)
    : SensitivitySpecificityBase(2, v, std::move(o)) {}
SpecificityAtSensitivity::SpecificityAtSensitivity(double v, AtValueOptions o)
    : SensitivitySpecificityBase(3, v, std::move(o)) {}
MetricPtr PrecisionAtRecall::from_config(const Config& c) {
  return from_config_as<PrecisionAtRecall>(c, "recall");
}
MetricPtr RecallAtPrecision::from_config(const Config& c) {
  return from_config_as<RecallAtPrecision>(c, "precision");
}
MetricPtr SensitivityAtSpecificity::from_config(const Config& c) {
  return from_config_as<SensitivityAtSpecificity>(c, "specificity");
}
MetricPtr SpecificityAtSensitivity::from_config(const Config& c) {
  return from_config_as<SpecificityAtSensitivity>(c, "sensitivity");
}

// ---- AUC ------------------------------------------------------------------------------------

AUC::AUC(AUCOptions options) : Metric(options.name, options.dtype), options_(std::move(options)) {
  set_direction("up");
  const std::string& cv = options_.curve;
  if (cv == "ROC" || cv == "roc") curve_ = "ROC";
  else if (cv == "PR" || cv == "pr") curve_ = "PR";
  else if (cv == "PRGAIN" || cv == "prgain") curve_ = "PRGAIN";
  else
    throw ValueError("AUC: invalid curve value: \"" + cv +
                     "\". Expected values are [\"PR\", \"ROC\", \"PRGAIN\"].");
  const std::string& sm = options_.summation_method;
  if (sm == "interpolation" || sm == "Interpolation") summation_ = "interpolation";
  else if (sm == "majoring" || sm == "Majoring") summation_ = "majoring";
  else if (sm == "minoring" || sm == "Minoring") summation_ = "minoring";
  else
    throw ValueError("AUC: invalid summation_method value: \"" + sm +
                     "\". Expected values are [\"interpolation\", \"majoring\", \"minoring\"].");
  std::vector<double> inner;
  if (options_.thresholds) {
    inner = *options_.thresholds;
    std::sort(inner.begin(), inner.end());
    for (double x : inner)
      if (!(x >= 0 && x <= 1))
        throw ValueError("AUC: threshold values must be in [0, 1]. Received: " +
                         list_str(inner));
    options_.num_thresholds = static_cast<int64_t>(inner.size()) + 2;
    std::vector<double> full = {0.0};
    full.insert(full.end(), inner.begin(), inner.end());
    full.push_back(1.0);
    evenly_ = detail::is_evenly_distributed_thresholds(full);
  } else {
    int64_t n = options_.num_thresholds;
    if (n <= 1)
      throw ValueError("AUC: argument `num_thresholds` must be an integer > 1. Received: "
                       "num_thresholds=" + std::to_string(n));
    for (int64_t i = 0; i < n - 2; ++i)
      inner.push_back(static_cast<double>(i + 1) * 1.0 / static_cast<double>(n - 1));
    evenly_ = true;
  }
  thresholds_.push_back(0.0 - config::epsilon());
  thresholds_.insert(thresholds_.end(), inner.begin(), inner.end());
  thresholds_.push_back(1.0 + config::epsilon());
  if (options_.label_weights)
    for (double w : *options_.label_weights)
      check(w >= 0, "AUC: label_weights must be non-negative; got ", list_str(*options_.label_weights),
            ".");
  if (options_.multi_label) {
    if (options_.num_labels) {
      check(*options_.num_labels >= 1, "AUC: num_labels must be >= 1; got ", *options_.num_labels,
            ".");
      build(*options_.num_labels);
    }
  } else {
    if (options_.num_labels)
      throw ValueError("AUC: `num_labels` is needed only when `multi_label` is True; got "
                       "num_labels=" + std::to_string(*options_.num_labels) + ".");
    build(1);
  }
}

void AUC::build(int64_t num_labels) {
  labels_ = num_labels;
  Shape s = options_.multi_label ? Shape{options_.num_thresholds, num_labels}
                                 : Shape{options_.num_thresholds};
  true_positives_ = add_variable(s, "true_positives");
  false_positives_ = add_variable(s, "false_positives");
  true_negatives_ = add_variable(s, "true_negatives");
  false_negatives_ = add_variable(s, "false_negatives");
  built_ = true;
}

void AUC::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  check(y_pred.defined(), "AUC '", name(), "' needs y_pred; it is undefined.");
  if (!built_) {
    check(y_pred.ndim() == 2, "AUC '", name(),
          "': y_pred must have rank 2 when multi_label=True; got shape ", y_pred.shape(), ".");
    build(y_pred.shape()[1]);
  }
  Tensor p = options_.from_logits ? ops::sigmoid(ops::cast(y_pred, dtype())) : y_pred;
  detail::ConfusionArgs args{.thresholds = thresholds_,
                             .thresholds_distributed_evenly = evenly_,
                             .multi_label = options_.multi_label};
  if (!options_.multi_label && options_.label_weights) args.label_weights = *options_.label_weights;
  auto c = detail::confusion_counts(y_true, p, sample_weight, args, dtype(), "AUC '" + name() + "'");
  if (options_.multi_label)
    check(c.num_labels == labels_, "AUC '", name(), "' was built for ", labels_,
          " labels; got y_pred of shape ", y_pred.shape(), ".");
  Shape s = true_positives_.shape();
  true_positives_.assign_add(device(c.tp, s, dtype()));
  false_positives_.assign_add(device(c.fp, s, dtype()));
  true_negatives_.assign_add(device(c.tn, s, dtype()));
  false_negatives_.assign_add(device(c.fn, s, dtype()));
}

double AUC::interpolate_pr_auc(const std::vector<double>& tp, const std::vector<double>& fp,
                               const std::vector<double>& fn) const {
  size_t T = static_cast<size_t>(options_.num_thresholds), L = static_cast<size_t>(labels_);
  std::vector<double> by_label(L, 0.0);
  for (size_t l = 0; l < L; ++l) {
    for (size_t i = 0; i + 1 < T; ++i) {
      size_t a = i * L + l, b = (i + 1) * L + l;
      double dtp = tp[a] - tp[b];
      double pa = tp[a] + fp[a], pb = tp[b] + fp[b];
      double dp = pa - pb;
      double slope = divide_no_nan(dtp, std::max(dp, 0.0));
      double intercept = tp[b] - slope * pb;
      double ratio = (pa > 0 && pb > 0) ? divide_no_nan(pa, std::max(pb, 0.0)) : 1.0;
      by_label[l] += divide_no_nan(slope * (dtp + intercept * std::log(ratio)),
                                   std::max(tp[b] + fn[b], 0.0));
    }
  }
  if (!options_.multi_label) return by_label[0];
  double num = 0, den = 0;
  for (size_t l = 0; l < L; ++l) {
    double w = options_.label_weights ? (*options_.label_weights)[l] : 1.0;
    num += by_label[l] * w;
    den += w;
  }
  return options_.label_weights ? divide_no_nan(num, den) : num / static_cast<double>(L);
}

Tensor AUC::result() const {
  if (!built_) return device({0.0}, Shape{}, dtype());
  std::vector<double> tp = host(true_positives_.value()), fp = host(false_positives_.value()),
                      tn = host(true_negatives_.value()), fn = host(false_negatives_.value());
  if (options_.multi_label && options_.label_weights)
    check(static_cast<int64_t>(options_.label_weights->size()) == labels_, "AUC '", name(),
          "': label_weights has ", options_.label_weights->size(), " entries for ", labels_,
          " labels.");
  if (curve_ == "PR" && summation_ == "interpolation")
    return device({interpolate_pr_auc(tp, fp, fn)}, Shape{}, dtype());
  size_t n = tp.size();
  std::vector<double> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    double recall = divide_no_nan(tp[i], tp[i] + fn[i]);
    if (curve_ == "ROC") {
      x[i] = divide_no_nan(fp[i], fp[i] + tn[i]);
      y[i] = recall;
    } else if (curve_ == "PR") {
      x[i] = recall;
      y[i] = divide_no_nan(tp[i], tp[i] + fp[i]);
    } else {  // PRGAIN
      double scale = divide_no_nan(tp[i] + fn[i], tn[i] + fp[i]);
      double rg = 1.0 - scale * divide_no_nan(fn[i], tp[i]);
      double pg = 1.0 - scale * divide_no_nan(fp[i], tp[i]);
      if (tp[i] == 0) rg = 0.0, pg = 1.0;
      x[i] = std::max(rg, 0.0);
      y[i] = pg;
    }
  }
  size_t T = static_cast<size_t>(options_.num_thresholds), L = static_cast<size_t>(labels_);
  std::vector<double> by_label(L, 0.0);
  for (size_t i = 0; i + 1 < T; ++i)
    for (size_t l = 0; l < L; ++l) {
      size_t a = i * L + l, b = (i + 1) * L + l;
      double h = summation_ == "interpolation" ? (y[a] + y[b]) / 2
                 : summation_ == "minoring"    ? std::min(y[a], y[b])
                                               : std::max(y[a], y[b]);
      by_label[l] += (x[a] - x[b]) * h;
    }
  double out = by_label[0];
  if (options_.multi_label) {
    double num = 0, den = 0;
    for (size_t l = 0; l < L; ++l) {
      double w = options_.label_weights ? (*options_.label_weights)[l] : 1.0;
      num += by_label[l] * w;
      den += w;
    }
    out = options_.label_weights ? divide_no_nan(num, den) : num / static_cast<double>(L);
  }
  return device({out}, Shape{}, dtype());
}

Config AUC::get_config() const {
  Config c = Metric::get_config();
  c["num_thresholds"] = options_.num_thresholds;
  c["curve"] = curve_;
  c["summation_method"] = summation_;
  c["multi_label"] = options_.multi_label;
  c["num_labels"] = options_.num_labels ? Config(*options_.num_labels) : Config(nullptr);
  c["label_weights"] = options_.label_weights ? Config(*options_.label_weights) : Config(nullptr);
  c["from_logits"] = options_.from_logits;
  if (options_.thresholds)
    c["thresholds"] = std::vector<double>(thresholds_.begin() + 1, thresholds_.end() - 1);
  return c;
}

MetricPtr AUC::from_config(const Config& c) {
  AUCOptions o;
  o.name = detail::read<std::string>(c, "name", "");
  o.dtype = detail::read_dtype(c);
  o.num_thresholds = detail::read<int64_t>(c, "num_thresholds", o.num_thresholds);
  o.curve = detail::read<std::string>(c, "curve", o.curve);
  o.summation_method = detail::read<std::string>(c, "summation_method", o.summation_method);
  o.multi_label = detail::read<bool>(c, "multi_label", o.multi_label);
  o.num_labels = detail::read_optional_int(c, "num_labels");
  if (c.contains("label_weights") && !c["label_weights"].is_null())
    o.label_weights = c["label_weights"].get<std::vector<double>>();
  if (c.contains("thresholds") && !c["thresholds"].is_null())
    o.thresholds = c["thresholds"].get<std::vector<double>>();
  o.from_logits = detail::read<bool>(c, "from_logits", o.from_logits);
  return std::make_shared<AUC>(o);
}

}  // namespace keras::metrics
