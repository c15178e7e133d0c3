#pragma once
// keras.metrics confusion-matrix metrics (keras/src/metrics/confusion_metrics.py): the four
// counts, Precision, Recall, the X-at-Y metrics and AUC, with Keras's
// update_confusion_matrix_variables semantics (a prediction is positive when it is `>` the
// threshold; evenly spaced thresholds take Keras's bucketed path, clipping predictions to
// [0, 1]; AUC's end thresholds are -epsilon and 1 + epsilon).
//
//   keras::metrics::AUC auc({.curve = "PR"});
//   auc.update_state(labels, probabilities);
//   double pr_auc = auc.result().item<double>();

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "keras/metrics/metric.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// Keras's `thresholds` argument: unset (the default), one value, or a list; get_config writes
/// it back as given.
using ThresholdsArg = std::optional<std::variant<double, std::vector<double>>>;

namespace detail {

/// Weighted confusion counts per threshold (shape (T,), or (T, labels) when multi_label).
struct ConfusionCounts {
  std::vector<double> tp, fp, tn, fn;
  int64_t num_labels = 1;
};

/// Keras's update_confusion_matrix_variables, computed on the host in float64.
struct ConfusionArgs {
  std::vector<double> thresholds;
  bool thresholds_distributed_evenly = false;
  std::optional<int64_t> top_k;
  std::optional<int64_t> class_id;
  bool multi_label = false;
  std::vector<double> label_weights;  // empty: none
};
ConfusionCounts confusion_counts(const Tensor& y_true, const Tensor& y_pred,
                                 const Tensor& sample_weight, const ConfusionArgs& args,
                                 DType dtype, const std::string& who);

/// Keras's is_evenly_distributed_thresholds.
bool is_evenly_distributed_thresholds(const std::vector<double>& thresholds);

}  // namespace detail

/// Options of TruePositives, TrueNegatives, FalsePositives and FalseNegatives.
struct ConfusionCountOptions {
  /// Keras's `thresholds`: predictions above a threshold count as positive, one count per threshold
  /// (each in [0, 1]); unset: 0.5.
  ThresholdsArg thresholds;  // unset: 0.5
  /// Keras's `name`: the metric's name in logs and history; empty for the snake-case class name.
  std::string name;          // empty: the snake-case class name
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};

/// Base of the four weighted counts: variable "accumulator" of shape (num thresholds,).
class ConfusionMatrixConditionCount : public Metric {
 public:
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  /// A scalar for one threshold, else one count per threshold.
  Tensor result() const override;
  Config get_config() const override;
  /// The thresholds counted at (0.5 when none was given).
  const std::vector<double>& thresholds() const { return thresholds_; }

 protected:
  /// For the subclasses: `which` picks the count ('p' tp, 'f' fp, 'n' tn, 'm' fn).
  /// ValueError for a threshold outside [0, 1] or an empty list.
  ConfusionMatrixConditionCount(char which, ConfusionCountOptions options);
  template <typename T>
  /// Rebuilds a T (one of the four subclasses) from its get_config() dict.
  static MetricPtr from_config_as(const Config& config);

 private:
  char which_;  // 'p' tp, 'f' fp, 'n' tn, 'm' fn
  ConfusionCountOptions options_;
  std::vector<double> thresholds_;
  bool evenly_ = false;
  Variable accumulator_;
};

/// Weighted count of y_true true and y_pred > threshold.
class TruePositives final : public ConfusionMatrixConditionCount {
 public:
  /// A TruePositives metric; ValueError for a threshold outside [0, 1].
  explicit TruePositives(ConfusionCountOptions options = {});
  std::string class_name() const override { return "TruePositives"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};
/// Weighted count of y_true false and y_pred <= threshold.
class TrueNegatives final : public ConfusionMatrixConditionCount {
 public:
  /// A TrueNegatives metric; ValueError for a threshold outside [0, 1].
  explicit TrueNegatives(ConfusionCountOptions options = {});
  std::string class_name() const override { return "TrueNegatives"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};
/// Weighted count of y_true false and y_pred > threshold.
class FalsePositives final : public ConfusionMatrixConditionCount {
 public:
  /// A FalsePositives metric; ValueError for a threshold outside [0, 1].
  explicit FalsePositives(ConfusionCountOptions options = {});
  std::string class_name() const override { return "FalsePositives"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};
/// Weighted count of y_true true and y_pred <= threshold.
class FalseNegatives final : public ConfusionMatrixConditionCount {
 public:
  /// A FalseNegatives metric; ValueError for a threshold outside [0, 1].
  explicit FalseNegatives(ConfusionCountOptions options = {});
  std::string class_name() const override { return "FalseNegatives"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};

/// Options of Precision and Recall.
struct PrecisionRecallOptions {
  /// Keras's `thresholds`: predictions above a threshold count as positive, one value per threshold
  /// (each in [0, 1]).
  /// Unset: 0.5, or with `top_k` a threshold below every score, so that the top k count.
  ThresholdsArg thresholds;  // unset: 0.5, or -1e10 (every top-k prediction) with top_k
  /// Keras's `top_k`: only each sample's k highest predictions count as positive; unset for all.
  std::optional<int64_t> top_k;
  /// Keras's `class_id`: the class (last axis index) the metric is computed for; unset for all.
  std::optional<int64_t> class_id;
  /// Keras's `name`: the metric's name in logs and history; empty for the snake-case class name.
  std::string name;
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};

/// tp / (tp + fp) per threshold; variables "true_positives", "false_positives".
class Precision final : public Metric {
 public:
  /// A Precision metric; ValueError for a threshold outside [0, 1] or an empty list.
  explicit Precision(PrecisionRecallOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "Precision"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  PrecisionRecallOptions options_;
  std::vector<double> thresholds_;
  bool evenly_ = false;
  Variable true_positives_, false_positives_;
};

/// tp / (tp + fn) per threshold; variables "true_positives", "false_negatives".
class Recall final : public Metric {
 public:
  /// A Recall metric; ValueError for a threshold outside [0, 1] or an empty list.
  explicit Recall(PrecisionRecallOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "Recall"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  PrecisionRecallOptions options_;
  std::vector<double> thresholds_;
  bool evenly_ = false;
  Variable true_positives_, false_negatives_;
};

/// Options of the X-at-Y metrics (the constraint itself, recall for PrecisionAtRecall, ..., is
/// the constructor's first argument).
struct AtValueOptions {
  /// Keras's `num_thresholds`: how many thresholds, evenly spaced over [0, 1], are tried (> 0).
  int64_t num_thresholds = 200;
  /// Keras's `class_id`: the class (last axis index) the metric is computed for; unset for all.
  std::optional<int64_t> class_id;
  /// Keras's `name`: the metric's name in logs and history; empty for the snake-case class name.
  std::string name;
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};

/// Base of PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity and
/// SpecificityAtSensitivity: the four counts over num_thresholds thresholds in [0, 1].
class SensitivitySpecificityBase : public Metric {
 public:
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  Config get_config() const override;

 protected:
  /// `kind`: 0 PrecisionAtRecall, 1 RecallAtPrecision, 2 SensitivityAtSpecificity,
  /// 3 SpecificityAtSensitivity.
  SensitivitySpecificityBase(int kind, double value, AtValueOptions options);
  template <typename T>
  /// Rebuilds a T from its get_config() dict, whose `key` entry holds the constraint value.
  /// ValueError when the config has no `key`.
  static MetricPtr from_config_as(const Config& config, const char* key);

 private:
  int kind_;
  double value_;
  AtValueOptions options_;
  std::vector<double> thresholds_;
  bool evenly_ = false;
  Variable true_positives_, false_positives_, true_negatives_, false_negatives_;
};

/// The largest precision at a threshold whose recall is >= `recall`.
class PrecisionAtRecall final : public SensitivitySpecificityBase {
 public:
  /// Precision where recall >= `recall`; ValueError unless `recall` is in [0, 1] and
  /// `options.num_thresholds` > 0.
  explicit PrecisionAtRecall(double recall, AtValueOptions options = {});
  std::string class_name() const override { return "PrecisionAtRecall"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};
/// The largest recall at a threshold whose precision is >= `precision`.
class RecallAtPrecision final : public SensitivitySpecificityBase {
 public:
  /// Recall where precision >= `precision`; ValueError unless `precision` is in [0, 1] and
  /// `options.num_thresholds` > 0.
  explicit RecallAtPrecision(double precision, AtValueOptions options = {});
  std::string class_name() const override { return "RecallAtPrecision"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};
/// The largest sensitivity at a threshold whose specificity is >= `specificity`.
class SensitivityAtSpecificity final : public SensitivitySpecificityBase {
 public:
  /// Sensitivity where specificity >= `specificity`; ValueError unless it is in [0, 1] and
  /// `options.num_thresholds` > 0.
  explicit SensitivityAtSpecificity(double specificity, AtValueOptions options = {});
  std::string class_name() const override { return "SensitivityAtSpecificity"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};
/// The largest specificity at a threshold whose sensitivity is >= `sensitivity`.
class SpecificityAtSensitivity final : public SensitivitySpecificityBase {
 public:
  /// Specificity where sensitivity >= `sensitivity`; ValueError unless it is in [0, 1] and
  /// `options.num_thresholds` > 0.
  explicit SpecificityAtSensitivity(double sensitivity, AtValueOptions options = {});
  std::string class_name() const override { return "SpecificityAtSensitivity"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
};

/// Options of AUC (Keras's arguments and defaults).
struct AUCOptions {
  /// Keras's `num_thresholds`: how many thresholds (> 1), evenly spaced, discretize the curve.
  int64_t num_thresholds = 200;
  /// Keras's `curve`: "ROC" (default), "PR" (precision-recall) or "PRGAIN"; lower case is accepted.
  std::string curve = "ROC";                      // "ROC", "PR" or "PRGAIN"
  /// Keras's `summation_method`: "interpolation" (mid-point; for PR, interpolating the counts),
  /// "minoring" or "majoring".
  std::string summation_method = "interpolation";  // or "minoring", "majoring"
  /// Keras's `name`: the metric's name in logs and history; empty for the snake-case class name.
  std::string name;
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `thresholds`: explicit inner thresholds in [0, 1], replacing `num_thresholds`.
  /// The end points -epsilon and 1 + epsilon are added, so predictions of exactly 0 or 1 count.
  std::optional<std::vector<double>> thresholds;  // inner thresholds; replaces num_thresholds
  /// Keras's `multi_label`: one AUC per label (y_pred of rank 2), averaged, instead of one over the
  /// flattened data.
  bool multi_label = false;
  /// Keras's `num_labels`: the number of labels with `multi_label`; unset, the variables are
  /// created by the first batch.
  std::optional<int64_t> num_labels;  // multi_label only; else the variables wait for data
  /// Keras's `label_weights`: non-negative weights of the labels, in the average of the per-label
  /// AUCs with `multi_label`, else in the counts.
  std::optional<std::vector<double>> label_weights;
  /// Keras's `from_logits`: whether y_pred holds logits (a sigmoid is applied first) rather than
  /// probabilities.
  bool from_logits = false;
};

/// Area under the ROC or PR curve by a Riemann sum over thresholds (Keras's AUC); variables
/// "true_positives", "false_positives", "true_negatives", "false_negatives".
class AUC final : public Metric {
 public:
  /// An AUC metric; ValueError for an unknown `curve` or `summation_method`, or invalid thresholds,
  /// labels or weights.
  explicit AUC(AUCOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "AUC"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);
  /// All thresholds, -epsilon and 1 + epsilon included.
  const std::vector<double>& thresholds() const { return thresholds_; }

 private:
  void build(int64_t num_labels);
  double interpolate_pr_auc(const std::vector<double>& tp, const std::vector<double>& fp,
                            const std::vector<double>& fn) const;
  AUCOptions options_;
  std::string curve_, summation_;
  std::vector<double> thresholds_;
  bool evenly_ = false;
  bool built_ = false;
  int64_t labels_ = 1;
  Variable true_positives_, false_positives_, true_negatives_, false_negatives_;
};

}  // namespace keras::metrics

#pragma GCC visibility pop
