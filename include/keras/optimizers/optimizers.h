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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.01).
  LearningRate learning_rate = 0.01;
  /// Keras's `momentum`, in [0, 1]: accelerates descent along consistent directions and damps
  /// oscillations (0: plain gradient descent).
  double momentum = 0.0;
  /// Keras's `nesterov`: use Nesterov momentum.
  bool nesterov = false;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Gradient descent with optional momentum (keras.optimizers.SGD); arguments in SGDOptions.
class SGD : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a `momentum` outside [0, 1] or invalid common options.
  SGD(SGDOptions options = {});     // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `beta_1`: the exponential decay rate of the first-moment (mean) estimates.
  double beta_1 = 0.9;
  /// Keras's `beta_2`: the exponential decay rate of the second-moment (variance) estimates.
  double beta_2 = 0.999;
  /// Keras's `epsilon`: a small constant for numerical stability (Kingma and Ba's "epsilon hat").
  double epsilon = 1e-7;
  /// Keras's `amsgrad`: use the AMSGrad variant (the maximum of past second moments).
  bool amsgrad = false;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Adam (keras.optimizers.Adam): steps from bias-corrected estimates of the gradients' first and
/// second moments; arguments in AdamOptions.
class Adam : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a non-finite `epsilon` or invalid common options.
  Adam(AdamOptions options = {});    // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
  Adam(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "Adam"; }
  Config get_config() const override;
  OptimizerPtr clone() const override { return std::make_shared<Adam>(*this); }

 protected:
  /// For AdamW: an Adam that reports `class_name`.
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `weight_decay`: the decoupled decay, `var -= var * weight_decay * learning_rate` each
  /// step.
  double weight_decay = 0.004;
  /// Keras's `beta_1`: the exponential decay rate of the first-moment (mean) estimates.
  double beta_1 = 0.9;
  /// Keras's `beta_2`: the exponential decay rate of the second-moment (variance) estimates.
  double beta_2 = 0.999;
  /// Keras's `epsilon`: a small constant for numerical stability (Kingma and Ba's "epsilon hat").
  double epsilon = 1e-7;
  /// Keras's `amsgrad`: use the AMSGrad variant (the maximum of past second moments).
  bool amsgrad = false;
  KERAS_OPTIMIZER_COMMON_OPTIONS_AFTER_WEIGHT_DECAY
};
/// AdamW (keras.optimizers.AdamW): Adam with decoupled weight decay; arguments in AdamWOptions.
class AdamW : public Adam {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a non-finite `epsilon` or invalid common options.
  AdamW(AdamWOptions options = {});   // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
  AdamW(LearningRate learning_rate);  // NOLINT
  std::string class_name() const override { return "AdamW"; }
  OptimizerPtr clone() const override { return std::make_shared<AdamW>(*this); }
};

/// keras.optimizers.Adamax: Adam with the infinity norm.
struct AdamaxOptions {
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `beta_1`: the exponential decay rate of the first-moment (mean) estimates.
  double beta_1 = 0.9;
  /// Keras's `beta_2`: the exponential decay rate of the weighted infinity norm.
  double beta_2 = 0.999;
  /// Keras's `epsilon`: a small constant for numerical stability.
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Adamax (keras.optimizers.Adamax): Adam with an infinity norm in place of the second moment;
/// arguments in AdamaxOptions.
class Adamax : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for invalid common options.
  Adamax(AdamaxOptions options = {});  // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `beta_1`: the exponential decay rate of the first-moment (mean) estimates.
  double beta_1 = 0.9;
  /// Keras's `beta_2`: the exponential decay rate of the second-moment (variance) estimates.
  double beta_2 = 0.999;
  /// Keras's `epsilon`: a small constant for numerical stability (Kingma and Ba's "epsilon hat").
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Nadam (keras.optimizers.Nadam): Adam with Nesterov momentum; arguments in NadamOptions.
class Nadam : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for invalid common options.
  Nadam(NadamOptions options = {});   // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `rho`: the discounting factor of the moving average of squared gradients.
  double rho = 0.9;
  /// Keras's `momentum`, at least 0: when not 0, a momentum slot accumulates the updates.
  double momentum = 0.0;
  /// Keras's `epsilon`: a small constant for numerical stability (Kingma and Ba's "epsilon hat").
  double epsilon = 1e-7;
  /// Keras's `centered`: normalize by the estimated variance of the gradient rather than its
  /// uncentered second moment.
  bool centered = false;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// RMSprop (keras.optimizers.RMSprop): steps divided by a moving root mean square of the gradients;
/// arguments in RMSpropOptions.
class RMSprop : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a negative `momentum` or invalid common options.
  RMSprop(RMSpropOptions options = {});  // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `initial_accumulator_value`, at least 0: the starting value of the per-weight sums of
  /// squared gradients.
  double initial_accumulator_value = 0.1;
  /// Keras's `epsilon`: a small constant for numerical stability.
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Adagrad (keras.optimizers.Adagrad): per-weight rates from accumulated squared gradients;
/// arguments in AdagradOptions.
class Adagrad : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a negative `initial_accumulator_value` or invalid common options.
  Adagrad(AdagradOptions options = {});  // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `rho`: the decay rate of the moving averages of squared gradients and updates.
  double rho = 0.95;
  /// Keras's `epsilon`: a small constant for numerical stability.
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Adadelta (keras.optimizers.Adadelta): steps scaled by moving averages of squared gradients and
/// squared updates; arguments in AdadeltaOptions.
class Adadelta : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for invalid common options.
  Adadelta(AdadeltaOptions options = {});  // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `beta_2_decay`: the exponent in the second-moment decay rate `1 - step^beta_2_decay`.
  double beta_2_decay = -0.8;
  /// Keras's `epsilon_1`: a small offset that keeps denominators away from 0.
  double epsilon_1 = 1e-30;
  /// Keras's `epsilon_2`: a small offset that keeps the learning rate from becoming too small over
  /// time.
  double epsilon_2 = 1e-3;
  /// Keras's `clip_threshold`: the largest root-mean-square of an update (independent of clipnorm,
  /// clipvalue and global_clipnorm).
  double clip_threshold = 1.0;
  /// Keras's `relative_step`: cap a constant learning rate at 1 / sqrt(step) (Adafactor's
  /// default decay).
  bool relative_step = true;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Adafactor (keras.optimizers.Adafactor): Adam-like steps with factored (memory-saving) second
/// moments; arguments in AdafactorOptions.
class Adafactor : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for invalid common options.
  Adafactor(AdafactorOptions options = {});  // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `learning_rate_power`, at most 0: how the learning rate decreases during training (0:
  /// a fixed learning rate).
  double learning_rate_power = -0.5;
  /// Keras's `initial_accumulator_value`, at least 0: the starting value of the accumulators.
  double initial_accumulator_value = 0.1;
  /// Keras's `l1_regularization_strength`, at least 0: the L1 penalty.
  double l1_regularization_strength = 0.0;
  /// Keras's `l2_regularization_strength`, at least 0: the stabilization L2 penalty.
  double l2_regularization_strength = 0.0;
  /// Keras's `l2_shrinkage_regularization_strength`, at least 0: an L2 penalty on the weights'
  /// magnitude.
  double l2_shrinkage_regularization_strength = 0.0;
  /// Keras's `beta`: the beta of the FTRL-Proximal paper.
  double beta = 0.0;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// FTRL-Proximal (keras.optimizers.Ftrl): follow the regularized leader; arguments in FtrlOptions.
class Ftrl : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a positive `learning_rate_power`, a negative accumulator value or
  /// regularization strength, or invalid common options.
  Ftrl(FtrlOptions options = {});    // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `beta_1`: the exponential decay rate of the first-moment (mean) estimates.
  double beta_1 = 0.9;
  /// Keras's `beta_2`: the exponential decay rate of the second-moment (variance) estimates.
  double beta_2 = 0.999;
  /// Keras's `epsilon`: a small constant for numerical stability.
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// LAMB (keras.optimizers.Lamb): Adam with a per-variable trust ratio; arguments in LambOptions.
class Lamb : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for invalid common options.
  Lamb(LambOptions options = {});    // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `beta_1`, in (0, 1]: the rate that combines the current gradient and the first-moment
  /// estimate.
  double beta_1 = 0.9;
  /// Keras's `beta_2`: the exponential decay rate of the first-moment estimate.
  double beta_2 = 0.99;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Lion (keras.optimizers.Lion): steps by the sign of an interpolated momentum; arguments in
/// LionOptions.
class Lion : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a `beta_1` outside (0, 1] or invalid common options.
  Lion(LionOptions options = {});    // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.001).
  LearningRate learning_rate = 0.001;
  /// Keras's `adam_beta_1`: the first-moment decay rate of the AdamW-updated variables.
  double adam_beta_1 = 0.9;
  /// Keras's `adam_beta_2`: the second-moment decay rate of the AdamW-updated variables.
  double adam_beta_2 = 0.999;
  /// The decay of the AdamW-updated variables (unset: none).
  std::optional<double> adam_weight_decay = 0.004;
  /// Keras's `epsilon`: the AdamW part's numerical-stability constant.
  double epsilon = 1e-7;
  /// The decay of the Muon-updated variables (unset: none).
  std::optional<double> weight_decay = 0.004;
  KERAS_OPTIMIZER_COMMON_OPTIONS_AFTER_WEIGHT_DECAY
  /// Keras's `exclude_layers`: variables whose path one of these regexes matches use AdamW.
  std::vector<std::string> exclude_layers;
  /// Keras's `exclude_embeddings`: variables whose path contains "embedding" use AdamW.
  bool exclude_embeddings = true;
  /// The quintic Newton-Schulz coefficients.
  double muon_a = 3.4445;
  /// Keras's `muon_b`: the second quintic Newton-Schulz coefficient (keep the default).
  double muon_b = -4.7750;
  /// Keras's `muon_c`: the third quintic Newton-Schulz coefficient (keep the default).
  double muon_c = 2.0315;
  /// The AdamW learning rate is learning_rate * adam_lr_ratio.
  double adam_lr_ratio = 1.0;
  /// Keras's `momentum`: the momentum of the Muon-updated variables.
  double momentum = 0.95;
  /// Keras's `ns_steps`, at least 0: the number of Newton-Schulz iterations.
  int ns_steps = 5;
  /// Keras's `nesterov`: use Nesterov-style momentum for the Muon-updated variables.
  bool nesterov = true;
  /// Moonlight's update scale: update * sqrt(max(rows, cols)) * rms_rate (unset: none).
  std::optional<double> rms_rate = 0.2;
};
/// Muon (keras.optimizers.Muon): orthogonalized momentum for 2-D variables, AdamW for the others;
/// arguments in MuonOptions.
class Muon : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a non-finite `epsilon`, a negative `ns_steps` or `adam_weight_decay`, an
  /// invalid `exclude_layers` regex, or invalid common options.
  Muon(MuonOptions options = {});    // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
  /// Keras's `learning_rate`: a constant or a LearningRateSchedule (default 0.0025).
  LearningRate learning_rate = 0.0025;
  /// Keras's `beta_1`, in (0, 1]: the first-moment decay rate, which also sets the interpolation
  /// between z and x.
  double beta_1 = 0.9;
  /// Keras's `beta_2`: the exponential decay rate of the second-moment (variance) estimates.
  double beta_2 = 0.999;
  /// Keras's `epsilon`: a small constant for numerical stability.
  double epsilon = 1e-8;
  /// The learning rate grows linearly from lr / warmup_steps to lr over the first steps.
  int warmup_steps = 0;
  KERAS_OPTIMIZER_COMMON_OPTIONS
};
/// Schedule-free AdamW (keras.optimizers.ScheduleFreeAdamW); arguments in ScheduleFreeAdamWOptions.
class ScheduleFreeAdamW : public Optimizer {
 public:
  /// Builds the optimizer from Keras's keyword arguments (see OptimizerOptions for the common
  /// ones).
  /// ValueError for a `beta_1` outside (0, 1], a non-finite `epsilon`, a negative `warmup_steps`,
  /// or invalid common options.
  ScheduleFreeAdamW(ScheduleFreeAdamWOptions options = {});  // NOLINT
  /// Keras's defaults with this learning rate (a constant or a schedule).
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
