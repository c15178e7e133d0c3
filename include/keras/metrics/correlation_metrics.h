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
  std::string name = "pearson_correlation";
  std::optional<DType> dtype;
  int axis = -1;
};
/// The mean of pearson_correlation over samples.
class PearsonCorrelation final : public MeanMetricWrapper {
 public:
  explicit PearsonCorrelation(PearsonCorrelationOptions options = {});
  std::string class_name() const override { return "PearsonCorrelation"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  PearsonCorrelationOptions options_;
};

/// Options of ConcordanceCorrelation.
struct ConcordanceCorrelationOptions {
  std::string name = "concordance_correlation";
  std::optional<DType> dtype;
  int axis = -1;
};
/// The mean of concordance_correlation over samples.
class ConcordanceCorrelation final : public MeanMetricWrapper {
 public:
  explicit ConcordanceCorrelation(ConcordanceCorrelationOptions options = {});
  std::string class_name() const override { return "ConcordanceCorrelation"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  ConcordanceCorrelationOptions options_;
};

}  // namespace keras::metrics

#pragma GCC visibility pop
