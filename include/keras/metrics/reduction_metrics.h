#pragma once
// keras.metrics Sum, Mean and MeanMetricWrapper: weighted sums and means of values, and the
// wrapper that turns any function (y_true, y_pred) -> per-sample values into a metric.

#include <functional>
#include <string>

#include "keras/metrics/metric.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// The (weighted) sum of the values given (Keras's Sum).
class Sum : public Metric {
 public:
  /// A Sum metric called `name`, with variables of `dtype` (floatx when unset).
  explicit Sum(std::string name = "sum", std::optional<DType> dtype = std::nullopt);
  /// Adds `values` (each weighted by `sample_weight` when given).
  void update_state(const Tensor& values, const Tensor& sample_weight = Tensor());
  /// Metric's (y_true, y_pred, sample_weight) form does not apply: ValueError.
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  Tensor result() const override;
  std::string class_name() const override { return "Sum"; }

 private:
  Variable total_;
};

/// The (weighted) mean of the values given (Keras's Mean): total / count.
class Mean : public Metric {
 public:
  /// A Mean metric called `name`, with variables of `dtype` (floatx when unset).
  explicit Mean(std::string name = "mean", std::optional<DType> dtype = std::nullopt);
  /// Adds `values`; a value of shape (batch, ...) counts as batch samples, each the mean of its
  /// entries, weighted by `sample_weight` when given.
  void update_state(const Tensor& values, const Tensor& sample_weight = Tensor());
  /// Metric's (y_true, y_pred, sample_weight) form does not apply: ValueError.
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  Tensor result() const override;
  std::string class_name() const override { return "Mean"; }
  /// stateless_update_state for the values form.
  std::vector<Tensor> stateless_update_values(const std::vector<Tensor>& metric_variables,
                                              const Tensor& values,
                                              const Tensor& sample_weight = Tensor());

 private:
  Variable total_, count_;
};

/// The mean of fn(y_true, y_pred) over all samples seen (Keras's MeanMetricWrapper). The
/// accuracies and the loss-like metrics are MeanMetricWrappers.
class MeanMetricWrapper : public Metric {
 public:
  /// The per-sample function: (y_true, y_pred) to one value per sample (or more, averaged).
  using Fn = std::function<Tensor(const Tensor& y_true, const Tensor& y_pred)>;
  /// Averages `fn`'s values; `direction` as Metric::direction() ("up", "down" or "").
  /// ValueError when `fn` is empty.
  MeanMetricWrapper(Fn fn, std::string name, std::optional<DType> dtype = std::nullopt,
                    std::string direction = "");
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "MeanMetricWrapper"; }

 private:
  Fn fn_;
  Variable total_, count_;
};

/// Keras's reduce_to_samplewise_values: values (and weights) reduced to one per sample.
std::pair<Tensor, Tensor> reduce_to_samplewise_values(Tensor values, Tensor sample_weight,
                                                      bool use_mean, DType dtype);

}  // namespace keras::metrics

#pragma GCC visibility pop
