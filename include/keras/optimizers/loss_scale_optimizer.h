#pragma once
// keras.optimizers.LossScaleOptimizer: dynamic loss scaling for float16 training.
//
// The trainer multiplies the loss by the current scale before taking gradients (scale_loss),
// so that small float16 gradients do not underflow; apply() divides the gradients by the scale
// and hands them to the wrapped optimizer. A step whose gradients are not all finite is
// skipped (no variable of the model or of the inner optimizer changes) and halves the scale;
// after `dynamic_growth_steps` finite steps in a row the scale doubles. compile() wraps the
// optimizer in one when the model's policy is "mixed_float16" (auto_scale_loss).
//
//   auto opt = std::make_shared<keras::optimizers::LossScaleOptimizer>(
//       keras::optimizers::Adam(1e-3));

#include <string>
#include <vector>

#include "keras/optimizers/optimizer.h"

#pragma GCC visibility push(default)
namespace keras::optimizers {

/// LossScaleOptimizer's keyword arguments, with Keras's defaults.
struct LossScaleOptimizerOptions {
  /// The scale before the first step (2**15).
  double initial_scale = 32768.0;
  /// Finite steps in a row after which the scale doubles.
  int dynamic_growth_steps = 2000;
  /// Defaults to "loss_scale_optimizer" made unique.
  std::string name;
};

/// Wraps an optimizer with dynamic loss scaling (Keras's LossScaleOptimizer).
class LossScaleOptimizer : public Optimizer {
 public:
  /// Wraps `inner_optimizer`, which the LossScaleOptimizer shares and steps.
  /// ValueError for a null inner optimizer, one with a `loss_scale_factor`, an `initial_scale` that
  /// is not finite and positive, or `dynamic_growth_steps` below 1.
  explicit LossScaleOptimizer(OptimizerPtr inner_optimizer, LossScaleOptimizerOptions options = {});

  std::string class_name() const override { return "LossScaleOptimizer"; }
  /// name, inner_optimizer (serialized), initial_scale, dynamic_growth_steps.
  Config get_config() const override;
  OptimizerPtr clone() const override;
  /// The optimizer a LossScaleOptimizer config describes (inner_optimizer deserialized).
  static OptimizerPtr from_config(const Config& config);

  /// The wrapped optimizer (Keras's `inner_optimizer`), which applies the unscaled gradients.
  const OptimizerPtr& inner_optimizer() const { return inner_; }
  /// The scale before the first step (Keras's `initial_scale`).
  double initial_scale() const { return options_.initial_scale; }
  /// Finite steps in a row after which the scale doubles (Keras's `dynamic_growth_steps`).
  int dynamic_growth_steps() const { return options_.dynamic_growth_steps; }
  /// The current scale (float32 variable "dynamic_scale"); defined once built.
  const Variable& dynamic_scale() const { return dynamic_scale_; }
  /// Finite steps since the scale last changed (int64 variable "step_counter").
  const Variable& step_counter() const { return step_counter_; }

  /// loss * the current scale (initial_scale before the optimizer is built).
  Tensor scale_loss(const Tensor& loss) const override;
  /// The inner optimizer's counter, learning rate and schedule (as Keras's properties).
  const Variable& iterations() const override { return inner_->iterations(); }
  Tensor learning_rate_tensor() const override { return inner_->learning_rate_tensor(); }
  void set_learning_rate(double lr) override { inner_->set_learning_rate(lr); }
  bool has_schedule() const override { return inner_->has_schedule(); }
  const SchedulePtr& schedule() const override { return inner_->schedule(); }
  void swap_ema_weights(const std::vector<Variable>& vars) override {
    inner_->swap_ema_weights(vars);
  }
  void finalize_variable_values(const std::vector<Variable>& vars) override {
    inner_->finalize_variable_values(vars);
  }

 protected:
  /// Own variables (step_counter, dynamic_scale), then the inner optimizer's, as Keras lists
  /// them in `variables`.
  void build_slots(const std::vector<Variable>& vars) override;
  void apply_indexed(std::vector<Tensor> grads, std::vector<size_t> indices) override;
  void update_step(const Tensor&, const Variable&, size_t, const Tensor&) override {}

 private:
  OptimizerPtr inner_;
  LossScaleOptimizerOptions options_;
  Variable step_counter_, dynamic_scale_;
};

}  // namespace keras::optimizers

#pragma GCC visibility pop
