// The MeanMetricWrapper metrics: construction, configs and from_config.

#include "keras/metrics/wrapper_metrics.h"

#include "keras/core/errors.h"
#include "keras/losses/losses.h"
#include "keras/metrics/metric_functions.h"
#include "keras/ops/ops.h"
#include "metrics/config_read.h"

namespace keras::metrics {

Accuracy::Accuracy(AccuracyOptions options)
    : MeanMetricWrapper([o = options](const Tensor& t, const Tensor& p) { return accuracy(t, p); },
                        options.name, options.dtype, "up"),
      options_(std::move(options)) {}
Config Accuracy::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr Accuracy::from_config(const Config& c) {
  AccuracyOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<Accuracy>(o);
}

BinaryAccuracy::BinaryAccuracy(BinaryAccuracyOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return binary_accuracy(t, p, o.threshold);
          },
          options.name, options.dtype, "up"),
      options_(std::move(options)) {}
Config BinaryAccuracy::get_config() const {
  Config c = Metric::get_config();
  c["threshold"] = options_.threshold;
  return c;
}
MetricPtr BinaryAccuracy::from_config(const Config& c) {
  BinaryAccuracyOptions o;
  detail::read_base_options(c, o);
  o.threshold = detail::read<double>(c, "threshold", o.threshold);
  return std::make_shared<BinaryAccuracy>(o);
}

CategoricalAccuracy::CategoricalAccuracy(CategoricalAccuracyOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) { return categorical_accuracy(t, p); },
          options.name, options.dtype, "up"),
      options_(std::move(options)) {}
Config CategoricalAccuracy::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr CategoricalAccuracy::from_config(const Config& c) {
  CategoricalAccuracyOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<CategoricalAccuracy>(o);
}

SparseCategoricalAccuracy::SparseCategoricalAccuracy(SparseCategoricalAccuracyOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return sparse_categorical_accuracy(t, p);
          },
          options.name, options.dtype, "up"),
      options_(std::move(options)) {}
Config SparseCategoricalAccuracy::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr SparseCategoricalAccuracy::from_config(const Config& c) {
  SparseCategoricalAccuracyOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<SparseCategoricalAccuracy>(o);
}

TopKCategoricalAccuracy::TopKCategoricalAccuracy(TopKCategoricalAccuracyOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return top_k_categorical_accuracy(t, p, o.k);
          },
          options.name, options.dtype, "up"),
      options_(std::move(options)) {
  check(options_.k >= 1, "TopKCategoricalAccuracy: k must be >= 1; got ", options_.k, ".");
}
Config TopKCategoricalAccuracy::get_config() const {
  Config c = Metric::get_config();
  c["k"] = options_.k;
  return c;
}
MetricPtr TopKCategoricalAccuracy::from_config(const Config& c) {
  TopKCategoricalAccuracyOptions o;
  detail::read_base_options(c, o);
  o.k = detail::read<int64_t>(c, "k", o.k);
  return std::make_shared<TopKCategoricalAccuracy>(o);
}

SparseTopKCategoricalAccuracy::SparseTopKCategoricalAccuracy(
    SparseTopKCategoricalAccuracyOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return sparse_top_k_categorical_accuracy(t, p, o.k, o.from_sorted_ids);
          },
          options.name, options.dtype, "up"),
      options_(std::move(options)) {
  check(options_.k >= 1, "SparseTopKCategoricalAccuracy: k must be >= 1; got ", options_.k, ".");
}
Config SparseTopKCategoricalAccuracy::get_config() const {
  Config c = Metric::get_config();
  c["k"] = options_.k;
  if (options_.from_sorted_ids) c["from_sorted_ids"] = true;  // Keras writes it only when set
  return c;
}
MetricPtr SparseTopKCategoricalAccuracy::from_config(const Config& c) {
  SparseTopKCategoricalAccuracyOptions o;
  detail::read_base_options(c, o);
  o.k = detail::read<int64_t>(c, "k", o.k);
  o.from_sorted_ids = detail::read<bool>(c, "from_sorted_ids", o.from_sorted_ids);
  return std::make_shared<SparseTopKCategoricalAccuracy>(o);
}

MeanSquaredError::MeanSquaredError(MeanSquaredErrorOptions options)
    : MeanMetricWrapper([o = options](const Tensor& t,
                                      const Tensor& p) { return losses::mean_squared_error(t, p); },
                        options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config MeanSquaredError::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr MeanSquaredError::from_config(const Config& c) {
  MeanSquaredErrorOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<MeanSquaredError>(o);
}

MeanAbsoluteError::MeanAbsoluteError(MeanAbsoluteErrorOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return losses::mean_absolute_error(t, p);
          },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config MeanAbsoluteError::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr MeanAbsoluteError::from_config(const Config& c) {
  MeanAbsoluteErrorOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<MeanAbsoluteError>(o);
}

MeanAbsolutePercentageError::MeanAbsolutePercentageError(MeanAbsolutePercentageErrorOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return losses::mean_absolute_percentage_error(t, p);
          },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config MeanAbsolutePercentageError::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr MeanAbsolutePercentageError::from_config(const Config& c) {
  MeanAbsolutePercentageErrorOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<MeanAbsolutePercentageError>(o);
}

MeanSquaredLogarithmicError::MeanSquaredLogarithmicError(MeanSquaredLogarithmicErrorOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return losses::mean_squared_logarithmic_error(t, p);
          },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config MeanSquaredLogarithmicError::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr MeanSquaredLogarithmicError::from_config(const Config& c) {
  MeanSquaredLogarithmicErrorOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<MeanSquaredLogarithmicError>(o);
}

CosineSimilarity::CosineSimilarity(CosineSimilarityOptions options)
    : MeanMetricWrapper([o = options](const Tensor& t,
                                      const Tensor& p) { return cosine_similarity(t, p, o.axis); },
                        options.name, options.dtype, "up"),
      options_(std::move(options)) {}
Config CosineSimilarity::get_config() const {
  Config c = Metric::get_config();
  // Keras 3.15's get_config leaves axis out; written only when it is not the default.
  if (options_.axis != CosineSimilarityOptions{}.axis) c["axis"] = options_.axis;
  return c;
}
MetricPtr CosineSimilarity::from_config(const Config& c) {
  CosineSimilarityOptions o;
  detail::read_base_options(c, o);
  o.axis = detail::read<int>(c, "axis", o.axis);
  return std::make_shared<CosineSimilarity>(o);
}

LogCoshError::LogCoshError(LogCoshErrorOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) { return losses::log_cosh(t, p); },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config LogCoshError::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr LogCoshError::from_config(const Config& c) {
  LogCoshErrorOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<LogCoshError>(o);
}

KLDivergence::KLDivergence(KLDivergenceOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) { return losses::kl_divergence(t, p); },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config KLDivergence::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr KLDivergence::from_config(const Config& c) {
  KLDivergenceOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<KLDivergence>(o);
}

Poisson::Poisson(PoissonOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) { return losses::poisson(t, p); },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config Poisson::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr Poisson::from_config(const Config& c) {
  PoissonOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<Poisson>(o);
}

BinaryCrossentropy::BinaryCrossentropy(BinaryCrossentropyOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return losses::binary_crossentropy(t, p, o.from_logits, o.label_smoothing);
          },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {
  check(options_.label_smoothing >= 0 && options_.label_smoothing <= 1,
        "BinaryCrossentropy: label_smoothing must be in [0, 1]; got ", options_.label_smoothing,
        ".");
}
Config BinaryCrossentropy::get_config() const {
  Config c = Metric::get_config();
  c["from_logits"] = options_.from_logits;
  c["label_smoothing"] = options_.label_smoothing;
  return c;
}
MetricPtr BinaryCrossentropy::from_config(const Config& c) {
  BinaryCrossentropyOptions o;
  detail::read_base_options(c, o);
  o.from_logits = detail::read<bool>(c, "from_logits", o.from_logits);
  o.label_smoothing = detail::read<double>(c, "label_smoothing", o.label_smoothing);
  return std::make_shared<BinaryCrossentropy>(o);
}

CategoricalCrossentropy::CategoricalCrossentropy(CategoricalCrossentropyOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return losses::categorical_crossentropy(t, p, o.from_logits, o.label_smoothing, o.axis);
          },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {
  check(options_.label_smoothing >= 0 && options_.label_smoothing <= 1,
        "CategoricalCrossentropy: label_smoothing must be in [0, 1]; got ",
        options_.label_smoothing, ".");
}
Config CategoricalCrossentropy::get_config() const {
  Config c = Metric::get_config();
  c["from_logits"] = options_.from_logits;
  c["label_smoothing"] = options_.label_smoothing;
  c["axis"] = options_.axis;
  return c;
}
MetricPtr CategoricalCrossentropy::from_config(const Config& c) {
  CategoricalCrossentropyOptions o;
  detail::read_base_options(c, o);
  o.from_logits = detail::read<bool>(c, "from_logits", o.from_logits);
  o.label_smoothing = detail::read<double>(c, "label_smoothing", o.label_smoothing);
  o.axis = detail::read<int>(c, "axis", o.axis);
  return std::make_shared<CategoricalCrossentropy>(o);
}

SparseCategoricalCrossentropy::SparseCategoricalCrossentropy(
    SparseCategoricalCrossentropyOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) {
            return losses::sparse_categorical_crossentropy(t, p, o.from_logits, o.ignore_class,
                                                           o.axis);
          },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config SparseCategoricalCrossentropy::get_config() const {
  Config c = Metric::get_config();
  c["from_logits"] = options_.from_logits;
  c["ignore_class"] = options_.ignore_class ? Config(*options_.ignore_class) : Config(nullptr);
  c["axis"] = options_.axis;
  return c;
}
MetricPtr SparseCategoricalCrossentropy::from_config(const Config& c) {
  SparseCategoricalCrossentropyOptions o;
  detail::read_base_options(c, o);
  o.from_logits = detail::read<bool>(c, "from_logits", o.from_logits);
  o.ignore_class = detail::read_optional_int(c, "ignore_class");
  o.axis = detail::read<int>(c, "axis", o.axis);
  return std::make_shared<SparseCategoricalCrossentropy>(o);
}

Hinge::Hinge(HingeOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) { return losses::hinge(t, p); },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config Hinge::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr Hinge::from_config(const Config& c) {
  HingeOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<Hinge>(o);
}

SquaredHinge::SquaredHinge(SquaredHingeOptions options)
    : MeanMetricWrapper(
          [o = options](const Tensor& t, const Tensor& p) { return losses::squared_hinge(t, p); },
          options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config SquaredHinge::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr SquaredHinge::from_config(const Config& c) {
  SquaredHingeOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<SquaredHinge>(o);
}

CategoricalHinge::CategoricalHinge(CategoricalHingeOptions options)
    : MeanMetricWrapper([o = options](const Tensor& t,
                                      const Tensor& p) { return losses::categorical_hinge(t, p); },
                        options.name, options.dtype, "down"),
      options_(std::move(options)) {}
Config CategoricalHinge::get_config() const {
  Config c = Metric::get_config();
  return c;
}
MetricPtr CategoricalHinge::from_config(const Config& c) {
  CategoricalHingeOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<CategoricalHinge>(o);
}

RootMeanSquaredError::RootMeanSquaredError(RootMeanSquaredErrorOptions options)
    : Metric(options.name, options.dtype),
      mean_(std::make_shared<Mean>(options.name, options.dtype)) {
  track_metric(mean_);
  set_direction("down");
}
void RootMeanSquaredError::update_state(const Tensor& y_true, const Tensor& y_pred,
                                        const Tensor& sample_weight) {
  Tensor t = ops::cast(y_true, dtype());
  Tensor p = ops::cast(y_pred, dtype());
  std::tie(t, p) = losses::squeeze_or_expand_to_same_rank(t, p);
  mean_->update_state(ops::square(p - t), sample_weight);
}
Tensor RootMeanSquaredError::result() const {
  return ops::sqrt(mean_->result());
}
MetricPtr RootMeanSquaredError::from_config(const Config& c) {
  RootMeanSquaredErrorOptions o;
  detail::read_base_options(c, o);
  return std::make_shared<RootMeanSquaredError>(o);
}

}  // namespace keras::metrics
