#pragma once
// The metrics Keras builds on MeanMetricWrapper: accuracies, regression errors and the
// probabilistic/hinge losses as metrics, with Keras's names, defaults and config keys. Plus
// RootMeanSquaredError (a Mean of squared errors, square-rooted).

#include <cstdint>
#include <optional>
#include <string>

#include "keras/metrics/reduction_metrics.h"

#pragma GCC visibility push(default)
namespace keras::metrics {

/// How often y_pred equals y_true.
struct AccuracyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "accuracy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.Accuracy: the mean of accuracy() (y_pred equal to y_true) over all samples seen.
class Accuracy final : public MeanMetricWrapper {
 public:
  /// An Accuracy metric with these options.
  explicit Accuracy(AccuracyOptions options = {});
  std::string class_name() const override { return "Accuracy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  AccuracyOptions options_;
};

/// How often (y_pred > threshold) equals the binary label.
struct BinaryAccuracyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "binary_accuracy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `threshold`: predictions above it count as 1, the rest as 0.
  double threshold = 0.5;
};
/// keras.metrics.BinaryAccuracy: the mean of binary_accuracy() over all samples seen.
class BinaryAccuracy final : public MeanMetricWrapper {
 public:
  /// A BinaryAccuracy metric with these options.
  explicit BinaryAccuracy(BinaryAccuracyOptions options = {});
  std::string class_name() const override { return "BinaryAccuracy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  BinaryAccuracyOptions options_;
};

/// How often argmax(y_pred) equals argmax(one-hot y_true).
struct CategoricalAccuracyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "categorical_accuracy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.CategoricalAccuracy: the mean of categorical_accuracy() over all samples seen.
class CategoricalAccuracy final : public MeanMetricWrapper {
 public:
  /// A CategoricalAccuracy metric with these options.
  explicit CategoricalAccuracy(CategoricalAccuracyOptions options = {});
  std::string class_name() const override { return "CategoricalAccuracy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  CategoricalAccuracyOptions options_;
};

/// How often argmax(y_pred) equals the integer label.
struct SparseCategoricalAccuracyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "sparse_categorical_accuracy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.SparseCategoricalAccuracy: the mean of sparse_categorical_accuracy() over all
/// samples seen.
class SparseCategoricalAccuracy final : public MeanMetricWrapper {
 public:
  /// A SparseCategoricalAccuracy metric with these options.
  explicit SparseCategoricalAccuracy(SparseCategoricalAccuracyOptions options = {});
  std::string class_name() const override { return "SparseCategoricalAccuracy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  SparseCategoricalAccuracyOptions options_;
};

/// How often the one-hot label is among the k largest predictions.
struct TopKCategoricalAccuracyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "top_k_categorical_accuracy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `k`: how many of the largest predictions are checked (>= 1).
  int64_t k = 5;
};
/// keras.metrics.TopKCategoricalAccuracy: the mean of top_k_categorical_accuracy() over all samples
/// seen.
class TopKCategoricalAccuracy final : public MeanMetricWrapper {
 public:
  /// A TopKCategoricalAccuracy metric; ValueError when `k` < 1.
  explicit TopKCategoricalAccuracy(TopKCategoricalAccuracyOptions options = {});
  std::string class_name() const override { return "TopKCategoricalAccuracy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  TopKCategoricalAccuracyOptions options_;
};

/// How often the integer label is among the k largest predictions (or the first k ids when
/// from_sorted_ids).
struct SparseTopKCategoricalAccuracyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "sparse_top_k_categorical_accuracy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `k`: how many of the largest predictions (or of the first ids) are checked (>= 1).
  int64_t k = 5;
  /// Keras's `from_sorted_ids`: y_pred holds class ids sorted by decreasing score, not scores.
  bool from_sorted_ids = false;
};
/// keras.metrics.SparseTopKCategoricalAccuracy: the mean of sparse_top_k_categorical_accuracy()
/// over all samples seen.
class SparseTopKCategoricalAccuracy final : public MeanMetricWrapper {
 public:
  /// A SparseTopKCategoricalAccuracy metric; ValueError when `k` < 1.
  explicit SparseTopKCategoricalAccuracy(SparseTopKCategoricalAccuracyOptions options = {});
  std::string class_name() const override { return "SparseTopKCategoricalAccuracy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  SparseTopKCategoricalAccuracyOptions options_;
};

/// Mean of (y_true - y_pred)^2.
struct MeanSquaredErrorOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "mean_squared_error";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.MeanSquaredError: the mean of (y_true - y_pred)^2 over all samples seen.
class MeanSquaredError final : public MeanMetricWrapper {
 public:
  /// A MeanSquaredError metric with these options.
  explicit MeanSquaredError(MeanSquaredErrorOptions options = {});
  std::string class_name() const override { return "MeanSquaredError"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  MeanSquaredErrorOptions options_;
};

/// Mean of |y_true - y_pred|.
struct MeanAbsoluteErrorOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "mean_absolute_error";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.MeanAbsoluteError: the mean of |y_true - y_pred| over all samples seen.
class MeanAbsoluteError final : public MeanMetricWrapper {
 public:
  /// A MeanAbsoluteError metric with these options.
  explicit MeanAbsoluteError(MeanAbsoluteErrorOptions options = {});
  std::string class_name() const override { return "MeanAbsoluteError"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  MeanAbsoluteErrorOptions options_;
};

/// Mean absolute percentage error.
struct MeanAbsolutePercentageErrorOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "mean_absolute_percentage_error";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.MeanAbsolutePercentageError: the mean of 100 * |y_true - y_pred| /
/// max(|y_true|, epsilon) over all samples seen.
class MeanAbsolutePercentageError final : public MeanMetricWrapper {
 public:
  /// A MeanAbsolutePercentageError metric with these options.
  explicit MeanAbsolutePercentageError(MeanAbsolutePercentageErrorOptions options = {});
  std::string class_name() const override { return "MeanAbsolutePercentageError"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  MeanAbsolutePercentageErrorOptions options_;
};

/// Mean squared logarithmic error.
struct MeanSquaredLogarithmicErrorOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "mean_squared_logarithmic_error";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.MeanSquaredLogarithmicError: the mean of (log(y_true + 1) - log(y_pred + 1))^2
/// over all samples seen.
class MeanSquaredLogarithmicError final : public MeanMetricWrapper {
 public:
  /// A MeanSquaredLogarithmicError metric with these options.
  explicit MeanSquaredLogarithmicError(MeanSquaredLogarithmicErrorOptions options = {});
  std::string class_name() const override { return "MeanSquaredLogarithmicError"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  MeanSquaredLogarithmicErrorOptions options_;
};

/// Mean cosine similarity between y_true and y_pred along axis (positive, unlike the loss).
struct CosineSimilarityOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "cosine_similarity";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `axis`: the axis the similarity is computed along.
  int axis = -1;
};
/// keras.metrics.CosineSimilarity: the mean of cosine_similarity() over all samples seen (1 is
/// best).
class CosineSimilarity final : public MeanMetricWrapper {
 public:
  /// A CosineSimilarity metric with these options.
  explicit CosineSimilarity(CosineSimilarityOptions options = {});
  std::string class_name() const override { return "CosineSimilarity"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  CosineSimilarityOptions options_;
};

/// Mean of log(cosh(y_pred - y_true)).
struct LogCoshErrorOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "logcosh";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.LogCoshError: the mean of log(cosh(y_pred - y_true)) over all samples seen.
class LogCoshError final : public MeanMetricWrapper {
 public:
  /// A LogCoshError metric with these options.
  explicit LogCoshError(LogCoshErrorOptions options = {});
  std::string class_name() const override { return "LogCoshError"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  LogCoshErrorOptions options_;
};

/// Kullback-Leibler divergence.
struct KLDivergenceOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "kl_divergence";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.KLDivergence: the mean over samples of sum(y_true * log(y_true / y_pred)) along
/// the last axis.
class KLDivergence final : public MeanMetricWrapper {
 public:
  /// A KLDivergence metric with these options.
  explicit KLDivergence(KLDivergenceOptions options = {});
  std::string class_name() const override { return "KLDivergence"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  KLDivergenceOptions options_;
};

/// Poisson deviance term y_pred - y_true log(y_pred).
struct PoissonOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "poisson";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.Poisson: the mean of y_pred - y_true * log(y_pred) over all samples seen.
class Poisson final : public MeanMetricWrapper {
 public:
  /// A Poisson metric with these options.
  explicit Poisson(PoissonOptions options = {});
  std::string class_name() const override { return "Poisson"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  PoissonOptions options_;
};

/// Binary cross-entropy.
struct BinaryCrossentropyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "binary_crossentropy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `from_logits`: whether y_pred holds logits rather than probabilities.
  bool from_logits = false;
  /// Keras's `label_smoothing`: in [0, 1]; labels are squeezed towards 0.5 by this amount.
  double label_smoothing = 0.0;
};
/// keras.metrics.BinaryCrossentropy: the mean binary cross-entropy over all samples seen.
class BinaryCrossentropy final : public MeanMetricWrapper {
 public:
  /// A BinaryCrossentropy metric; ValueError when `label_smoothing` is outside [0, 1].
  explicit BinaryCrossentropy(BinaryCrossentropyOptions options = {});
  std::string class_name() const override { return "BinaryCrossentropy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  BinaryCrossentropyOptions options_;
};

/// Categorical cross-entropy.
struct CategoricalCrossentropyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "categorical_crossentropy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `from_logits`: whether y_pred holds logits rather than probabilities.
  bool from_logits = false;
  /// Keras's `label_smoothing`: in [0, 1]; one-hot labels are squeezed towards 1 / classes by this
  /// amount.
  double label_smoothing = 0.0;
  /// Keras's `axis`: the class axis.
  int axis = -1;
};
/// keras.metrics.CategoricalCrossentropy: the mean cross-entropy of one-hot labels over all samples
/// seen.
class CategoricalCrossentropy final : public MeanMetricWrapper {
 public:
  /// A CategoricalCrossentropy metric; ValueError when `label_smoothing` is outside [0, 1].
  explicit CategoricalCrossentropy(CategoricalCrossentropyOptions options = {});
  std::string class_name() const override { return "CategoricalCrossentropy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  CategoricalCrossentropyOptions options_;
};

/// Sparse categorical cross-entropy.
struct SparseCategoricalCrossentropyOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "sparse_categorical_crossentropy";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
  /// Keras's `from_logits`: whether y_pred holds logits rather than probabilities.
  bool from_logits = false;
  /// Keras's `ignore_class`: a label whose samples add no loss; unset for none.
  std::optional<int64_t> ignore_class = std::nullopt;
  /// Keras's `axis`: the class axis.
  int axis = -1;
};
/// keras.metrics.SparseCategoricalCrossentropy: the mean cross-entropy of integer labels over all
/// samples seen.
class SparseCategoricalCrossentropy final : public MeanMetricWrapper {
 public:
  /// A SparseCategoricalCrossentropy metric with these options.
  explicit SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions options = {});
  std::string class_name() const override { return "SparseCategoricalCrossentropy"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  SparseCategoricalCrossentropyOptions options_;
};

/// Hinge loss as a metric.
struct HingeOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "hinge";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.Hinge: the mean of max(1 - y_true * y_pred, 0) over all samples seen (labels -1 or
/// 1; 0/1 labels are converted).
class Hinge final : public MeanMetricWrapper {
 public:
  /// A Hinge metric with these options.
  explicit Hinge(HingeOptions options = {});
  std::string class_name() const override { return "Hinge"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  HingeOptions options_;
};

/// Squared hinge loss as a metric.
struct SquaredHingeOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "squared_hinge";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.SquaredHinge: the mean of max(1 - y_true * y_pred, 0)^2 over all samples seen (0/1
/// labels are converted to -1/1).
class SquaredHinge final : public MeanMetricWrapper {
 public:
  /// A SquaredHinge metric with these options.
  explicit SquaredHinge(SquaredHingeOptions options = {});
  std::string class_name() const override { return "SquaredHinge"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  SquaredHingeOptions options_;
};

/// Categorical hinge loss as a metric.
struct CategoricalHingeOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "categorical_hinge";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.CategoricalHinge: the mean of max(0, 1 + max(y_pred of wrong classes) - y_pred of
/// the true class).
class CategoricalHinge final : public MeanMetricWrapper {
 public:
  /// A CategoricalHinge metric with these options.
  explicit CategoricalHinge(CategoricalHingeOptions options = {});
  std::string class_name() const override { return "CategoricalHinge"; }
  Config get_config() const override;
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  CategoricalHingeOptions options_;
};

/// sqrt(mean((y_pred - y_true)^2)) over all samples seen.
struct RootMeanSquaredErrorOptions {
  /// Keras's `name`: the metric's name in logs and history.
  std::string name = "root_mean_squared_error";
  /// Keras's `dtype`: the dtype of the metric's variables and result; unset for floatx.
  std::optional<DType> dtype;
};
/// keras.metrics.RootMeanSquaredError: sqrt of the (weighted) mean of (y_pred - y_true)^2 over all
/// samples seen.
class RootMeanSquaredError final : public Metric {
 public:
  /// A RootMeanSquaredError metric with these options.
  explicit RootMeanSquaredError(RootMeanSquaredErrorOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "RootMeanSquaredError"; }
  /// Rebuilds the metric from its get_config() dict (Keras's `from_config`).
  static MetricPtr from_config(const Config& config);

 private:
  std::shared_ptr<Mean> mean_;
};

}  // namespace keras::metrics

#pragma GCC visibility pop
