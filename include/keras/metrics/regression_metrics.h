#pragma once
// keras.metrics.R2Score (keras/src/metrics/regression_metrics.py): the coefficient of
// determination over all samples seen, per output and aggregated, optionally adjusted for the
// number of regressors. (The MeanMetricWrapper regression errors are in wrapper_metrics.h.)

#include <cstdint>
#include <optional>
#include <string>

#include "keras/metrics/metric.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// Options of R2Score (Keras's arguments and defaults).
struct R2ScoreOptions {
  /// "uniform_average", "variance_weighted_average", or unset for one score per output.
  std::optional<std::string> class_aggregation = "uniform_average";
  /// Keras's `num_regressors`: the number of independent variables; > 0 gives the adjusted R2.
  int64_t num_regressors = 0;  // > 0: the adjusted R2
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "r2_score";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};

/// 1 - residual sum of squares / total sum of squares; variables "num_samples" (()), then,
/// created by the first batch of shape (batch, outputs), "squared_sum", "sum", "residual" and
/// "count" of shape (outputs,).
class R2Score final : public Metric {
 public:
  /// An R2Score metric; ValueError for an unknown `class_aggregation` or negative `num_regressors`.
  explicit R2Score(R2ScoreOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "R2Score"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  R2ScoreOptions options_;
  bool built_ = false;
  Variable num_samples_, squared_sum_, sum_, total_mse_, count_;
};

}  // namespace keras::metrics

#pragma GCC visibility pop
