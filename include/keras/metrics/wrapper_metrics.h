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
  std::string name = "accuracy";
  std::optional<DType> dtype;
};
class Accuracy final : public MeanMetricWrapper {
 public:
  explicit Accuracy(AccuracyOptions options = {});
  std::string class_name() const override { return "Accuracy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  AccuracyOptions options_;
};

/// How often (y_pred > threshold) equals the binary label.
struct BinaryAccuracyOptions {
  std::string name = "binary_accuracy";
  std::optional<DType> dtype;
  double threshold = 0.5;
};
class BinaryAccuracy final : public MeanMetricWrapper {
 public:
  explicit BinaryAccuracy(BinaryAccuracyOptions options = {});
  std::string class_name() const override { return "BinaryAccuracy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  BinaryAccuracyOptions options_;
};

/// How often argmax(y_pred) equals argmax(one-hot y_true).
struct CategoricalAccuracyOptions {
  std::string name = "categorical_accuracy";
  std::optional<DType> dtype;
};
class CategoricalAccuracy final : public MeanMetricWrapper {
 public:
  explicit CategoricalAccuracy(CategoricalAccuracyOptions options = {});
  std::string class_name() const override { return "CategoricalAccuracy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  CategoricalAccuracyOptions options_;
};

/// How often argmax(y_pred) equals the integer label.
struct SparseCategoricalAccuracyOptions {
  std::string name = "sparse_categorical_accuracy";
  std::optional<DType> dtype;
};
class SparseCategoricalAccuracy final : public MeanMetricWrapper {
 public:
  explicit SparseCategoricalAccuracy(SparseCategoricalAccuracyOptions options = {});
  std::string class_name() const override { return "SparseCategoricalAccuracy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  SparseCategoricalAccuracyOptions options_;
};

/// How often the one-hot label is among the k largest predictions.
struct TopKCategoricalAccuracyOptions {
  std::string name = "top_k_categorical_accuracy";
  std::optional<DType> dtype;
  int64_t k = 5;
};
class TopKCategoricalAccuracy final : public MeanMetricWrapper {
 public:
  explicit TopKCategoricalAccuracy(TopKCategoricalAccuracyOptions options = {});
  std::string class_name() const override { return "TopKCategoricalAccuracy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  TopKCategoricalAccuracyOptions options_;
};

/// How often the integer label is among the k largest predictions (or the first k ids when
/// from_sorted_ids).
struct SparseTopKCategoricalAccuracyOptions {
  std::string name = "sparse_top_k_categorical_accuracy";
  std::optional<DType> dtype;
  int64_t k = 5;
  bool from_sorted_ids = false;
};
class SparseTopKCategoricalAccuracy final : public MeanMetricWrapper {
 public:
  explicit SparseTopKCategoricalAccuracy(SparseTopKCategoricalAccuracyOptions options = {});
  std::string class_name() const override { return "SparseTopKCategoricalAccuracy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  SparseTopKCategoricalAccuracyOptions options_;
};

/// Mean of (y_true - y_pred)^2.
struct MeanSquaredErrorOptions {
  std::string name = "mean_squared_error";
  std::optional<DType> dtype;
};
class MeanSquaredError final : public MeanMetricWrapper {
 public:
  explicit MeanSquaredError(MeanSquaredErrorOptions options = {});
  std::string class_name() const override { return "MeanSquaredError"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  MeanSquaredErrorOptions options_;
};

/// Mean of |y_true - y_pred|.
struct MeanAbsoluteErrorOptions {
  std::string name = "mean_absolute_error";
  std::optional<DType> dtype;
};
class MeanAbsoluteError final : public MeanMetricWrapper {
 public:
  explicit MeanAbsoluteError(MeanAbsoluteErrorOptions options = {});
  std::string class_name() const override { return "MeanAbsoluteError"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  MeanAbsoluteErrorOptions options_;
};

/// Mean absolute percentage error.
struct MeanAbsolutePercentageErrorOptions {
  std::string name = "mean_absolute_percentage_error";
  std::optional<DType> dtype;
};
class MeanAbsolutePercentageError final : public MeanMetricWrapper {
 public:
  explicit MeanAbsolutePercentageError(MeanAbsolutePercentageErrorOptions options = {});
  std::string class_name() const override { return "MeanAbsolutePercentageError"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  MeanAbsolutePercentageErrorOptions options_;
};

/// Mean squared logarithmic error.
struct MeanSquaredLogarithmicErrorOptions {
  std::string name = "mean_squared_logarithmic_error";
  std::optional<DType> dtype;
};
class MeanSquaredLogarithmicError final : public MeanMetricWrapper {
 public:
  explicit MeanSquaredLogarithmicError(MeanSquaredLogarithmicErrorOptions options = {});
  std::string class_name() const override { return "MeanSquaredLogarithmicError"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  MeanSquaredLogarithmicErrorOptions options_;
};

/// Mean cosine similarity between y_true and y_pred along axis (positive, unlike the loss).
struct CosineSimilarityOptions {
  std::string name = "cosine_similarity";
  std::optional<DType> dtype;
  int axis = -1;
};
class CosineSimilarity final : public MeanMetricWrapper {
 public:
  explicit CosineSimilarity(CosineSimilarityOptions options = {});
  std::string class_name() const override { return "CosineSimilarity"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  CosineSimilarityOptions options_;
};

/// Mean of log(cosh(y_pred - y_true)).
struct LogCoshErrorOptions {
  std::string name = "logcosh";
  std::optional<DType> dtype;
};
class LogCoshError final : public MeanMetricWrapper {
 public:
  explicit LogCoshError(LogCoshErrorOptions options = {});
  std::string class_name() const override { return "LogCoshError"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  LogCoshErrorOptions options_;
};

/// Kullback-Leibler divergence.
struct KLDivergenceOptions {
  std::string name = "kl_divergence";
  std::optional<DType> dtype;
};
class KLDivergence final : public MeanMetricWrapper {
 public:
  explicit KLDivergence(KLDivergenceOptions options = {});
  std::string class_name() const override { return "KLDivergence"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  KLDivergenceOptions options_;
};

/// Poisson deviance term y_pred - y_true log(y_pred).
struct PoissonOptions {
  std::string name = "poisson";
  std::optional<DType> dtype;
};
class Poisson final : public MeanMetricWrapper {
 public:
  explicit Poisson(PoissonOptions options = {});
  std::string class_name() const override { return "Poisson"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  PoissonOptions options_;
};

/// Binary cross-entropy.
struct BinaryCrossentropyOptions {
  std::string name = "binary_crossentropy";
  std::optional<DType> dtype;
  bool from_logits = false;
  double label_smoothing = 0.0;
};
class BinaryCrossentropy final : public MeanMetricWrapper {
 public:
  explicit BinaryCrossentropy(BinaryCrossentropyOptions options = {});
  std::string class_name() const override { return "BinaryCrossentropy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  BinaryCrossentropyOptions options_;
};

/// Categorical cross-entropy.
struct CategoricalCrossentropyOptions {
  std::string name = "categorical_crossentropy";
  std::optional<DType> dtype;
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
};
class CategoricalCrossentropy final : public MeanMetricWrapper {
 public:
  explicit CategoricalCrossentropy(CategoricalCrossentropyOptions options = {});
  std::string class_name() const override { return "CategoricalCrossentropy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  CategoricalCrossentropyOptions options_;
};

/// Sparse categorical cross-entropy.
struct SparseCategoricalCrossentropyOptions {
  std::string name = "sparse_categorical_crossentropy";
  std::optional<DType> dtype;
  bool from_logits = false;
  std::optional<int64_t> ignore_class = std::nullopt;
  int axis = -1;
};
class SparseCategoricalCrossentropy final : public MeanMetricWrapper {
 public:
  explicit SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions options = {});
  std::string class_name() const override { return "SparseCategoricalCrossentropy"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  SparseCategoricalCrossentropyOptions options_;
};

/// Hinge loss as a metric.
struct HingeOptions {
  std::string name = "hinge";
  std::optional<DType> dtype;
};
class Hinge final : public MeanMetricWrapper {
 public:
  explicit Hinge(HingeOptions options = {});
  std::string class_name() const override { return "Hinge"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  HingeOptions options_;
};

/// Squared hinge loss as a metric.
struct SquaredHingeOptions {
  std::string name = "squared_hinge";
  std::optional<DType> dtype;
};
class SquaredHinge final : public MeanMetricWrapper {
 public:
  explicit SquaredHinge(SquaredHingeOptions options = {});
  std::string class_name() const override { return "SquaredHinge"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  SquaredHingeOptions options_;
};

/// Categorical hinge loss as a metric.
struct CategoricalHingeOptions {
  std::string name = "categorical_hinge";
  std::optional<DType> dtype;
};
class CategoricalHinge final : public MeanMetricWrapper {
 public:
  explicit CategoricalHinge(CategoricalHingeOptions options = {});
  std::string class_name() const override { return "CategoricalHinge"; }
  Config get_config() const override;
  static MetricPtr from_config(const Config& config);

 private:
  CategoricalHingeOptions options_;
};

/// sqrt(mean((y_pred - y_true)^2)) over all samples seen.
struct RootMeanSquaredErrorOptions {
  std::string name = "root_mean_squared_error";
  std::optional<DType> dtype;
};
class RootMeanSquaredError final : public Metric {
 public:
  explicit RootMeanSquaredError(RootMeanSquaredErrorOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  using Metric::update_state;
  Tensor result() const override;
  std::string class_name() const override { return "RootMeanSquaredError"; }
  static MetricPtr from_config(const Config& config);

 private:
  std::shared_ptr<Mean> mean_;
};

}  // namespace keras::metrics

#pragma GCC visibility pop
