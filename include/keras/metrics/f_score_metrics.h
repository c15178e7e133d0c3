#pragma once
// keras.metrics FBetaScore and F1Score (keras/src/metrics/f_score_metrics.py): per-class
// (or micro) weighted tp/fp/fn of thresholded predictions, combined into F-beta.
//
//   keras::metrics::F1Score f1({.average = "macro", .threshold = 0.5});
//   f1.update_state(one_hot_labels, probabilities);   // both (batch, classes)

#include <optional>
#include <string>

#include "keras/metrics/metric.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// Options of FBetaScore (Keras's arguments and defaults).
struct FBetaScoreOptions {
  /// Keras's `average`: unset for one score per class; "micro" (global counts), "macro" (mean of
  /// the classes) or "weighted" (mean weighted by class support).
  std::optional<std::string> average;  // unset (per class), "micro", "macro" or "weighted"
  /// Keras's `beta`: the weight of recall relative to precision (> 0).
  double beta = 1.0;                   // > 0
  /// Keras's `threshold`: predictions above it count as 1; unset: each row's maximum counts as 1.
  std::optional<double> threshold;     // in (0, 1]; unset: the row maximum is the prediction
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "fbeta_score";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};

/// Options of F1Score.
struct F1ScoreOptions {
  /// As FBetaScoreOptions's `average`: unset, "micro", "macro" or "weighted".
  std::optional<std::string> average;
  /// As FBetaScoreOptions's `threshold`: in (0, 1]; unset: each row's maximum counts as 1.
  std::optional<double> threshold;
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "f1_score";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};

/// (1 + beta^2) * precision * recall / (beta^2 * precision + recall); variables
/// "true_positives", "false_positives", "false_negatives", "intermediate_weights" of shape
/// (classes,) ((), for "micro"), created by the first batch.
class FBetaScore : public Metric {
 public:
  /// An FBetaScore metric; ValueError for an unknown `average`, `beta` <= 0 or `threshold` outside
  /// (0, 1].
  explicit FBetaScore(FBetaScoreOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  /// One score per class when average is unset, else a scalar.
  Tensor result() const override;
  std::string class_name() const override { return "FBetaScore"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  FBetaScoreOptions options_;
  bool built_ = false;
  Variable true_positives_, false_positives_, false_negatives_, intermediate_weights_;
};

/// FBetaScore with beta = 1.
class F1Score final : public FBetaScore {
 public:
  /// An F1Score metric; ValueError for an unknown `average` or `threshold` outside (0, 1].
  explicit F1Score(F1ScoreOptions options = {});
  std::string class_name() const override { return "F1Score"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};

}  // namespace keras::metrics

#pragma GCC visibility pop
