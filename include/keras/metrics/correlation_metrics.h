#pragma once
// keras.metrics PearsonCorrelation and ConcordanceCorrelation
// (keras/src/metrics/correlation_metrics.py): per-sample correlations along `axis`, averaged
// over the samples seen (MeanMetricWrapper).

#include <optional>
#include <string>

#include "keras/metrics/reduction_metrics.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// Pearson's correlation of y_true and y_pred along `axis` (keras.metrics.pearson_correlation).
Tensor pearson_correlation(const Tensor& y_true, const Tensor& y_pred, int axis = -1);
/// Lin's concordance correlation along `axis`, as Keras writes it
/// (keras.metrics.concordance_correlation).
Tensor concordance_correlation(const Tensor& y_true, const Tensor& y_pred, int axis = -1);

/// Options of PearsonCorrelation.
struct PearsonCorrelationOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "pearson_correlation";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `axis`: the axis the correlation is computed along.
  int axis = -1;
};
/// The mean of pearson_correlation over samples.
class PearsonCorrelation final : public MeanMetricWrapper {
 public:
  /// A PearsonCorrelation metric with these options.
  explicit PearsonCorrelation(PearsonCorrelationOptions options = {});
  std::string class_name() const override { return "PearsonCorrelation"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  PearsonCorrelationOptions options_;
};

/// Options of ConcordanceCorrelation.
struct ConcordanceCorrelationOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "concordance_correlation";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `axis`: the axis the correlation is computed along.
  int axis = -1;
};
/// The mean of concordance_correlation over samples.
class ConcordanceCorrelation final : public MeanMetricWrapper {
 public:
  /// A ConcordanceCorrelation metric with these options.
  explicit ConcordanceCorrelation(ConcordanceCorrelationOptions options = {});
  std::string class_name() const override { return "ConcordanceCorrelation"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  ConcordanceCorrelationOptions options_;
};

}  // namespace keras::metrics

#pragma GCC visibility pop
