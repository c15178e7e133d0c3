#pragma once
// keras.losses.Loss: the base of every loss. A loss computes per-sample values in call(), then
// operator() applies the prediction's mask, the sample weights and the reduction, as Keras 3's
// Loss.__call__ does.
//
//   class MyLoss : public keras::losses::Loss {
//    public:
//     MyLoss() : Loss("my_loss") {}
//     keras::Tensor call(const keras::Tensor& y_true, const keras::Tensor& y_pred) const override {
//       return keras::ops::mean(keras::ops::abs(y_true - y_pred), -1);
//     }
//     std::string class_name() const override { return "MyLoss"; }
//   };

#include <concepts>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "keras/core/dtype.h"
#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::losses {

/// Keras's reductions: "sum_over_batch_size" (the default; also "mean"), "sum",
/// "mean_with_sample_weight", and "none" (per-sample values); "None" is Python's None, which
/// Keras treats as "none" and writes as null in configs.
inline constexpr const char* kSumOverBatchSize = "sum_over_batch_size";

/// Base of all losses. Losses are immutable values: copy them freely.
class Loss {
 public:
  /// `name` is kept as given (the loss classes' options default it to Keras's name, such as
  /// "mean_squared_error"; LossFunctionWrapper makes an empty one unique).
  explicit Loss(std::string name, std::string reduction = kSumOverBatchSize,
                std::optional<DType> dtype = std::nullopt);
  virtual ~Loss() = default;

  /// The reduced loss of a batch. `sample_weight` (optional) broadcasts against the
  /// per-sample losses after Keras's squeeze-or-expand of a trailing axis of size 1.
  Tensor operator()(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = Tensor()) const;

  /// The per-sample losses (no mask, weights or reduction).
  virtual Tensor call(const Tensor& y_true, const Tensor& y_pred) const = 0;
  /// The Keras class name ("MeanSquaredError"); what serialize() records.
  virtual std::string class_name() const = 0;
  /// name and reduction, plus the subclass's arguments.
  virtual Config get_config() const;

  /// The loss's name (Keras's `name`), used in logs and configs.
  const std::string& name() const { return name_; }
  /// The reduction in effect ("none" for Python's None).
  const std::string& reduction() const { return reduction_; }
  /// The dtype the loss computes in (floatx unless given).
  DType dtype() const { return dtype_; }

 private:
  std::string name_;
  std::string reduction_;
  bool reduction_is_null_ = false;  // given as None: written back as null, as Keras does
  DType dtype_;
};

/// Shared, immutable handle to a loss.
using LossPtr = std::shared_ptr<const Loss>;

/// A loss given by a plain function of (y_true, y_pred) returning per-sample values (Keras's
/// LossFunctionWrapper). It is not serializable unless registered with register_loss.
class LossFunctionWrapper : public Loss {
 public:
  /// The per-sample loss function: (y_true, y_pred) to per-sample losses.
  using Fn = std::function<Tensor(const Tensor&, const Tensor&)>;
  /// Wraps `fn`, which gets y_true and y_pred brought to the same rank first; an empty `name`
  /// becomes a unique "loss_function_wrapper" name, and an empty `fn` throws ValueError.
  LossFunctionWrapper(Fn fn, std::string name, std::string reduction = kSumOverBatchSize);
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "LossFunctionWrapper"; }
  Config get_config() const override;

 private:
  Fn fn_;
};

/// The loss a Keras identifier names: a function name ("mse", "mean_squared_error",
/// "sparse_categorical_crossentropy", ...) or a class name ("MeanSquaredError"); ValueError
/// listing the known names otherwise.
LossPtr get(const std::string& identifier);
/// Makes `name` (a function name such as "my_loss") resolve to `fn` in get() and
/// deserialize(), as keras.saving.register_keras_serializable does for a Python function.
void register_loss(const std::string& name, LossFunctionWrapper::Fn fn);
/// Keras's serialize_keras_object record: {"module", "class_name", "config",
/// "registered_name"}.
Config serialize(const LossPtr& loss);
/// A loss from a serialize() record, a bare class/function name string, or a config.
LossPtr deserialize(const Config& config);

/// A loss argument (compile's `loss`): a name, a loss object, a shared loss, or a callable.
class LossArg {
 public:
  LossArg() = default;
  /// The loss a Keras identifier names (see the std::string overload).
  LossArg(const char* name) : LossArg(std::string(name)) {}  // NOLINT
  /// A name; "crossentropy" and "ce" are resolved by compile from the label and prediction
  /// shapes (binary, sparse or categorical), as Keras does.
  LossArg(const std::string& name);  // NOLINT
  /// A loss object.
  LossArg(LossPtr ptr) : ptr_(std::move(ptr)) {}                 // NOLINT
  /// A shared loss object of any Loss subclass.
  template <std::derived_from<Loss> T>
  LossArg(std::shared_ptr<T> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  /// A copy of a loss value of any Loss subclass.
  template <std::derived_from<Loss> T>
  LossArg(T loss) : ptr_(std::make_shared<T>(std::move(loss))) {}  // NOLINT
  /// A callable (y_true, y_pred) -> per-sample losses.
  template <typename F>
  requires(!std::derived_from<F, Loss> &&
           std::is_invocable_r_v<Tensor, F, const Tensor&, const Tensor&>) LossArg(F fn)  // NOLINT
      : ptr_(std::make_shared<LossFunctionWrapper>(LossFunctionWrapper::Fn(std::move(fn)),
                                                   "loss_function")) {}
  /// The loss (null for "crossentropy"/"ce" until compile resolves it).
  const LossPtr& get() const { return ptr_; }
  /// The name it was given by, if any.
  const std::string& name() const { return name_; }
  /// Whether a loss (or a name for compile to resolve) is set.
  explicit operator bool() const { return ptr_ || !name_.empty(); }

 private:
  LossPtr ptr_;
  std::string name_;
};

// ---- the reduction machinery, public because custom losses and metrics use it ----------------

/// Keras's squeeze_or_expand_to_same_rank: when the ranks differ by one and the longer has a
/// trailing axis of size 1, squeezes it (or expands a rank-1 partner when `expand_rank_1`).
std::pair<Tensor, Tensor> squeeze_or_expand_to_same_rank(Tensor x1, Tensor x2,
                                                         bool expand_rank_1 = true);
/// Keras's reduce_weighted_values: applies `mask` and `sample_weight` to per-sample `values`,
/// then reduces.
Tensor reduce_weighted_values(Tensor values, Tensor sample_weight, const Tensor& mask,
                              const std::string& reduction, DType dtype);
/// ValueError unless `reduction` is one of Keras's names.
void check_reduction(const std::string& reduction);

}  // namespace keras::losses

#pragma GCC visibility pop
