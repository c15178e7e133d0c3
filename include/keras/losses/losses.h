#pragma once
// The built-in losses of keras.losses: a class per loss (arguments in Keras's order, Keras's
// defaults and config keys) and the function Keras exports with it (per-sample values, no
// reduction).
//
//   model->compile({.optimizer = "adam",
//                   .loss = keras::losses::SparseCategoricalCrossentropy({.from_logits = true})});
//   auto l = keras::losses::MeanSquaredError()(y_true, y_pred);   // a scalar tensor
//   auto per_sample = keras::losses::mean_squared_error(y_true, y_pred);

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/losses/loss.h"

#pragma GCC visibility push(default)
namespace keras::losses {

/// mean((y_true - y_pred)^2) over the last axis.
struct MeanSquaredErrorOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "mean_squared_error";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.MeanSquaredError: the mean squared error of each sample, reduced.
class MeanSquaredError final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit MeanSquaredError(MeanSquaredErrorOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "MeanSquaredError"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const MeanSquaredErrorOptions& options() const { return options_; }

 private:
  MeanSquaredErrorOptions options_;
};

/// mean(|y_true - y_pred|) over the last axis.
struct MeanAbsoluteErrorOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "mean_absolute_error";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.MeanAbsoluteError: the mean absolute error of each sample, reduced.
class MeanAbsoluteError final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit MeanAbsoluteError(MeanAbsoluteErrorOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "MeanAbsoluteError"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const MeanAbsoluteErrorOptions& options() const { return options_; }

 private:
  MeanAbsoluteErrorOptions options_;
};

/// 100 * mean(|(y_true - y_pred) / max(|y_true|, epsilon)|).
struct MeanAbsolutePercentageErrorOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "mean_absolute_percentage_error";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.MeanAbsolutePercentageError: the mean absolute percentage error, reduced.
class MeanAbsolutePercentageError final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit MeanAbsolutePercentageError(MeanAbsolutePercentageErrorOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "MeanAbsolutePercentageError"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const MeanAbsolutePercentageErrorOptions& options() const { return options_; }

 private:
  MeanAbsolutePercentageErrorOptions options_;
};

/// mean((log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1))^2).
struct MeanSquaredLogarithmicErrorOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "mean_squared_logarithmic_error";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.MeanSquaredLogarithmicError: the mean squared error of log(1 + x), reduced.
class MeanSquaredLogarithmicError final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit MeanSquaredLogarithmicError(MeanSquaredLogarithmicErrorOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "MeanSquaredLogarithmicError"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const MeanSquaredLogarithmicErrorOptions& options() const { return options_; }

 private:
  MeanSquaredLogarithmicErrorOptions options_;
};

/// -sum(l2_normalize(y_true) * l2_normalize(y_pred)) along axis.
struct CosineSimilarityOptions {
  /// Keras's `axis`: the axis along which the cosine similarity is computed.
  int axis = -1;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "cosine_similarity";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.CosineSimilarity: the negated cosine similarity (-1 for equal directions), reduced.
class CosineSimilarity final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit CosineSimilarity(CosineSimilarityOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CosineSimilarity"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const CosineSimilarityOptions& options() const { return options_; }

 private:
  CosineSimilarityOptions options_;
};

/// 0.5 x^2 for |x| <= delta, else delta |x| - 0.5 delta^2, averaged over the last axis.
struct HuberOptions {
  /// Keras's `delta`: the error size at which the loss turns from quadratic to linear.
  double delta = 1.0;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "huber_loss";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.Huber: quadratic for small errors and linear for large ones, reduced.
class Huber final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit Huber(HuberOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Huber"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const HuberOptions& options() const { return options_; }

 private:
  HuberOptions options_;
};

/// mean(log(cosh(y_pred - y_true))) over the last axis.
struct LogCoshOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "log_cosh";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.LogCosh: the mean log(cosh) of the error, reduced.
class LogCosh final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit LogCosh(LogCoshOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "LogCosh"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const LogCoshOptions& options() const { return options_; }

 private:
  LogCoshOptions options_;
};

/// mean(max(1 - y_true * y_pred, 0)); 0/1 labels become -1/1.
struct HingeOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "hinge";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.Hinge: the hinge loss for -1/1 (or 0/1) labels, reduced.
class Hinge final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit Hinge(HingeOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Hinge"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const HingeOptions& options() const { return options_; }

 private:
  HingeOptions options_;
};

/// mean(max(1 - y_true * y_pred, 0)^2); 0/1 labels become -1/1.
struct SquaredHingeOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "squared_hinge";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.SquaredHinge: the squared hinge loss for -1/1 (or 0/1) labels, reduced.
class SquaredHinge final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit SquaredHinge(SquaredHingeOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "SquaredHinge"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const SquaredHingeOptions& options() const { return options_; }

 private:
  SquaredHingeOptions options_;
};

/// max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0).
struct CategoricalHingeOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "categorical_hinge";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.CategoricalHinge: the hinge loss for one-hot labels, reduced.
class CategoricalHinge final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit CategoricalHinge(CategoricalHingeOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalHinge"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const CategoricalHingeOptions& options() const { return options_; }

 private:
  CategoricalHingeOptions options_;
};

/// sum(y_true * log(y_true / y_pred)) with both clipped to [epsilon, 1].
struct KLDivergenceOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "kl_divergence";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.KLDivergence: the Kullback-Leibler divergence from y_true to y_pred, reduced.
class KLDivergence final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit KLDivergence(KLDivergenceOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "KLDivergence"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const KLDivergenceOptions& options() const { return options_; }

 private:
  KLDivergenceOptions options_;
};

/// mean(y_pred - y_true * log(y_pred + epsilon)).
struct PoissonOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "poisson";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.Poisson: the Poisson negative log-likelihood (up to a constant), reduced.
class Poisson final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit Poisson(PoissonOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Poisson"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const PoissonOptions& options() const { return options_; }

 private:
  PoissonOptions options_;
};

/// Connectionist Temporal Classification: y_true (batch, max_label_length) integer labels (0 is
/// the blank and is not a class), y_pred (batch, max_length, num_classes) logits; every label
/// position and every step counts (ops::ctc_loss with full lengths and mask_index 0).
struct CTCOptions {
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "ctc";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.CTC: the connectionist temporal classification loss, reduced.
class CTC final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit CTC(CTCOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CTC"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const CTCOptions& options() const { return options_; }

 private:
  CTCOptions options_;
};

/// Binary cross-entropy averaged over `axis`; label_smoothing pulls labels towards 0.5.
struct BinaryCrossentropyOptions {
  /// Keras's `from_logits`: whether y_pred holds logits (else probabilities).
  bool from_logits = false;
  /// Keras's `label_smoothing`, in [0, 1]: labels y become `y * (1 - s) + 0.5 * s` (0: none).
  double label_smoothing = 0.0;
  /// Keras's `axis`: the axis the per-element losses are averaged over.
  int axis = -1;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "binary_crossentropy";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.BinaryCrossentropy: cross-entropy for 0/1 labels, reduced.
class BinaryCrossentropy final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a `label_smoothing` outside [0, 1], a bad reduction or a non-float dtype.
  explicit BinaryCrossentropy(BinaryCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "BinaryCrossentropy"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const BinaryCrossentropyOptions& options() const { return options_; }

 private:
  BinaryCrossentropyOptions options_;
};

/// Focal binary cross-entropy: (1 - p_t)^gamma * bce, optionally alpha-balanced.
struct BinaryFocalCrossentropyOptions {
  /// Keras's `apply_class_balancing`: weight the loss by `alpha` for label 1 and `1 - alpha` for
  /// label 0.
  bool apply_class_balancing = false;
  /// Keras's `alpha`: the weight of label 1 when `apply_class_balancing` is on.
  double alpha = 0.25;
  /// Keras's `gamma`: the focusing exponent on (1 - p_t), at least 0 (0: plain binary
  /// cross-entropy).
  double gamma = 2.0;
  /// Keras's `from_logits`: whether y_pred holds logits (else probabilities).
  bool from_logits = false;
  /// Keras's `label_smoothing`, in [0, 1]: labels y become `y * (1 - s) + 0.5 * s` (0: none).
  double label_smoothing = 0.0;
  /// Keras's `axis`: the axis the per-element losses are averaged over.
  int axis = -1;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "binary_focal_crossentropy";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.BinaryFocalCrossentropy: binary cross-entropy that down-weights easy examples,
/// reduced.
class BinaryFocalCrossentropy final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a `label_smoothing` outside [0, 1], a negative `gamma`, a bad reduction or a
  /// non-float dtype.
  explicit BinaryFocalCrossentropy(BinaryFocalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "BinaryFocalCrossentropy"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const BinaryFocalCrossentropyOptions& options() const { return options_; }

 private:
  BinaryFocalCrossentropyOptions options_;
};

/// Cross-entropy with one-hot labels; label_smoothing mixes in the uniform distribution.
struct CategoricalCrossentropyOptions {
  /// Keras's `from_logits`: whether y_pred holds logits (else probabilities).
  bool from_logits = false;
  /// Keras's `label_smoothing`, in [0, 1]: labels y become `y * (1 - s) + s / num_classes` (0:
  /// none).
  double label_smoothing = 0.0;
  /// Keras's `axis`: the class axis.
  int axis = -1;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "categorical_crossentropy";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.CategoricalCrossentropy: cross-entropy for one-hot labels, reduced.
class CategoricalCrossentropy final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a `label_smoothing` outside [0, 1], a bad reduction or a non-float dtype.
  explicit CategoricalCrossentropy(CategoricalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalCrossentropy"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const CategoricalCrossentropyOptions& options() const { return options_; }

 private:
  CategoricalCrossentropyOptions options_;
};

/// Focal categorical cross-entropy: alpha (1 - p)^gamma (-y log p), summed over classes.
struct CategoricalFocalCrossentropyOptions {
  /// Keras's `alpha`: a factor on every class's term.
  double alpha = 0.25;
  /// Keras's `gamma`: the focusing exponent on (1 - p), at least 0 (0: alpha times plain
  /// cross-entropy).
  double gamma = 2.0;
  /// Keras's `from_logits`: whether y_pred holds logits (else probabilities).
  bool from_logits = false;
  /// Keras's `label_smoothing`, in [0, 1]: labels y become `y * (1 - s) + s / num_classes` (0:
  /// none).
  double label_smoothing = 0.0;
  /// Keras's `axis`: the class axis.
  int axis = -1;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "categorical_focal_crossentropy";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.CategoricalFocalCrossentropy: categorical cross-entropy that down-weights easy
/// examples, reduced.
class CategoricalFocalCrossentropy final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a `label_smoothing` outside [0, 1], a negative `gamma`, a bad reduction or a
  /// non-float dtype.
  explicit CategoricalFocalCrossentropy(CategoricalFocalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalFocalCrossentropy"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const CategoricalFocalCrossentropyOptions& options() const { return options_; }

 private:
  CategoricalFocalCrossentropyOptions options_;
};

/// Cross-entropy with integer labels; labels equal to ignore_class are masked out.
struct SparseCategoricalCrossentropyOptions {
  /// Keras's `from_logits`: whether y_pred holds logits (else probabilities).
  bool from_logits = false;
  /// Keras's `ignore_class`: a label value whose positions get loss 0 and are masked out of the
  /// reduction (unset: none).
  std::optional<int64_t> ignore_class = std::nullopt;
  /// Keras's `axis`: the class axis of y_pred.
  int axis = -1;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "sparse_categorical_crossentropy";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.SparseCategoricalCrossentropy: cross-entropy for integer class labels, reduced.
class SparseCategoricalCrossentropy final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "SparseCategoricalCrossentropy"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const SparseCategoricalCrossentropyOptions& options() const { return options_; }

 private:
  SparseCategoricalCrossentropyOptions options_;
};

/// 1 - 2 sum(y_true y_pred) / (sum(y_true) + sum(y_pred) + epsilon), over `axis` (all axes when
/// unset).
struct DiceOptions {
  /// Keras's `axis`: the axes the sums run over (unset: all axes, giving one scalar).
  std::optional<std::vector<int>> axis = std::nullopt;
  /// Write a one-axis `axis` as a list ([1]) rather than an int, as Keras writes a tuple.
  bool axis_as_list = false;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "dice";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.Dice: one minus the Dice coefficient (segmentation overlap), reduced.
class Dice final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit Dice(DiceOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Dice"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const DiceOptions& options() const { return options_; }

 private:
  DiceOptions options_;
};

/// 1 - TP / (TP + alpha FP + beta FN + epsilon), over `axis` (all axes when unset).
struct TverskyOptions {
  /// Keras's `alpha`: the weight of the false-positive term, which Keras computes as
  /// `sum((1 - y_pred) * y_true)`.
  double alpha = 0.5;
  /// Keras's `beta`: the weight of the false-negative term, which Keras computes as
  /// `sum(y_pred * (1 - y_true))`.
  double beta = 0.5;
  /// Keras's `axis`: the axes the sums run over (unset: all axes, giving one scalar).
  std::optional<std::vector<int>> axis = std::nullopt;
  /// Write a one-axis `axis` as a list ([1]) rather than an int, as Keras writes a tuple.
  bool axis_as_list = false;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "tversky";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.Tversky: one minus the Tversky index (a Dice with weighted false positives and
/// negatives), reduced.
class Tversky final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit Tversky(TverskyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Tversky"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const TverskyOptions& options() const { return options_; }

 private:
  TverskyOptions options_;
};

/// Circle loss (Sun et al. 2020) over the batch's pairwise cosine similarities; y_pred are
/// L2-normalized embeddings, y_true integer labels.
struct CircleOptions {
  /// Keras's `gamma`: the scale factor that sets the largest scale of each similarity score.
  double gamma = 80.0;
  /// Keras's `margin`: the relaxation distance; below it negatives are up-weighted and positives
  /// down-weighted, above it the reverse.
  double margin = 0.4;
  /// Keras's `remove_diagonal`: leave each sample's similarity with itself out of the positive
  /// pairs.
  bool remove_diagonal = true;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "circle";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.Circle: the Circle loss of a batch of embeddings, reduced.
class Circle final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a bad reduction or a non-float dtype.
  explicit Circle(CircleOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Circle"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const CircleOptions& options() const { return options_; }

 private:
  CircleOptions options_;
};

/// (1 - p_true^q) / q with integer labels (Zhang & Sabuncu 2018); q in (0, 1).
struct CategoricalGeneralizedCrossEntropyOptions {
  /// Keras's `q`, in (0, 1): towards 0 the loss behaves like cross-entropy, towards 1 like mean
  /// absolute error (more robust to noisy labels).
  double q = 0.5;
  /// Keras's `reduction`: how per-sample losses are reduced (see kSumOverBatchSize).
  std::string reduction = kSumOverBatchSize;
  /// Keras's `name`: the loss's name in logs and configs.
  std::string name = "categorical_generalized_cross_entropy";
  /// Keras's `dtype`: the float dtype the loss computes in (unset: floatx).
  std::optional<DType> dtype;
};
/// keras.losses.CategoricalGeneralizedCrossEntropy: the noise-robust generalized cross-entropy for
/// integer labels, reduced.
class CategoricalGeneralizedCrossEntropy final : public Loss {
 public:
  /// Builds the loss from `options` (Keras's constructor arguments).
  /// ValueError for a `q` outside (0, 1), a bad reduction or a non-float dtype.
  explicit CategoricalGeneralizedCrossEntropy(
      CategoricalGeneralizedCrossEntropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalGeneralizedCrossEntropy"; }
  Config get_config() const override;
  /// The loss a Keras config (get_config()'s keys) describes; missing keys take Keras's defaults.
  static LossPtr from_config(const Config& config);
  /// The options the loss was built with.
  const CategoricalGeneralizedCrossEntropyOptions& options() const { return options_; }

 private:
  CategoricalGeneralizedCrossEntropyOptions options_;
};

// ---- the functions (per-sample values) ----------------------------------------------------
/// keras.losses.mean_squared_error: mean((y_true - y_pred)^2) over the last axis, per sample.
Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.mean_absolute_error: mean(|y_true - y_pred|) over the last axis, per sample.
Tensor mean_absolute_error(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.mean_absolute_percentage_error: see MeanAbsolutePercentageErrorOptions; per sample.
Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.mean_squared_logarithmic_error: see MeanSquaredLogarithmicErrorOptions; per sample.
Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.cosine_similarity: the negated cosine similarity along `axis`, per sample.
Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis = -1);
/// keras.losses.huber: the Huber loss with threshold `delta`, averaged over the last axis, per
/// sample.
Tensor huber(const Tensor& y_true, const Tensor& y_pred, double delta = 1.0);
/// keras.losses.log_cosh: mean(log(cosh(y_pred - y_true))) over the last axis, per sample.
Tensor log_cosh(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.hinge: mean(max(1 - y_true * y_pred, 0)) over the last axis, per sample.
/// Labels 0/1 become -1/1.
Tensor hinge(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.squared_hinge: mean(max(1 - y_true * y_pred, 0)^2) over the last axis, per sample.
/// Labels 0/1 become -1/1.
Tensor squared_hinge(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.categorical_hinge: see CategoricalHingeOptions; per sample.
Tensor categorical_hinge(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.kl_divergence: see KLDivergenceOptions; per sample.
Tensor kl_divergence(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.poisson: mean(y_pred - y_true * log(y_pred + epsilon)) over the last axis, per
/// sample.
Tensor poisson(const Tensor& y_true, const Tensor& y_pred);
/// Per-sample CTC loss (batch,): see CTC.
Tensor ctc(const Tensor& y_true, const Tensor& y_pred);
/// keras.losses.binary_crossentropy: see BinaryCrossentropyOptions for the arguments; per sample.
Tensor binary_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits = false,
                           double label_smoothing = 0.0, int axis = -1);
/// keras.losses.binary_focal_crossentropy: see BinaryFocalCrossentropyOptions for the arguments;
/// per sample.
Tensor binary_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                 bool apply_class_balancing = false, double alpha = 0.25,
                                 double gamma = 2.0, bool from_logits = false,
                                 double label_smoothing = 0.0, int axis = -1);
/// keras.losses.categorical_crossentropy: see CategoricalCrossentropyOptions for the arguments; per
/// sample.
Tensor categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                bool from_logits = false, double label_smoothing = 0.0,
                                int axis = -1);
/// keras.losses.categorical_focal_crossentropy: see CategoricalFocalCrossentropyOptions for the
/// arguments; per sample.
Tensor categorical_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                      double alpha = 0.25, double gamma = 2.0,
                                      bool from_logits = false, double label_smoothing = 0.0,
                                      int axis = -1);
/// keras.losses.sparse_categorical_crossentropy: see SparseCategoricalCrossentropyOptions for the
/// arguments; per sample.
Tensor sparse_categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                       bool from_logits = false,
                                       std::optional<int64_t> ignore_class = std::nullopt,
                                       int axis = -1);
/// keras.losses.dice: see DiceOptions for `axis`.
Tensor dice(const Tensor& y_true, const Tensor& y_pred,
            const std::optional<std::vector<int>>& axis = std::nullopt);
/// keras.losses.tversky: see TverskyOptions for the arguments.
Tensor tversky(const Tensor& y_true, const Tensor& y_pred, double alpha = 0.5, double beta = 0.5,
               const std::optional<std::vector<int>>& axis = std::nullopt);
/// keras.losses.circle: the Circle loss of embeddings y_pred (batch, dim) with integer labels
/// y_true, per sample.
/// `ref_labels` and `ref_embeddings` are the pairs' other side (default: the batch itself); the
/// result is masked where the loss is 0, as in Keras.
Tensor circle(const Tensor& y_true, const Tensor& y_pred, const Tensor& ref_labels = Tensor(),
              const Tensor& ref_embeddings = Tensor(), bool remove_diagonal = true,
              double gamma = 80.0, double margin = 0.4);
/// keras.losses.categorical_generalized_cross_entropy: (1 - p_true^q) / q per sample; ValueError
/// for a `q` outside (0, 1).
Tensor categorical_generalized_cross_entropy(const Tensor& y_true, const Tensor& y_pred,
                                             double q = 0.5);

/// Short aliases Keras exports: mse, mae, mape, msle, kld, logcosh (same as the functions above).
Tensor mse(const Tensor& y_true, const Tensor& y_pred);
/// Keras's alias of mean_absolute_error.
Tensor mae(const Tensor& y_true, const Tensor& y_pred);
/// Keras's alias of mean_absolute_percentage_error.
Tensor mape(const Tensor& y_true, const Tensor& y_pred);
/// Keras's alias of mean_squared_logarithmic_error.
Tensor msle(const Tensor& y_true, const Tensor& y_pred);

}  // namespace keras::losses

#pragma GCC visibility pop
