#pragma once
// keras.metrics: every built-in metric, and get/serialize/deserialize by Keras names.

#include <functional>
#include <memory>
#include <string>
#include <type_traits>

#include "keras/metrics/metric.h"
#include "keras/metrics/metric_functions.h"
#include "keras/metrics/reduction_metrics.h"
#include "keras/metrics/wrapper_metrics.h"
#include "keras/metrics/confusion_metrics.h"
#include "keras/metrics/iou_metrics.h"
#include "keras/metrics/f_score_metrics.h"
#include "keras/metrics/regression_metrics.h"
#include "keras/metrics/correlation_metrics.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// A new metric from a Keras name: a class name ("SparseCategoricalAccuracy"), its snake-case
/// form ("sparse_categorical_accuracy") or an alias ("mse", "mae", "mape", "msle", "bce").
/// ValueError listing the known names otherwise. (compile also resolves "accuracy"/"acc" by
/// the shapes of the labels and predictions, as Keras does.)
MetricPtr get(const std::string& identifier);
/// Makes deserialize() and get() build custom metrics of `class_name` from their config.
void register_metric(const std::string& class_name,
                     std::function<MetricPtr(const Config&)> from_config);
/// {"module": "keras.metrics", "class_name", "config", "registered_name"}.
Config serialize(const MetricPtr& metric);
/// The metric a serialize() dict or a name describes (null for null); ValueError for other configs.
MetricPtr deserialize(const Config& config);

/// A metric argument (compile's `metrics`): a name, a metric, or a function
/// (y_true, y_pred) -> per-sample values (wrapped in a MeanMetricWrapper).
class MetricArg {
 public:
  /// A metric by name, resolved by get() (or by compile for "accuracy" and "acc").
  MetricArg(const char* name) : name_(name) {}             // NOLINT
  /// A metric by name, resolved by get() (or by compile for "accuracy" and "acc").
  MetricArg(std::string name) : name_(std::move(name)) {}  // NOLINT
  /// An existing metric, used as is (its state is shared with the caller).
  template <typename T>
  requires std::is_base_of_v<Metric, T> MetricArg(std::shared_ptr<T> metric)
      : metric_(std::move(metric)) {}  // NOLINT
  /// A per-sample function, averaged by a MeanMetricWrapper called `name`.
  template <typename F>
  requires(std::is_invocable_r_v<Tensor, F, const Tensor&, const Tensor&>)
      MetricArg(F fn, std::string name = "metric_function")  // NOLINT
      : metric_(std::make_shared<MeanMetricWrapper>(MeanMetricWrapper::Fn(std::move(fn)),
                                                    std::move(name))) {}
  /// The name given, or empty for an object.
  const std::string& name() const { return name_; }
  /// The metric given or wrapped; null when a name was given.
  const MetricPtr& metric() const { return metric_; }

 private:
  std::string name_;
  MetricPtr metric_;
};

}  // namespace keras::metrics

#pragma GCC visibility pop
