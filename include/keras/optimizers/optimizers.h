#pragma once
// The built-in optimizers of keras.optimizers, each with an options struct in Keras's argument
// order and with Keras's defaults:
//
//   auto opt = std::make_shared<optimizers::Adam>(optimizers::AdamOptions{.learning_rate = 1e-3,
//                                                                        .amsgrad = true});
//   optimizers::OptimizerPtr sgd = optimizers::SGD({.learning_rate = 0.1, .momentum = 0.9});
//   optimizers::Adam adam(1e-3);   // a learning rate (or a schedule) alone
//
// Every update rule is Keras 3's (epsilon placement, bias correction, slot names and order).

#include <optional>
#include <string>
#include <vector>

#include "keras/optimizers/loss_scale_optimizer.h"
#include "keras/optimizers/optimizer.h"
#include "keras/optimizers/schedules.h"

// The keyword arguments shared by all optimizers, after the optimizer's own, in Keras's order.
#define KERAS_OPTIMIZER_COMMON_OPTIONS_AFTER_WEIGHT_DECAY \
  std::optional<double> clipnorm;                         \
  std::optional<double> clipvalue;                        \
  std::optional<double> global_clipnorm;                  \
  bool use_ema = false;                                   \
  double ema_momentum = 0.99;                             \
  std::optional<int> ema_overwrite_frequency;             \
  std::optional<double> loss_scale_factor;                \
  std::optional<int> gradient_accumulation_steps;         \
  std::string name;
#define KERAS_OPTIMIZER_COMMON_OPTIONS \
  std::optional<double> weight_decay;  \
  KERAS_OPTIMIZER_COMMON_OPTIONS_AFTER_WEIGHT_DECAY

#pragma GCC visibility push(default)
namespace keras::optimizers {

/// keras.optimizers.SGD: plain, momentum or Nesterov gradient descent.
struct SGDOptions {
  LearningRate learning_rate = 0.01;
  double momentum = 0.0;
  bool nesterov = false;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class SGD : public Optimizer {
 public:
  SGD(SGDOptions options = {});     // NOLINT
  SGD(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "SGD"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<SGD>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  SGDOptions o_;
  std::vector<Variable> momentums_;
};

/// keras.optimizers.Adam (with amsgrad).
struct AdamOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  bool amsgrad = false;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Adam : public Optimizer {
 public:
  Adam(AdamOptions options = {});    // NOLINT
  Adam(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "Adam"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Adam>(*this); }

 protected:
  Adam(const std::string& class_name, const AdamOptions& options);
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  AdamOptions o_;
  std::vector<Variable> momentums_, velocities_, velocity_hats_;
};

/// keras.optimizers.AdamW: Adam with decoupled weight decay (weight_decay required).
struct AdamWOptions {
  LearningRate learning_rate = 0.001;
  double weight_decay = 0.004;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  bool amsgrad = false;
  KERAS_OPTIMIZER_COMMON_OPTIONS_AFTER_WEIGHT_DECAY
};
class AdamW : public Adam {
 public:
  AdamW(AdamWOptions options = {});   // NOLINT
  AdamW(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "AdamW"; }
  OptimizerPtr clone() const override { return std::make_shared<AdamW>(*this); }
};

/// keras.optimizers.Adamax: Adam with the infinity norm.
struct AdamaxOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Adamax : public Optimizer {
 public:
  Adamax(AdamaxOptions options = {});  // NOLINT
  Adamax(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "Adamax"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Adamax>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  AdamaxOptions o_;
  std::vector<Variable> m_, u_;
};

/// keras.optimizers.Nadam: Adam with Nesterov momentum (Keras's 0.96 momentum schedule).
struct NadamOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Nadam : public Optimizer {
 public:
  Nadam(NadamOptions options = {});   // NOLINT
  Nadam(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "Nadam"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Nadam>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_all(const std::vector<Tensor>& grads, const std::vector<size_t>& indices,
                  const Tensor& lr) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  NadamOptions o_;
  std::vector<Variable> momentums_, velocities_;
  Variable u_product_;
};

/// keras.optimizers.RMSprop (with momentum and centered).
struct RMSpropOptions {
  LearningRate learning_rate = 0.001;
  double rho = 0.9;
  double momentum = 0.0;
  double epsilon = 1e-7;
  bool centered = false;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class RMSprop : public Optimizer {
 public:
  RMSprop(RMSpropOptions options = {});  // NOLINT
  RMSprop(LearningRate learning_rate);   // NOLINT
  std::string class_name() const override { return "RMSprop"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<RMSprop>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  RMSpropOptions o_;
  std::vector<Variable> velocities_, momentums_, average_gradients_;
};

/// keras.optimizers.Adagrad.
struct AdagradOptions {
  LearningRate learning_rate = 0.001;
  double initial_accumulator_value = 0.1;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Adagrad : public Optimizer {
 public:
  Adagrad(AdagradOptions options = {});  // NOLINT
  Adagrad(LearningRate learning_rate);   // NOLINT
  std::string class_name() const override { return "Adagrad"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Adagrad>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  AdagradOptions o_;
  std::vector<Variable> accumulators_;
};

/// keras.optimizers.Adadelta.
struct AdadeltaOptions {
  LearningRate learning_rate = 0.001;
  double rho = 0.95;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Adadelta : public Optimizer {
 public:
  Adadelta(AdadeltaOptions options = {});  // NOLINT
  Adadelta(LearningRate learning_rate);    // NOLINT
  std::string class_name() const override { return "Adadelta"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Adadelta>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  AdadeltaOptions o_;
  std::vector<Variable> accumulated_grads_, accumulated_delta_vars_;
};

/// keras.optimizers.Adafactor: factored second moments for variables of rank >= 2.
struct AdafactorOptions {
  LearningRate learning_rate = 0.001;
  double beta_2_decay = -0.8;
  double epsilon_1 = 1e-30;
  double epsilon_2 = 1e-3;
  double clip_threshold = 1.0;
  bool relative_step = true;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Adafactor : public Optimizer {
 public:
  Adafactor(AdafactorOptions options = {});  // NOLINT
  Adafactor(LearningRate learning_rate);     // NOLINT
  std::string class_name() const override { return "Adafactor"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Adafactor>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  AdafactorOptions o_;
  std::vector<Variable> r_, c_, v_;
};

/// keras.optimizers.Ftrl (follow the regularized leader).
struct FtrlOptions {
  LearningRate learning_rate = 0.001;
  double learning_rate_power = -0.5;
  double initial_accumulator_value = 0.1;
  double l1_regularization_strength = 0.0;
  double l2_regularization_strength = 0.0;
  double l2_shrinkage_regularization_strength = 0.0;
  double beta = 0.0;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Ftrl : public Optimizer {
 public:
  Ftrl(FtrlOptions options = {});    // NOLINT
  Ftrl(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "Ftrl"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Ftrl>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  FtrlOptions o_;
  std::vector<Variable> accumulators_, linears_;
};

/// keras.optimizers.Lamb: Adam scaled per variable by the trust ratio ||w|| / ||update||.
struct LambOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Lamb : public Optimizer {
 public:
  Lamb(LambOptions options = {});    // NOLINT
  Lamb(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "Lamb"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Lamb>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  LambOptions o_;
  std::vector<Variable> momentums_, velocities_;
};

/// keras.optimizers.Lion: the sign of an interpolated momentum.
struct LionOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.99;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class Lion : public Optimizer {
 public:
  Lion(LionOptions options = {});    // NOLINT
  Lion(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "Lion"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Lion>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;

 private:
  LionOptions o_;
  std::vector<Variable> momentums_;
};

/// keras.optimizers.Muon: momentum orthogonalized by Newton-Schulz iterations for 2-D
/// variables; AdamW (inside Muon, with the adam_* options) for every other variable, for
/// variables whose path contains "embedding" (exclude_embeddings) and for those whose path
/// matches a regex of exclude_layers (searched as Python's re.search; ECMAScript syntax here).
struct MuonOptions {
  LearningRate learning_rate = 0.001;
  double adam_beta_1 = 0.9;
  double adam_beta_2 = 0.999;
  /// The decay of the AdamW-updated variables (unset: none).
  std::optional<double> adam_weight_decay = 0.004;
  double epsilon = 1e-7;
  /// The decay of the Muon-updated variables (unset: none).
  std::optional<double> weight_decay = 0.004;
  KERAS_OPTIMIZER_COMMON_OPTIONS_AFTER_WEIGHT_DECAY
  std::vector<std::string> exclude_layers;
  bool exclude_embeddings = true;
  /// The quintic Newton-Schulz coefficients.
  double muon_a = 3.4445;
  double muon_b = -4.7750;
  double muon_c = 2.0315;
  /// The AdamW learning rate is learning_rate * adam_lr_ratio.
  double adam_lr_ratio = 1.0;
  double momentum = 0.95;
  int ns_steps = 5;
  bool nesterov = true;
  /// Moonlight's update scale: update * sqrt(max(rows, cols)) * rms_rate (unset: none).
  std::optional<double> rms_rate = 0.2;
};
class Muon : public Optimizer {
 public:
  Muon(MuonOptions options = {});    // NOLINT
  Muon(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "Muon"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Muon>(*this); }
  /// Keras's _should_use_adamw: not 2-D, an embedding (with exclude_embeddings), or a path
  /// an exclude_layers regex matches.
  bool uses_adamw(const Variable& var) const;

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;
  void apply_weight_decay(const std::vector<size_t>& indices, const Tensor& lr) override;

 private:
  void muon_step(const Tensor& grad, const Variable& var, Variable& m, const Tensor& lr);
  Tensor newton_schulz(Tensor x) const;

  MuonOptions o_;
  std::vector<Variable> momentums_, velocities_;  // a velocity only for an AdamW variable
};

/// keras.optimizers.ScheduleFreeAdamW (Defazio et al., 2024). The model's variables hold the
/// interpolation y; the slot "momentum" holds z (the gradient-step sequence, starting at the
/// variable's value) and the average x is recovered from y and z at each step. As in Keras
/// 3.15, evaluation uses y: nothing swaps x in. Beyond Keras, the first step re-anchors z at y
/// (the same as Keras while z still equals y; see docs/training.md for the loading case).
struct ScheduleFreeAdamWOptions {
  LearningRate learning_rate = 0.0025;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-8;
  /// The learning rate grows linearly from lr / warmup_steps to lr over the first steps.
  int warmup_steps = 0;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
class ScheduleFreeAdamW : public Optimizer {
 public:
  ScheduleFreeAdamW(ScheduleFreeAdamWOptions options = {});  // NOLINT
  ScheduleFreeAdamW(LearningRate learning_rate);             // NOLINT
  std::string class_name() const override { return "ScheduleFreeAdamW"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<ScheduleFreeAdamW>(*this); }

 protected:
  void build_slots(const std::vector<Variable>& vars) override;
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override;
  /// The first thing a step does to the variables: on the first step, z = y; then the decay.
  void apply_weight_decay(const std::vector<size_t>& indices, const Tensor& lr) override;

 private:
  ScheduleFreeAdamWOptions o_;
  std::vector<Variable> momentums_, velocities_;
};

}  // namespace keras::optimizers

#undef KERAS_OPTIMIZER_COMMON_OPTIONS
#undef KERAS_OPTIMIZER_COMMON_OPTIONS_AFTER_WEIGHT_DECAY

#pragma GCC visibility pop
