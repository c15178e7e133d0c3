#pragma once
// keras.optimizers.Optimizer: the base every optimizer derives from. It owns what Keras's
// BaseOptimizer owns: the iteration counter, the learning rate (a variable or a schedule),
// gradient clipping, weight decay, loss-scale unscaling, gradient accumulation, the EMA of the
// model weights, variable constraints, and the stateless API. A subclass creates its slots in
// build_slots() and writes update_step() with keras::ops.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/autograd/variable.h"
#include "keras/core/json.h"
#include "keras/optimizers/schedules.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::optimizers {

using schedules::SchedulePtr;

/// The keyword arguments every Keras optimizer takes, with Keras's defaults.
struct OptimizerOptions {
  /// When set, each step first applies `var -= var * weight_decay * learning_rate`.
  std::optional<double> weight_decay;
  /// Clip each gradient to this L2 norm.
  std::optional<double> clipnorm;
  /// Clip each gradient elementwise to [-clipvalue, clipvalue].
  std::optional<double> clipvalue;
  /// Clip all gradients together to this global L2 norm.
  std::optional<double> global_clipnorm;
  /// Keep an exponential moving average of the trained variables.
  bool use_ema = false;
  /// Keras's `ema_momentum`, in [0, 1]: the EMA's decay.
  /// Each step, `average = ema_momentum * average + (1 - ema_momentum) * value`; the first step
  /// copies the value.
  double ema_momentum = 0.99;
  /// Overwrite the variables with their average every this many (accumulated) steps.
  std::optional<int> ema_overwrite_frequency;
  /// Gradients are divided by this before use (the loss was multiplied by it).
  std::optional<double> loss_scale_factor;
  /// Accumulate gradients and apply their mean every this many steps (>= 2).
  std::optional<int> gradient_accumulation_steps;
  /// Defaults to the snake-case class name made unique ("adam", "adam_1", ...).
  std::string name;
};

/// A learning rate: a constant (kept in the "learning_rate" variable) or a schedule.
class LearningRate {
 public:
  /// A constant learning rate.
  LearningRate(double value) : value_(value) {}  // NOLINT: implicit, as Keras's argument
  /// A schedule evaluated at each step's iteration.
  LearningRate(SchedulePtr schedule) : schedule_(std::move(schedule)) {}  // NOLINT
  /// A schedule of any LearningRateSchedule subclass.
  template <typename T,
            typename = std::enable_if_t<std::is_base_of_v<schedules::LearningRateSchedule, T>>>
  LearningRate(std::shared_ptr<T> schedule)  // NOLINT
      : schedule_(std::move(schedule)) {}
  /// Whether the learning rate is a schedule.
  bool is_schedule() const { return static_cast<bool>(schedule_); }
  /// The constant learning rate (0 when it is a schedule).
  double value() const { return value_; }
  /// The schedule, or null for a constant.
  const SchedulePtr& schedule() const { return schedule_; }

 private:
  double value_ = 0.0;
  SchedulePtr schedule_;
};

class Optimizer;
/// Shared handle to an optimizer (an optimizer holds mutable state: its variables).
using OptimizerPtr = std::shared_ptr<Optimizer>;

/// Base of the optimizers (keras.optimizers.Optimizer).
class Optimizer {
 public:
  virtual ~Optimizer();

  /// Creates the optimizer's variables for `trainable_variables` (does nothing once built).
  void build(const std::vector<Variable>& trainable_variables);
  /// Whether build() has created the optimizer's variables.
  bool built() const { return built_; }
  /// One step: grads[i] updates vars[i]; builds on first use. Undefined gradients are skipped.
  void apply(const std::vector<Tensor>& grads, const std::vector<Variable>& vars);
  /// One step on the variables the optimizer was built with, in that order.
  void apply(const std::vector<Tensor>& grads);
  /// Keras's apply_gradients: apply() on the gradients and variables of (gradient, variable) pairs.
  void apply_gradients(const std::vector<std::pair<Tensor, Variable>>& grads_and_vars);

  /// The int64 step counter ("iteration"), incremented by every apply.
  virtual const Variable& iterations() const { return iterations_; }
  /// The current learning rate (the schedule evaluated at the current iteration).
  double learning_rate() const;
  /// The current learning rate as a float32 scalar tensor.
  virtual Tensor learning_rate_tensor() const;
  /// Sets a constant learning rate; a ValueError when the optimizer uses a schedule.
  virtual void set_learning_rate(double lr);
  /// Whether the learning rate is a schedule.
  virtual bool has_schedule() const { return static_cast<bool>(schedule_); }
  /// The learning-rate schedule, or null for a constant rate.
  virtual const SchedulePtr& schedule() const { return schedule_; }

  /// All optimizer variables in Keras's order: iteration, learning_rate (when not a schedule),
  /// EMA averages, gradient accumulators, then the slots in the subclass's build order.
  std::vector<Variable> variables() const { return variables_; }
  /// The trainable variables the optimizer was built with.
  const std::vector<Variable>& trainable_variables() const { return trainable_variables_; }
  /// Replaces the values of variables() (shapes must match).
  void set_weights(const std::vector<Tensor>& weights);

  /// Keras's stateless API: the new trainable values and the new optimizer variable values
  /// after one apply; no Variable changes. The optimizer must be built.
  std::pair<std::vector<Tensor>, std::vector<Tensor>> stateless_apply(
      const std::vector<Tensor>& optimizer_variables, const std::vector<Tensor>& grads,
      const std::vector<Tensor>& trainable_variables);

  /// Swaps the values of `vars` with their moving averages (the SwapEMAWeights callback).
  virtual void swap_ema_weights(const std::vector<Variable>& vars);
  /// End of training: with use_ema, overwrites `vars` with their moving averages.
  virtual void finalize_variable_values(const std::vector<Variable>& vars);

  /// Excludes variables (or those whose name contains one of `var_names`, a regex search as
  /// in Keras) from weight decay; only before build.
  void exclude_from_weight_decay(const std::vector<Variable>& var_list,
                                 const std::vector<std::string>& var_names = {});

  /// loss * loss_scale_factor (the loss unchanged when none is set); LossScaleOptimizer
  /// multiplies by its dynamic scale.
  virtual Tensor scale_loss(const Tensor& loss) const;

  /// The optimizer's name (Keras's `name`), the prefix of its variables' paths.
  const std::string& name() const { return name_; }
  /// The keyword arguments the optimizer was built with.
  const OptimizerOptions& options() const { return options_; }
  /// The Keras class name ("Adam", "SGD", ...), written to configs.
  virtual std::string class_name() const = 0;
  /// Keras's config: name, learning_rate (a float or a serialized schedule), weight_decay,
  /// clipnorm, global_clipnorm, clipvalue, use_ema, ema_momentum, ema_overwrite_frequency,
  /// loss_scale_factor, gradient_accumulation_steps, and the subclass's keys.
  virtual Config get_config() const;

  /// A new, unbuilt optimizer with this one's configuration (schedules are shared). The
  /// built-in optimizers implement it; a custom one that does not throws NotImplementedError.
  virtual OptimizerPtr clone() const;
  /// So that `OptimizerPtr p = Adam(1e-3);` works: a clone of an unbuilt optimizer.
  operator OptimizerPtr() const;  // NOLINT

 protected:
  /// For subclasses: `class_name` names the default `name`; ValueError for invalid options (a
  /// negative clip or decay value, more than one clip option, accumulation steps below 2, an EMA
  /// momentum outside [0, 1]).
  Optimizer(const std::string& class_name, const LearningRate& learning_rate,
            OptimizerOptions options);
  /// For subclasses' clone(): an unbuilt optimizer with `other`'s configuration, name and
  /// weight-decay exclusions.
  Optimizer(const Optimizer& other);
  Optimizer& operator=(const Optimizer&) = delete;

  /// Subclass hook: create the slots (after the base variables) in Keras's order; assign the
  /// slot lists (a clone of a built optimizer builds again). None by default.
  virtual void build_slots(const std::vector<Variable>& vars);
  /// Subclass hook: update trainable variable `index` (whose value is `var`) with `grad`.
  virtual void update_step(const Tensor& grad, const Variable& var, size_t index,
                           const Tensor& lr) = 0;
  /// Runs update_step over the variables (Nadam overrides it to update a shared state first).
  virtual void update_all(const std::vector<Tensor>& grads, const std::vector<size_t>& indices,
                          const Tensor& lr);

  /// A new optimizer variable named `name`, path "<optimizer name>/<name>", filled with `init`.
  Variable add_variable(const Shape& shape, DType dtype, const std::string& name,
                        double init = 0.0);
  /// A slot shaped and typed like `reference`, named "<its path with / as _>_<name>".
  Variable add_variable_from_reference(const Variable& reference, const std::string& name,
                                       double init = 0.0);
  /// Keras's add_optimizer_variables: for each variable, one slot per name (interleaved, as
  /// Keras creates them); returns one list per name. An overwrite_with_gradient variable gets
  /// undefined slots (Keras's None).
  std::vector<std::vector<Variable>> add_optimizer_variables(const std::vector<Variable>& vars,
                                                             const std::vector<std::string>& names,
                                                             const std::vector<double>& inits = {});

  /// One step over the trainable variables at `indices` (what every apply() ends in); a
  /// wrapper (LossScaleOptimizer) replaces it.
  virtual void apply_indexed(std::vector<Tensor> grads, std::vector<size_t> indices);
  /// Lists a variable another object owns among variables() (a wrapped optimizer's).
  void track_variable(const Variable& v) { variables_.push_back(v); }

  /// Keras's `self.iterations`: the counter, divided by the accumulation steps (int64 tensor).
  Tensor step_count() const;
  /// cast(step_count() + offset, dtype): Keras's local_step (offset 1).
  Tensor local_step(DType dtype, int offset = 1) const;

  /// Keras's _apply_weight_decay: `var -= var * weight_decay * lr` for the variables at
  /// `indices` that are not excluded, before the update step. Muon overrides it (two decay
  /// rates).
  virtual void apply_weight_decay(const std::vector<size_t>& indices, const Tensor& lr);
  /// Keras's _use_weight_decay: false for a variable exclude_from_weight_decay() named.
  bool use_weight_decay(size_t index) const { return decay_mask_[index]; }
  /// `var -= var * weight_decay * lr` on trainable variable `index` (in its dtype).
  void decay_variable(size_t index, double weight_decay, const Tensor& lr);

 private:
  /// Keras's _overwrite_variables_directly_with_gradients: assigns each overwrite_with_gradient
  /// variable its gradient (with accumulation: the running maximum, on the update step) and
  /// drops those pairs. `is_update_step`: with accumulation, whether this step applies.
  void overwrite_with_gradients(std::vector<Tensor>& grads, std::vector<size_t>& indices,
                                bool is_update_step);
  std::vector<Tensor> clip_gradients(const std::vector<Tensor>& grads) const;
  void update_moving_averages();
  void overwrite_with_averages(const std::vector<Variable>& vars, const char* caller);
  size_t index_of(const Variable& var) const;

  std::string name_;
  OptimizerOptions options_;
  SchedulePtr schedule_;
  double initial_learning_rate_ = 0.0;
  Variable iterations_;
  Variable learning_rate_;
  std::vector<Variable> variables_;
  std::vector<Variable> trainable_variables_;
  std::vector<Variable> averages_;
  std::vector<Variable> accumulators_;
  std::vector<Variable> excluded_from_decay_;
  std::vector<std::string> excluded_names_;
  std::vector<bool> decay_mask_;
  bool built_ = false;
};

/// The optimizer a Keras identifier names ("adam", "sgd", "rmsprop", ..., or a class name),
/// with default arguments.
OptimizerPtr get(const std::string& identifier);
/// The optimizer a Keras identifier names (see the std::string overload).
inline OptimizerPtr get(const char* identifier) {
  return get(std::string(identifier));
}
/// The optimizer a config describes: a name, or {class_name, config}.
OptimizerPtr get(const Config& identifier);
/// serialize_keras_object: {module: "keras.optimizers", class_name, config, registered_name}.
Config serialize(const OptimizerPtr& optimizer);
/// serialize_keras_object record of `optimizer` (see the OptimizerPtr overload).
Config serialize(const Optimizer& optimizer);
/// The optimizer a {class_name, config} record describes (class names are case-insensitive).
OptimizerPtr deserialize(const Config& config);

}  // namespace keras::optimizers

#pragma GCC visibility pop
