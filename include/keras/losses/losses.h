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
  std::string reduction = kSumOverBatchSize;
  std::string name = "mean_squared_error";
  std::optional<DType> dtype;
};
class MeanSquaredError final : public Loss {
 public:
  explicit MeanSquaredError(MeanSquaredErrorOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "MeanSquaredError"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const MeanSquaredErrorOptions& options() const { return options_; }

 private:
  MeanSquaredErrorOptions options_;
};

/// mean(|y_true - y_pred|) over the last axis.
struct MeanAbsoluteErrorOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "mean_absolute_error";
  std::optional<DType> dtype;
};
class MeanAbsoluteError final : public Loss {
 public:
  explicit MeanAbsoluteError(MeanAbsoluteErrorOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "MeanAbsoluteError"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const MeanAbsoluteErrorOptions& options() const { return options_; }

 private:
  MeanAbsoluteErrorOptions options_;
};

/// 100 * mean(|(y_true - y_pred) / max(|y_true|, epsilon)|).
struct MeanAbsolutePercentageErrorOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "mean_absolute_percentage_error";
  std::optional<DType> dtype;
};
class MeanAbsolutePercentageError final : public Loss {
 public:
  explicit MeanAbsolutePercentageError(MeanAbsolutePercentageErrorOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "MeanAbsolutePercentageError"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const MeanAbsolutePercentageErrorOptions& options() const { return options_; }

 private:
  MeanAbsolutePercentageErrorOptions options_;
};

/// mean((log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1))^2).
struct MeanSquaredLogarithmicErrorOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "mean_squared_logarithmic_error";
  std::optional<DType> dtype;
};
class MeanSquaredLogarithmicError final : public Loss {
 public:
  explicit MeanSquaredLogarithmicError(MeanSquaredLogarithmicErrorOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "MeanSquaredLogarithmicError"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const MeanSquaredLogarithmicErrorOptions& options() const { return options_; }

 private:
  MeanSquaredLogarithmicErrorOptions options_;
};

/// -sum(l2_normalize(y_true) * l2_normalize(y_pred)) along axis.
struct CosineSimilarityOptions {
  int axis = -1;
  std::string reduction = kSumOverBatchSize;
  std::string name = "cosine_similarity";
  std::optional<DType> dtype;
};
class CosineSimilarity final : public Loss {
 public:
  explicit CosineSimilarity(CosineSimilarityOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CosineSimilarity"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const CosineSimilarityOptions& options() const { return options_; }

 private:
  CosineSimilarityOptions options_;
};

/// 0.5 x^2 for |x| <= delta, else delta |x| - 0.5 delta^2, averaged over the last axis.
struct HuberOptions {
  double delta = 1.0;
  std::string reduction = kSumOverBatchSize;
  std::string name = "huber_loss";
  std::optional<DType> dtype;
};
class Huber final : public Loss {
 public:
  explicit Huber(HuberOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Huber"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const HuberOptions& options() const { return options_; }

 private:
  HuberOptions options_;
};

/// mean(log(cosh(y_pred - y_true))) over the last axis.
struct LogCoshOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "log_cosh";
  std::optional<DType> dtype;
};
class LogCosh final : public Loss {
 public:
  explicit LogCosh(LogCoshOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "LogCosh"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const LogCoshOptions& options() const { return options_; }

 private:
  LogCoshOptions options_;
};

/// mean(max(1 - y_true * y_pred, 0)); 0/1 labels become -1/1.
struct HingeOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "hinge";
  std::optional<DType> dtype;
};
class Hinge final : public Loss {
 public:
  explicit Hinge(HingeOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Hinge"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const HingeOptions& options() const { return options_; }

 private:
  HingeOptions options_;
};

/// mean(max(1 - y_true * y_pred, 0)^2); 0/1 labels become -1/1.
struct SquaredHingeOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "squared_hinge";
  std::optional<DType> dtype;
};
class SquaredHinge final : public Loss {
 public:
  explicit SquaredHinge(SquaredHingeOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "SquaredHinge"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const SquaredHingeOptions& options() const { return options_; }

 private:
  SquaredHingeOptions options_;
};

/// max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0).
struct CategoricalHingeOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "categorical_hinge";
  std::optional<DType> dtype;
};
class CategoricalHinge final : public Loss {
 public:
  explicit CategoricalHinge(CategoricalHingeOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalHinge"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const CategoricalHingeOptions& options() const { return options_; }

 private:
  CategoricalHingeOptions options_;
};

/// sum(y_true * log(y_true / y_pred)) with both clipped to [epsilon, 1].
struct KLDivergenceOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "kl_divergence";
  std::optional<DType> dtype;
};
class KLDivergence final : public Loss {
 public:
  explicit KLDivergence(KLDivergenceOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "KLDivergence"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const KLDivergenceOptions& options() const { return options_; }

 private:
  KLDivergenceOptions options_;
};

/// mean(y_pred - y_true * log(y_pred + epsilon)).
struct PoissonOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "poisson";
  std::optional<DType> dtype;
};
class Poisson final : public Loss {
 public:
  explicit Poisson(PoissonOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Poisson"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const PoissonOptions& options() const { return options_; }

 private:
  PoissonOptions options_;
};

/// Connectionist Temporal Classification: y_true (batch, max_label_length) integer labels (0 is
/// the blank and is not a class), y_pred (batch, max_length, num_classes) logits; every label
/// position and every step counts (ops::ctc_loss with full lengths and mask_index 0).
struct CTCOptions {
  std::string reduction = kSumOverBatchSize;
  std::string name = "ctc";
  std::optional<DType> dtype;
};
class CTC final : public Loss {
 public:
  explicit CTC(CTCOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CTC"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const CTCOptions& options() const { return options_; }

 private:
  CTCOptions options_;
};

/// Binary cross-entropy averaged over `axis`; label_smoothing pulls labels towards 0.5.
struct BinaryCrossentropyOptions {
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
  std::string reduction = kSumOverBatchSize;
  std::string name = "binary_crossentropy";
  std::optional<DType> dtype;
};
class BinaryCrossentropy final : public Loss {
 public:
  explicit BinaryCrossentropy(BinaryCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "BinaryCrossentropy"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const BinaryCrossentropyOptions& options() const { return options_; }

 private:
  BinaryCrossentropyOptions options_;
};

/// Focal binary cross-entropy: (1 - p_t)^gamma * bce, optionally alpha-balanced.
struct BinaryFocalCrossentropyOptions {
  bool apply_class_balancing = false;
  double alpha = 0.25;
  double gamma = 2.0;
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
  std::string reduction = kSumOverBatchSize;
  std::string name = "binary_focal_crossentropy";
  std::optional<DType> dtype;
};
class BinaryFocalCrossentropy final : public Loss {
 public:
  explicit BinaryFocalCrossentropy(BinaryFocalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "BinaryFocalCrossentropy"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const BinaryFocalCrossentropyOptions& options() const { return options_; }

 private:
  BinaryFocalCrossentropyOptions options_;
};

/// Cross-entropy with one-hot labels; label_smoothing mixes in the uniform distribution.
struct CategoricalCrossentropyOptions {
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
  std::string reduction = kSumOverBatchSize;
  std::string name = "categorical_crossentropy";
  std::optional<DType> dtype;
};
class CategoricalCrossentropy final : public Loss {
 public:
  explicit CategoricalCrossentropy(CategoricalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalCrossentropy"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const CategoricalCrossentropyOptions& options() const { return options_; }

 private:
  CategoricalCrossentropyOptions options_;
};

/// Focal categorical cross-entropy: alpha (1 - p)^gamma (-y log p), summed over classes.
struct CategoricalFocalCrossentropyOptions {
  double alpha = 0.25;
  double gamma = 2.0;
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
  std::string reduction = kSumOverBatchSize;
  std::string name = "categorical_focal_crossentropy";
  std::optional<DType> dtype;
};
class CategoricalFocalCrossentropy final : public Loss {
 public:
  explicit CategoricalFocalCrossentropy(CategoricalFocalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalFocalCrossentropy"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const CategoricalFocalCrossentropyOptions& options() const { return options_; }

 private:
  CategoricalFocalCrossentropyOptions options_;
};

/// Cross-entropy with integer labels; labels equal to ignore_class are masked out.
struct SparseCategoricalCrossentropyOptions {
  bool from_logits = false;
  std::optional<int64_t> ignore_class = std::nullopt;
  int axis = -1;
  std::string reduction = kSumOverBatchSize;
  std::string name = "sparse_categorical_crossentropy";
  std::optional<DType> dtype;
};
class SparseCategoricalCrossentropy final : public Loss {
 public:
  explicit SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "SparseCategoricalCrossentropy"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const SparseCategoricalCrossentropyOptions& options() const { return options_; }

 private:
  SparseCategoricalCrossentropyOptions options_;
};

/// 1 - 2 sum(y_true y_pred) / (sum(y_true) + sum(y_pred) + epsilon), over `axis` (all axes when
/// unset).
struct DiceOptions {
  std::optional<std::vector<int>> axis = std::nullopt;
  /// Write a one-axis `axis` as a list ([1]) rather than an int, as Keras writes a tuple.
  bool axis_as_list = false;
  std::string reduction = kSumOverBatchSize;
  std::string name = "dice";
  std::optional<DType> dtype;
};
class Dice final : public Loss {
 public:
  explicit Dice(DiceOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Dice"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const DiceOptions& options() const { return options_; }

 private:
  DiceOptions options_;
};

/// 1 - TP / (TP + alpha FP + beta FN + epsilon), over `axis` (all axes when unset).
struct TverskyOptions {
  double alpha = 0.5;
  double beta = 0.5;
  std::optional<std::vector<int>> axis = std::nullopt;
  /// Write a one-axis `axis` as a list ([1]) rather than an int, as Keras writes a tuple.
  bool axis_as_list = false;
  std::string reduction = kSumOverBatchSize;
  std::string name = "tversky";
  std::optional<DType> dtype;
};
class Tversky final : public Loss {
 public:
  explicit Tversky(TverskyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Tversky"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const TverskyOptions& options() const { return options_; }

 private:
  TverskyOptions options_;
};

/// Circle loss (Sun et al. 2020) over the batch's pairwise cosine similarities; y_pred are
/// L2-normalized embeddings, y_true integer labels.
struct CircleOptions {
  double gamma = 80.0;
  double margin = 0.4;
  bool remove_diagonal = true;
  std::string reduction = kSumOverBatchSize;
  std::string name = "circle";
  std::optional<DType> dtype;
};
class Circle final : public Loss {
 public:
  explicit Circle(CircleOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "Circle"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const CircleOptions& options() const { return options_; }

 private:
  CircleOptions options_;
};

/// (1 - p_true^q) / q with integer labels (Zhang & Sabuncu 2018); q in (0, 1).
struct CategoricalGeneralizedCrossEntropyOptions {
  double q = 0.5;
  std::string reduction = kSumOverBatchSize;
  std::string name = "categorical_generalized_cross_entropy";
  std::optional<DType> dtype;
};
class CategoricalGeneralizedCrossEntropy final : public Loss {
 public:
  explicit CategoricalGeneralizedCrossEntropy(
      CategoricalGeneralizedCrossEntropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalGeneralizedCrossEntropy"; }
  Config get_config() const override;
  static LossPtr from_config(const Config& config);
  const CategoricalGeneralizedCrossEntropyOptions& options() const { return options_; }

 private:
  CategoricalGeneralizedCrossEntropyOptions options_;
};

// ---- the functions (per-sample values) ----------------------------------------------------
Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred);
Tensor mean_absolute_error(const Tensor& y_true, const Tensor& y_pred);
Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred);
Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred);
Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int axis = -1);
Tensor huber(const Tensor& y_true, const Tensor& y_pred, double delta = 1.0);
Tensor log_cosh(const Tensor& y_true, const Tensor& y_pred);
Tensor hinge(const Tensor& y_true, const Tensor& y_pred);
Tensor squared_hinge(const Tensor& y_true, const Tensor& y_pred);
Tensor categorical_hinge(const Tensor& y_true, const Tensor& y_pred);
Tensor kl_divergence(const Tensor& y_true, const Tensor& y_pred);
Tensor poisson(const Tensor& y_true, const Tensor& y_pred);
/// Per-sample CTC loss (batch,): see CTC.
Tensor ctc(const Tensor& y_true, const Tensor& y_pred);
Tensor binary_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits = false,
                           double label_smoothing = 0.0, int axis = -1);
Tensor binary_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                 bool apply_class_balancing = false, double alpha = 0.25,
                                 double gamma = 2.0, bool from_logits = false,
                                 double label_smoothing = 0.0, int axis = -1);
Tensor categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                bool from_logits = false, double label_smoothing = 0.0,
                                int axis = -1);
Tensor categorical_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                      double alpha = 0.25, double gamma = 2.0,
                                      bool from_logits = false, double label_smoothing = 0.0,
                                      int axis = -1);
Tensor sparse_categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                       bool from_logits = false,
                                       std::optional<int64_t> ignore_class = std::nullopt,
                                       int axis = -1);
Tensor dice(const Tensor& y_true, const Tensor& y_pred,
            const std::optional<std::vector<int>>& axis = std::nullopt);
Tensor tversky(const Tensor& y_true, const Tensor& y_pred, double alpha = 0.5, double beta = 0.5,
               const std::optional<std::vector<int>>& axis = std::nullopt);
Tensor circle(const Tensor& y_true, const Tensor& y_pred, const Tensor& ref_labels = Tensor(),
              const Tensor& ref_embeddings = Tensor(), bool remove_diagonal = true,
              double gamma = 80.0, double margin = 0.4);
Tensor categorical_generalized_cross_entropy(const Tensor& y_true, const Tensor& y_pred,
                                             double q = 0.5);

/// Short aliases Keras exports: mse, mae, mape, msle, kld, logcosh (same as the functions above).
Tensor mse(const Tensor& y_true, const Tensor& y_pred);
Tensor mae(const Tensor& y_true, const Tensor& y_pred);
Tensor mape(const Tensor& y_true, const Tensor& y_pred);
Tensor msle(const Tensor& y_true, const Tensor& y_pred);

}  // namespace keras::losses

#pragma GCC visibility pop
