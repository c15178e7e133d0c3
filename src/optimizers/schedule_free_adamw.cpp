// keras.optimizers.ScheduleFreeAdamW (keras/src/optimizers/schedule_free_adamw.py): the model's
// variable holds y, the interpolation between z (the "momentum" slot, where Adam-scaled gradient
// steps land) and the running average x, which is not stored but recovered from y and the
// previous z: x = (y - (1 - beta_1) z) / beta_1.

#include <cmath>

#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "keras/optimizers/optimizers.h"
#include "optimizers/builtin_support.h"

namespace keras::optimizers {

ScheduleFreeAdamW::ScheduleFreeAdamW(ScheduleFreeAdamWOptions options)
    : Optimizer("ScheduleFreeAdamW", options.learning_rate, builtin::common_options(options)),
      o_(std::move(options)) {
  // beta_1 = 0 would divide by zero when recovering x; Keras does not check it.
  check(o_.beta_1 > 0 && o_.beta_1 <= 1,
        "ScheduleFreeAdamW: `beta_1` must be in (0, 1] (x is recovered by dividing by it); got ",
        o_.beta_1, ".");
  check(std::isfinite(o_.epsilon), "ScheduleFreeAdamW: `epsilon` must be a finite number; got ",
        o_.epsilon, ".");
  check(o_.warmup_steps >= 0, "ScheduleFreeAdamW: `warmup_steps` must be an integer >= 0; got ",
        o_.warmup_steps, ".");
}
ScheduleFreeAdamW::ScheduleFreeAdamW(LearningRate learning_rate)
    : ScheduleFreeAdamW(builtin::with_learning_rate<ScheduleFreeAdamWOptions>(learning_rate)) {}

void ScheduleFreeAdamW::build_slots(const std::vector<Variable>& vars) {
  auto slots = add_optimizer_variables(vars, {"momentum", "velocity"});
  momentums_ = slots[0];
  velocities_ = slots[1];
  // z starts at the variable's value (x = y = z before the first step).
  for (size_t i = 0; i < vars.size(); ++i)
    if (momentums_[i].defined()) momentums_[i].assign(vars[i].value());
}

void ScheduleFreeAdamW::apply_weight_decay(const std::vector<size_t>& indices, const Tensor& lr) {
  // Keras's load_model builds the optimizer (z = y) before it loads the weights, so a model
  // compiled but not trained would keep z at the weights the layers were initialized with.
  // Taking z = y again on the first step (chosen on the device, so the step compiles) starts it
  // from the loaded weights, and changes nothing where z still equals y.
  const Tensor first_step = ops::equal(step_count(), 0);
  for (size_t index : indices) {
    Variable& z = momentums_[index];
    if (z.defined())
      z.assign(ops::where(first_step, trainable_variables()[index].value(), z.value()));
  }
  Optimizer::apply_weight_decay(indices, lr);
}

void ScheduleFreeAdamW::update_step(const Tensor& grad, const Variable& var, size_t index,
                                    const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  const Tensor g = ops::cast(grad, dt);
  const Tensor step = local_step(dt);
  const Tensor beta_1 = ops::full({}, o_.beta_1, dt);
  const Tensor beta_2 = ops::full({}, o_.beta_2, dt);
  if (o_.warmup_steps > 0)
    lr = ops::multiply(lr,
                       ops::minimum(ops::divide(step, static_cast<double>(o_.warmup_steps)), 1.0));
  Variable& z = momentums_[index];
  Variable& v = velocities_[index];
  const Tensor z_old = z.value();

  // Adam's second moment with bias correction; z takes the scaled gradient step.
  const Tensor bias_correction_2 = ops::subtract(1.0, ops::power(beta_2, step));
  v.assign_add(ops::multiply(ops::subtract(ops::square(g), v.value()), ops::subtract(1.0, beta_2)));
  const Tensor denom = ops::add(ops::sqrt(ops::divide(v.value(), bias_correction_2)), o_.epsilon);
  z.assign_sub(ops::divide(ops::multiply(lr, g), denom));

  // x_old from y_old and z_old; x moves toward z by 1 / step; y interpolates z and x.
  const Tensor one_minus_beta_1 = ops::subtract(1.0, beta_1);
  const Tensor weight = ops::divide(1.0, step);
  const Tensor x_old =
      ops::divide(ops::subtract(var.value(), ops::multiply(one_minus_beta_1, z_old)), beta_1);
  const Tensor x_new =
      ops::add(ops::multiply(ops::subtract(1.0, weight), x_old), ops::multiply(weight, z.value()));
  Variable y = var;
  y.assign(ops::add(ops::multiply(one_minus_beta_1, z.value()), ops::multiply(beta_1, x_new)));
}

Config ScheduleFreeAdamW::get_config() const {
  Config c = Optimizer::get_config();
  c["beta_1"] = o_.beta_1;
  c["beta_2"] = o_.beta_2;
  c["epsilon"] = o_.epsilon;
  c["warmup_steps"] = o_.warmup_steps;
  return c;
}

}  // namespace keras::optimizers
