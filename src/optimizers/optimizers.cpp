// The built-in optimizers: Keras 3's update rules (keras/src/optimizers/<name>.py), their
// configs, and the name registry (get, serialize, deserialize).

#include "keras/optimizers/optimizers.h"

#include <cmath>
#include <set>

#include "keras/core/config.h"
#include "keras/optimizers/multi_optimizer.h"
#include "keras/ops/ops.h"
#include "optimizers/builtin_support.h"

namespace keras::optimizers {
namespace {

using builtin::common_options;
using builtin::with_learning_rate;

Tensor full_like_dtype(double v, DType dtype) {
  return ops::full({}, v, dtype);
}

void check_finite(const char* cls, const char* what, double v) {
  check(std::isfinite(v), cls, ": `", what, "` must be a finite number; got ", v, ".");
}

/// The root mean square of all elements.
Tensor rms(const Tensor& x) {
  return ops::sqrt(ops::mean(ops::square(x)));
}

}  // namespace

// ---- SGD -----------------------------------------------------------------------------------

SGD::SGD(SGDOptions options)
    : Optimizer("SGD", options.learning_rate, common_options(options)), o_(std::move(options)) {
  check(o_.momentum >= 0 && o_.momentum <= 1,
        "`momentum` must be a float between [0, 1]. Received: momentum=", o_.momentum);
}
SGD::SGD(LearningRate learning_rate) : SGD(with_learning_rate<SGDOptions>(learning_rate)) {}

void SGD::build_slots(const std::vector<Variable>& vars) {
  momentums_.clear();
  if (o_.momentum != 0) momentums_ = add_optimizer_variables(vars, {"momentum"})[0];
}

void SGD::update_step(const Tensor& grad, const Variable& var, size_t index, const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  Variable v = var;
  if (o_.momentum != 0) {
    Variable& m = momentums_[index];
    Tensor mom = full_like_dtype(o_.momentum, dt);
    m.assign(ops::subtract(ops::multiply(m.value(), mom), ops::multiply(g, lr)));
    if (o_.nesterov)
      v.assign_add(ops::subtract(ops::multiply(m.value(), mom), ops::multiply(g, lr)));
    else
      v.assign_add(m.value());
  } else {
    v.assign_sub(ops::multiply(g, lr));
  }
}

Config SGD::get_config() const {
  Config c = Optimizer::get_config();
  c["momentum"] = o_.momentum;
  c["nesterov"] = o_.nesterov;
  return c;
}

// ---- Adam / AdamW --------------------------------------------------------------------------

Adam::Adam(AdamOptions options) : Adam("Adam", options) {}
Adam::Adam(LearningRate learning_rate) : Adam(with_learning_rate<AdamOptions>(learning_rate)) {}
Adam::Adam(const std::string& class_name, const AdamOptions& options)
    : Optimizer(class_name, options.learning_rate, common_options(options)), o_(options) {
  check_finite("Adam", "epsilon", o_.epsilon);
}

void Adam::build_slots(const std::vector<Variable>& vars) {
  auto slots = add_optimizer_variables(vars, {"momentum", "velocity"});
  momentums_ = slots[0];
  velocities_ = slots[1];
  velocity_hats_.clear();
  if (o_.amsgrad) velocity_hats_ = add_optimizer_variables(vars, {"velocity_hat"})[0];
}

void Adam::update_step(const Tensor& grad, const Variable& var, size_t index, const Tensor& lr_) {
  const DType dt = var.dtype();
  builtin::adam_step(ops::cast(grad, dt), ops::cast(lr_, dt), local_step(dt), o_.beta_1, o_.beta_2,
                     o_.epsilon, momentums_[index], velocities_[index],
                     o_.amsgrad ? &velocity_hats_[index] : nullptr, var);
}

void builtin::adam_step(const Tensor& g, const Tensor& lr, const Tensor& step, double beta_1,
                        double beta_2, double epsilon, Variable& m, Variable& v, Variable* v_hat,
                        Variable target) {
  const DType dt = target.dtype();
  Tensor beta_1_power = ops::power(full_like_dtype(beta_1, dt), step);
  Tensor beta_2_power = ops::power(full_like_dtype(beta_2, dt), step);
  Tensor alpha = ops::divide(ops::multiply(lr, ops::sqrt(ops::subtract(1.0, beta_2_power))),
                             ops::subtract(1.0, beta_1_power));
  m.assign_add(ops::multiply(ops::subtract(g, m.value()), 1.0 - beta_1));
  v.assign_add(ops::multiply(ops::subtract(ops::square(g), v.value()), 1.0 - beta_2));
  Tensor second = v.value();
  if (v_hat) {
    v_hat->assign(ops::maximum(v_hat->value(), v.value()));
    second = v_hat->value();
  }
  target.assign_sub(
      ops::divide(ops::multiply(m.value(), alpha), ops::add(ops::sqrt(second), epsilon)));
}

Config Adam::get_config() const {
  Config c = Optimizer::get_config();
  c["beta_1"] = o_.beta_1;
  c["beta_2"] = o_.beta_2;
  c["epsilon"] = o_.epsilon;
  c["amsgrad"] = o_.amsgrad;
  return c;
}

namespace {
AdamOptions adam_options_of(const AdamWOptions& w) {
  AdamOptions a;
  a.learning_rate = w.learning_rate;
  a.beta_1 = w.beta_1;
  a.beta_2 = w.beta_2;
  a.epsilon = w.epsilon;
  a.amsgrad = w.amsgrad;
  a.weight_decay = w.weight_decay;
  a.clipnorm = w.clipnorm;
  a.clipvalue = w.clipvalue;
  a.global_clipnorm = w.global_clipnorm;
  a.use_ema = w.use_ema;
  a.ema_momentum = w.ema_momentum;
  a.ema_overwrite_frequency = w.ema_overwrite_frequency;
  a.loss_scale_factor = w.loss_scale_factor;
  a.gradient_accumulation_steps = w.gradient_accumulation_steps;
  a.name = w.name;
  return a;
}
}  // namespace

AdamW::AdamW(AdamWOptions options) : Adam("AdamW", adam_options_of(options)) {}
AdamW::AdamW(LearningRate learning_rate) : AdamW(with_learning_rate<AdamWOptions>(learning_rate)) {}

// ---- Adamax --------------------------------------------------------------------------------

Adamax::Adamax(AdamaxOptions options)
    : Optimizer("Adamax", options.learning_rate, common_options(options)), o_(std::move(options)) {}
Adamax::Adamax(LearningRate learning_rate)
    : Adamax(with_learning_rate<AdamaxOptions>(learning_rate)) {}

void Adamax::build_slots(const std::vector<Variable>& vars) {
  auto slots = add_optimizer_variables(vars, {"momentum", "norm"});
  m_ = slots[0];
  u_ = slots[1];
}

void Adamax::update_step(const Tensor& grad, const Variable& var, size_t index, const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  Tensor beta_1_power = ops::power(full_like_dtype(o_.beta_1, dt), local_step(dt));
  Variable& m = m_[index];
  Variable& u = u_[index];
  m.assign_add(ops::multiply(ops::subtract(g, m.value()), 1.0 - o_.beta_1));
  u.assign(ops::maximum(ops::multiply(o_.beta_2, u.value()), ops::abs(g)));
  Variable target = var;
  target.assign_sub(ops::divide(
      ops::multiply(lr, m.value()),
      ops::multiply(ops::subtract(1.0, beta_1_power), ops::add(u.value(), o_.epsilon))));
}

Config Adamax::get_config() const {
  Config c = Optimizer::get_config();
  c["beta_1"] = o_.beta_1;
  c["beta_2"] = o_.beta_2;
  c["epsilon"] = o_.epsilon;
  return c;
}

// ---- Nadam ---------------------------------------------------------------------------------

Nadam::Nadam(NadamOptions options)
    : Optimizer("Nadam", options.learning_rate, common_options(options)), o_(std::move(options)) {}
Nadam::Nadam(LearningRate learning_rate) : Nadam(with_learning_rate<NadamOptions>(learning_rate)) {}

void Nadam::build_slots(const std::vector<Variable>& vars) {
  const DType dtype = vars.empty() ? config::floatx() : vars.front().dtype();
  auto slots = add_optimizer_variables(vars, {"momentum", "velocity"});
  momentums_ = slots[0];
  velocities_ = slots[1];
  // Keras's unnamed backend.Variable(1.0): the running product of the momentum schedule.
  u_product_ = add_variable({}, dtype, "variable", 1.0);
}

void Nadam::update_all(const std::vector<Tensor>& grads, const std::vector<size_t>& indices,
                       const Tensor& lr) {
  const DType dt = u_product_.dtype();
  Tensor u_t = ops::multiply(
      o_.beta_1, ops::subtract(1.0, ops::multiply(0.5, ops::power(full_like_dtype(0.96, dt),
                                                                  local_step(dt)))));
  u_product_.assign(ops::multiply(u_product_.value(), u_t));
  Optimizer::update_all(grads, indices, lr);
}

void Nadam::update_step(const Tensor& grad, const Variable& var, size_t index, const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  Tensor step = local_step(dt);
  Tensor next_step = local_step(dt, 2);
  Tensor decay = full_like_dtype(0.96, dt);
  Tensor beta_1 = full_like_dtype(o_.beta_1, dt);
  Tensor beta_2 = full_like_dtype(o_.beta_2, dt);
  Tensor u_t =
      ops::multiply(beta_1, ops::subtract(1.0, ops::multiply(0.5, ops::power(decay, step))));
  Tensor u_t_1 =
      ops::multiply(beta_1, ops::subtract(1.0, ops::multiply(0.5, ops::power(decay, next_step))));
  Tensor u_product_t = ops::cast(u_product_.value(), dt);
  Tensor u_product_t_1 = ops::multiply(u_product_t, u_t_1);
  Tensor beta_2_power = ops::power(beta_2, step);
  Variable& m = momentums_[index];
  Variable& v = velocities_[index];
  m.assign_add(ops::multiply(ops::subtract(g, m.value()), ops::subtract(1.0, beta_1)));
  v.assign_add(ops::multiply(ops::subtract(ops::square(g), v.value()), ops::subtract(1.0, beta_2)));
  Tensor m_hat = ops::add(
      ops::divide(ops::multiply(u_t_1, m.value()), ops::subtract(1.0, u_product_t_1)),
      ops::divide(ops::multiply(ops::subtract(1.0, u_t), g), ops::subtract(1.0, u_product_t)));
  Tensor v_hat = ops::divide(v.value(), ops::subtract(1.0, beta_2_power));
  Variable target = var;
  target.assign_sub(ops::divide(ops::multiply(m_hat, lr), ops::add(ops::sqrt(v_hat), o_.epsilon)));
}

Config Nadam::get_config() const {
  Config c = Optimizer::get_config();
  c["beta_1"] = o_.beta_1;
  c["beta_2"] = o_.beta_2;
  c["epsilon"] = o_.epsilon;
  return c;
}

// ---- RMSprop -------------------------------------------------------------------------------

RMSprop::RMSprop(RMSpropOptions options)
    : Optimizer("RMSprop", options.learning_rate, common_options(options)), o_(std::move(options)) {
  check(o_.momentum >= 0, "RMSprop: `momentum` must be >= 0; got ", o_.momentum, ".");
}
RMSprop::RMSprop(LearningRate learning_rate)
    : RMSprop(with_learning_rate<RMSpropOptions>(learning_rate)) {}

void RMSprop::build_slots(const std::vector<Variable>& vars) {
  velocities_ = add_optimizer_variables(vars, {"velocity"})[0];
  momentums_.clear();
  if (o_.momentum > 0) momentums_ = add_optimizer_variables(vars, {"momentum"})[0];
  average_gradients_.clear();
  if (o_.centered) average_gradients_ = add_optimizer_variables(vars, {"average_gradient"})[0];
}

void RMSprop::update_step(const Tensor& grad, const Variable& var, size_t index,
                          const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  const double rho = o_.rho;
  Variable& velocity = velocities_[index];
  velocity.assign(
      ops::add(ops::multiply(rho, velocity.value()), ops::multiply(1.0 - rho, ops::square(g))));
  Tensor denominator;
  if (o_.centered) {
    Variable& average_grad = average_gradients_[index];
    average_grad.assign(
        ops::add(ops::multiply(rho, average_grad.value()), ops::multiply(1.0 - rho, g)));
    denominator =
        ops::add(ops::subtract(velocity.value(), ops::square(average_grad.value())), o_.epsilon);
  } else {
    denominator = ops::add(velocity.value(), o_.epsilon);
  }
  Tensor increment = ops::divide(ops::multiply(lr, g), ops::sqrt(denominator));
  Variable target = var;
  if (o_.momentum > 0) {
    Variable& momentum = momentums_[index];
    momentum.assign(ops::add(ops::multiply(o_.momentum, momentum.value()), increment));
    target.assign_sub(momentum.value());
  } else {
    target.assign_sub(increment);
  }
}

Config RMSprop::get_config() const {
  Config c = Optimizer::get_config();
  c["rho"] = o_.rho;
  c["momentum"] = o_.momentum;
  c["epsilon"] = o_.epsilon;
  c["centered"] = o_.centered;
  return c;
}

// ---- Adagrad -------------------------------------------------------------------------------

Adagrad::Adagrad(AdagradOptions options)
    : Optimizer("Adagrad", options.learning_rate, common_options(options)), o_(std::move(options)) {
  check(o_.initial_accumulator_value >= 0,
        "Adagrad: `initial_accumulator_value` must be >= 0; got ", o_.initial_accumulator_value,
        ".");
}
Adagrad::Adagrad(LearningRate learning_rate)
    : Adagrad(with_learning_rate<AdagradOptions>(learning_rate)) {}

void Adagrad::build_slots(const std::vector<Variable>& vars) {
  accumulators_ = add_optimizer_variables(vars, {"accumulator"}, {o_.initial_accumulator_value})[0];
}

void Adagrad::update_step(const Tensor& grad, const Variable& var, size_t index,
                          const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  Variable& accumulator = accumulators_[index];
  accumulator.assign_add(ops::square(g));
  Variable target = var;
  target.assign_sub(
      ops::divide(ops::multiply(lr, g), ops::sqrt(ops::add(accumulator.value(), o_.epsilon))));
}

Config Adagrad::get_config() const {
  Config c = Optimizer::get_config();
  c["initial_accumulator_value"] = o_.initial_accumulator_value;
  c["epsilon"] = o_.epsilon;
  return c;
}

// ---- Adadelta ------------------------------------------------------------------------------

Adadelta::Adadelta(AdadeltaOptions options)
    : Optimizer("Adadelta", options.learning_rate, common_options(options)),
      o_(std::move(options)) {}
Adadelta::Adadelta(LearningRate learning_rate)
    : Adadelta(with_learning_rate<AdadeltaOptions>(learning_rate)) {}

void Adadelta::build_slots(const std::vector<Variable>& vars) {
  auto slots = add_optimizer_variables(vars, {"accumulated_grad", "accumulated_delta_var"});
  accumulated_grads_ = slots[0];
  accumulated_delta_vars_ = slots[1];
}

void Adadelta::update_step(const Tensor& grad, const Variable& var, size_t index,
                           const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  const double rho = o_.rho;
  Variable& accumulated_grad = accumulated_grads_[index];
  Variable& accumulated_delta_var = accumulated_delta_vars_[index];
  auto rms_of = [&](const Tensor& x) { return ops::sqrt(ops::add(x, o_.epsilon)); };
  accumulated_grad.assign(ops::add(ops::multiply(rho, accumulated_grad.value()),
                                   ops::multiply(1.0 - rho, ops::square(g))));
  Tensor delta_var = ops::negative(ops::divide(
      ops::multiply(rms_of(accumulated_delta_var.value()), g), rms_of(accumulated_grad.value())));
  accumulated_delta_var.assign(ops::add(ops::multiply(rho, accumulated_delta_var.value()),
                                        ops::multiply(1.0 - rho, ops::square(delta_var))));
  Variable target = var;
  target.assign_add(ops::multiply(lr, delta_var));
}

Config Adadelta::get_config() const {
  Config c = Optimizer::get_config();
  c["rho"] = o_.rho;
  c["epsilon"] = o_.epsilon;
  return c;
}

// ---- Adafactor -----------------------------------------------------------------------------

Adafactor::Adafactor(AdafactorOptions options)
    : Optimizer("Adafactor", options.learning_rate, common_options(options)),
      o_(std::move(options)) {}
Adafactor::Adafactor(LearningRate learning_rate)
    : Adafactor(with_learning_rate<AdafactorOptions>(learning_rate)) {}

void Adafactor::build_slots(const std::vector<Variable>& vars) {
  r_.clear();
  c_.clear();
  v_.clear();
  for (const Variable& var : vars) {
    if (var.ndim() < 2) {
      // Keras's backend.Variable(0, name=var.name): unused float32 scalars.
      r_.push_back(add_variable({}, config::floatx(), var.name()));
      c_.push_back(add_variable({}, config::floatx(), var.name()));
    } else {
      const Shape& s = var.shape();
      Shape r_shape(s.begin(), s.end() - 1);
      Shape c_shape(s.begin(), s.end() - 2);
      c_shape.push_back(s.back());
      r_.push_back(add_variable(r_shape, var.dtype(), var.name()));
      c_.push_back(add_variable(c_shape, var.dtype(), var.name()));
    }
    v_.push_back(add_variable_from_reference(var, "velocity"));
  }
}

void Adafactor::update_step(const Tensor& grad, const Variable& var, size_t index,
                            const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  Tensor epsilon_2 = full_like_dtype(o_.epsilon_2, dt);
  Tensor one = full_like_dtype(1.0, dt);
  Tensor step = local_step(dt);
  Tensor inv_sqrt_step = ops::divide(1.0, ops::sqrt(step));
  if (!has_schedule() && o_.relative_step) lr = ops::minimum(lr, inv_sqrt_step);
  Variable& r = r_[index];
  Variable& c = c_[index];
  Variable& v = v_[index];
  Tensor rho_t = ops::minimum(lr, inv_sqrt_step);
  Tensor alpha_t = ops::multiply(ops::maximum(epsilon_2, rms(var.value())), rho_t);
  Tensor regulated_grad_square = ops::add(ops::square(g), o_.epsilon_1);
  Tensor beta_2_t = ops::subtract(1.0, ops::power(step, o_.beta_2_decay));
  Tensor one_minus_beta = ops::subtract(1.0, beta_2_t);
  if (var.ndim() >= 2) {
    r.assign(ops::add(ops::multiply(beta_2_t, r.value()),
                      ops::multiply(one_minus_beta, ops::mean(regulated_grad_square, -1))));
    c.assign(ops::add(ops::multiply(beta_2_t, c.value()),
                      ops::multiply(one_minus_beta, ops::mean(regulated_grad_square, -2))));
    v.assign(
        ops::multiply(ops::expand_dims(ops::divide(r.value(), ops::mean(r.value(), -1, true)), -1),
                      ops::expand_dims(c.value(), -2)));
  } else {
    v.assign(ops::add(ops::multiply(beta_2_t, v.value()),
                      ops::multiply(one_minus_beta, regulated_grad_square)));
  }
  Tensor u_t = ops::divide(g, ops::sqrt(v.value()));
  Tensor u_t_hat = ops::divide(u_t, ops::maximum(one, ops::divide(rms(u_t), o_.clip_threshold)));
  Variable target = var;
  target.assign_sub(ops::multiply(alpha_t, u_t_hat));
}

Config Adafactor::get_config() const {
  Config c = Optimizer::get_config();
  c["beta_2_decay"] = o_.beta_2_decay;
  c["epsilon_1"] = o_.epsilon_1;
  c["epsilon_2"] = o_.epsilon_2;
  c["clip_threshold"] = o_.clip_threshold;
  c["relative_step"] = o_.relative_step;
  return c;
}

// ---- Ftrl ----------------------------------------------------------------------------------

Ftrl::Ftrl(FtrlOptions options)
    : Optimizer("Ftrl", options.learning_rate, common_options(options)), o_(std::move(options)) {
  check(o_.initial_accumulator_value >= 0,
        "`initial_accumulator_value` needs to be positive or zero. Received: "
        "initial_accumulator_value=",
        o_.initial_accumulator_value, ".");
  check(o_.learning_rate_power <= 0,
        "`learning_rate_power` needs to be negative or zero. Received: learning_rate_power=",
        o_.learning_rate_power, ".");
  check(o_.l1_regularization_strength >= 0,
        "`l1_regularization_strength` needs to be positive or zero. Received: "
        "l1_regularization_strength=",
        o_.l1_regularization_strength, ".");
  check(o_.l2_regularization_strength >= 0,
        "`l2_regularization_strength` needs to be positive or zero. Received: "
        "l2_regularization_strength=",
        o_.l2_regularization_strength, ".");
  check(o_.l2_shrinkage_regularization_strength >= 0,
        "`l2_shrinkage_regularization_strength` needs to be positive or zero. Received: "
        "l2_shrinkage_regularization_strength=",
        o_.l2_shrinkage_regularization_strength, ".");
}
Ftrl::Ftrl(LearningRate learning_rate) : Ftrl(with_learning_rate<FtrlOptions>(learning_rate)) {}

void Ftrl::build_slots(const std::vector<Variable>& vars) {
  auto slots =
      add_optimizer_variables(vars, {"accumulator", "linear"}, {o_.initial_accumulator_value, 0});
  accumulators_ = slots[0];
  linears_ = slots[1];
}

void Ftrl::update_step(const Tensor& grad, const Variable& var, size_t index, const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  Variable& accum = accumulators_[index];
  Variable& linear = linears_[index];
  const double lr_power = o_.learning_rate_power;
  Tensor l2_reg =
      ops::add(o_.l2_regularization_strength, ops::divide(o_.beta, ops::multiply(2.0, lr)));
  Tensor grad_to_use =
      ops::add(g, ops::multiply(2 * o_.l2_shrinkage_regularization_strength, var.value()));
  Tensor new_accum = ops::add(accum.value(), ops::square(g));
  linear.assign_add(ops::subtract(
      grad_to_use, ops::multiply(ops::divide(ops::subtract(ops::power(new_accum, -lr_power),
                                                           ops::power(accum.value(), -lr_power)),
                                             lr),
                                 var.value())));
  Tensor quadratic =
      ops::add(ops::divide(ops::power(new_accum, -lr_power), lr), ops::multiply(2.0, l2_reg));
  const double l1 = o_.l1_regularization_strength;
  Tensor linear_clipped = ops::clip(linear.value(), -l1, l1);
  Variable target = var;
  target.assign(ops::divide(ops::subtract(linear_clipped, linear.value()), quadratic));
  accum.assign(new_accum);
}

Config Ftrl::get_config() const {
  Config c = Optimizer::get_config();
  c["learning_rate_power"] = o_.learning_rate_power;
  c["initial_accumulator_value"] = o_.initial_accumulator_value;
  c["l1_regularization_strength"] = o_.l1_regularization_strength;
  c["l2_regularization_strength"] = o_.l2_regularization_strength;
  c["l2_shrinkage_regularization_strength"] = o_.l2_shrinkage_regularization_strength;
  c["beta"] = o_.beta;
  return c;
}

// ---- Lamb ----------------------------------------------------------------------------------

Lamb::Lamb(LambOptions options)
    : Optimizer("Lamb", options.learning_rate, common_options(options)), o_(std::move(options)) {}
Lamb::Lamb(LearningRate learning_rate) : Lamb(with_learning_rate<LambOptions>(learning_rate)) {}

void Lamb::build_slots(const std::vector<Variable>& vars) {
  auto slots = add_optimizer_variables(vars, {"momentum", "velocity"});
  momentums_ = slots[0];
  velocities_ = slots[1];
}

void Lamb::update_step(const Tensor& grad, const Variable& var, size_t index, const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  Tensor step = local_step(dt);
  Tensor beta_1_power = ops::power(full_like_dtype(o_.beta_1, dt), step);
  Tensor beta_2_power = ops::power(full_like_dtype(o_.beta_2, dt), step);
  Variable& m = momentums_[index];
  Variable& v = velocities_[index];
  m.assign_add(ops::multiply(ops::subtract(g, m.value()), 1.0 - o_.beta_1));
  v.assign_add(ops::multiply(ops::subtract(ops::square(g), v.value()), 1.0 - o_.beta_2));
  Tensor m_t_hat = ops::divide(m.value(), ops::subtract(1.0, beta_1_power));
  Tensor v_sqrt =
      ops::add(ops::sqrt(ops::divide(v.value(), ops::subtract(1.0, beta_2_power))), o_.epsilon);
  Tensor update = ops::divide(m_t_hat, v_sqrt);
  Tensor w_norm = ops::sqrt(ops::sum(ops::square(var.value())));
  Tensor g_norm = ops::sqrt(ops::sum(ops::square(update)));
  Tensor one = full_like_dtype(1.0, dt);
  Tensor ratio =
      ops::where(ops::greater(w_norm, 0.0),
                 ops::where(ops::greater(g_norm, 0.0), ops::divide(w_norm, g_norm), one), one);
  Variable target = var;
  target.assign_sub(ops::multiply(ops::multiply(ratio, lr), update));
}

Config Lamb::get_config() const {
  Config c = Optimizer::get_config();
  c["beta_1"] = o_.beta_1;
  c["beta_2"] = o_.beta_2;
  c["epsilon"] = o_.epsilon;
  return c;
}

// ---- Lion ----------------------------------------------------------------------------------

Lion::Lion(LionOptions options)
    : Optimizer("Lion", options.learning_rate, common_options(options)), o_(std::move(options)) {
  check(o_.beta_1 > 0 && o_.beta_1 <= 1,
        "Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer degenerates to "
        "SignSGD. Received: beta_1=",
        o_.beta_1, ".");
}
Lion::Lion(LearningRate learning_rate) : Lion(with_learning_rate<LionOptions>(learning_rate)) {}

void Lion::build_slots(const std::vector<Variable>& vars) {
  momentums_ = add_optimizer_variables(vars, {"momentum"})[0];
}

void Lion::update_step(const Tensor& grad, const Variable& var, size_t index, const Tensor& lr_) {
  const DType dt = var.dtype();
  Tensor lr = ops::cast(lr_, dt);
  Tensor g = ops::cast(grad, dt);
  Tensor beta_1 = full_like_dtype(o_.beta_1, dt);
  Tensor beta_2 = full_like_dtype(o_.beta_2, dt);
  Variable& m = momentums_[index];
  Variable target = var;
  target.assign_sub(
      ops::multiply(lr, ops::sign(ops::add(ops::multiply(m.value(), beta_1),
                                           ops::multiply(g, ops::subtract(1.0, beta_1))))));
  m.assign(
      ops::add(ops::multiply(m.value(), beta_2), ops::multiply(g, ops::subtract(1.0, beta_2))));
}

Config Lion::get_config() const {
  Config c = Optimizer::get_config();
  c["beta_1"] = o_.beta_1;
  c["beta_2"] = o_.beta_2;
  return c;
}

// ---- registry ------------------------------------------------------------------------------

namespace {

const char* const kKnownNames =
    "adadelta, adafactor, adagrad, adam, adamax, adamw, ftrl, lamb, lion, muon, nadam, rmsprop, "
    "schedulefreeadamw, sgd (or their class names: Adadelta, Adafactor, Adagrad, Adam, Adamax, "
    "AdamW, Ftrl, Lamb, Lion, Muon, Nadam, RMSprop, ScheduleFreeAdamW, SGD)";

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Reads an optimizer config, refusing keys the class does not take (as Keras's cls(**config)).
class ConfigReader {
 public:
  ConfigReader(const Config& c, std::string cls) : c_(c), cls_(std::move(cls)) {
    check(c_.is_object(), cls_, ": the config must be a JSON object; got ", c_.dump(), ".");
  }
  bool is_null(const char* key) const { return c_.contains(key) && c_[key].is_null(); }
  bool has(const char* key) {
    used_.insert(key);
    return c_.contains(key) && !c_[key].is_null();
  }
  double number(const char* key, double fallback) {
    if (!has(key)) return fallback;
    check(c_[key].is_number(), cls_, ": `", key, "` must be a number; got ", c_[key].dump(), ".");
    return c_[key].get<double>();
  }
  bool flag(const char* key, bool fallback) {
    if (!has(key)) return fallback;
    check(c_[key].is_boolean(), cls_, ": `", key, "` must be true or false; got ", c_[key].dump(),
          ".");
    return c_[key].get<bool>();
  }
  std::optional<double> optional_number(const char* key) {
    if (!has(key)) return std::nullopt;
    return number(key, 0.0);
  }
  /// A number that may be None: `fallback` when the key is absent, unset when it is null.
  std::optional<double> nullable_number(const char* key, std::optional<double> fallback) {
    if (is_null(key)) {
      used_.insert(key);
      return std::nullopt;
    }
    return has(key) ? std::optional<double>(number(key, 0.0)) : fallback;
  }
  int integer(const char* key, int fallback) { return optional_int(key).value_or(fallback); }
  std::vector<std::string> strings(const char* key) {
    if (!has(key)) return {};
    const Config& list = c_[key];
    check(list.is_array(), cls_, ": `", key, "` must be a list of strings; got ", list.dump(), ".");
    std::vector<std::string> out;
    for (const Config& item : list) {
      check(item.is_string(), cls_, ": `", key, "` must be a list of strings; got ", list.dump(),
            ".");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  std::optional<int> optional_int(const char* key) {
    if (!has(key)) return std::nullopt;
    check(c_[key].is_number_integer(), cls_, ": `", key, "` must be an integer; got ",
          c_[key].dump(), ".");
    return c_[key].get<int>();
  }
  LearningRate learning_rate(double fallback) {
    if (!has("learning_rate")) return fallback;
    const Config& lr = c_["learning_rate"];
    if (lr.is_object()) return LearningRate(schedules::deserialize(lr));
    check(lr.is_number(), cls_, ": `learning_rate` must be a number or a serialized schedule; got ",
          lr.dump(), ".");
    return lr.get<double>();
  }
  template <typename O>
  void common(O& o) {
    if constexpr (!std::is_same_v<decltype(o.weight_decay), double>)
      o.weight_decay = nullable_number("weight_decay", o.weight_decay);  // Muon's is 0.004
    o.clipnorm = optional_number("clipnorm");
    o.clipvalue = optional_number("clipvalue");
    o.global_clipnorm = optional_number("global_clipnorm");
    o.use_ema = flag("use_ema", false);
    o.ema_momentum = number("ema_momentum", 0.99);
    o.ema_overwrite_frequency = optional_int("ema_overwrite_frequency");
    o.loss_scale_factor = optional_number("loss_scale_factor");
    o.gradient_accumulation_steps = optional_int("gradient_accumulation_steps");
    if (has("name")) {
      check(c_["name"].is_string(), cls_, ": `name` must be a string.");
      o.name = c_["name"].get<std::string>();
    }
  }
  void finish() {
    std::string unknown;
    for (auto it = c_.begin(); it != c_.end(); ++it) {
      // Keras drops `decay` with a warning; Keras 2.11+ configs also carry `jit_compile` and
      // `is_legacy_optimizer`, which mean nothing here.
      if (used_.count(it.key()) || it.key() == "decay" || it.key() == "is_legacy_optimizer" ||
          it.key() == "jit_compile")
        continue;
      unknown += (unknown.empty() ? "" : ", ") + it.key();
    }
    check(unknown.empty(), cls_, ": argument(s) not recognized: ", unknown, ".");
  }

 private:
  const Config& c_;
  std::string cls_;
  std::set<std::string> used_;
};

template <typename O, typename T, typename Fill>
OptimizerPtr make(const Config& c, const char* cls, double default_lr, Fill fill) {
  ConfigReader r(c, cls);
  O o;
  o.learning_rate = r.learning_rate(default_lr);
  fill(r, o);
  r.common(o);
  r.finish();
  return std::make_shared<T>(std::move(o));
}

OptimizerPtr from_config(const std::string& class_name, const Config& c) {
  // Keras 2.11+ .h5 files name built-in optimizers "Custom>Adam".
  const std::string bare = class_name.rfind("Custom>", 0) == 0 ? class_name.substr(7) : class_name;
  const std::string key = lower(bare);
  if (key == "lossscaleoptimizer") return LossScaleOptimizer::from_config(c);
  if (key == "multioptimizer") return MultiOptimizer::from_config(c);
  if (key == "sgd")
    return make<SGDOptions, SGD>(c, "SGD", 0.01, [](ConfigReader& r, SGDOptions& o) {
      o.momentum = r.number("momentum", 0.0);
      o.nesterov = r.flag("nesterov", false);
    });
  if (key == "adam")
    return make<AdamOptions, Adam>(c, "Adam", 0.001, [](ConfigReader& r, AdamOptions& o) {
      o.beta_1 = r.number("beta_1", 0.9);
      o.beta_2 = r.number("beta_2", 0.999);
      o.epsilon = r.number("epsilon", 1e-7);
      o.amsgrad = r.flag("amsgrad", false);
    });
  if (key == "adamw")
    return make<AdamWOptions, AdamW>(c, "AdamW", 0.001, [](ConfigReader& r, AdamWOptions& o) {
      check(!r.is_null("weight_decay"),
            "AdamW: argument `weight_decay` must be a float. Received: weight_decay=None");
      o.weight_decay = r.number("weight_decay", 0.004);
      o.beta_1 = r.number("beta_1", 0.9);
      o.beta_2 = r.number("beta_2", 0.999);
      o.epsilon = r.number("epsilon", 1e-7);
      o.amsgrad = r.flag("amsgrad", false);
    });
  if (key == "adamax")
    return make<AdamaxOptions, Adamax>(c, "Adamax", 0.001, [](ConfigReader& r, AdamaxOptions& o) {
      o.beta_1 = r.number("beta_1", 0.9);
      o.beta_2 = r.number("beta_2", 0.999);
      o.epsilon = r.number("epsilon", 1e-7);
    });
  if (key == "nadam")
    return make<NadamOptions, Nadam>(c, "Nadam", 0.001, [](ConfigReader& r, NadamOptions& o) {
      o.beta_1 = r.number("beta_1", 0.9);
      o.beta_2 = r.number("beta_2", 0.999);
      o.epsilon = r.number("epsilon", 1e-7);
    });
  if (key == "rmsprop")
    return make<RMSpropOptions, RMSprop>(c, "RMSprop", 0.001,
                                         [](ConfigReader& r, RMSpropOptions& o) {
                                           o.rho = r.number("rho", 0.9);
                                           o.momentum = r.number("momentum", 0.0);
                                           o.epsilon = r.number("epsilon", 1e-7);
                                           o.centered = r.flag("centered", false);
                                         });
  if (key == "adagrad")
    return make<AdagradOptions, Adagrad>(
        c, "Adagrad", 0.001, [](ConfigReader& r, AdagradOptions& o) {
          o.initial_accumulator_value = r.number("initial_accumulator_value", 0.1);
          o.epsilon = r.number("epsilon", 1e-7);
        });
  if (key == "adadelta")
    return make<AdadeltaOptions, Adadelta>(c, "Adadelta", 0.001,
                                           [](ConfigReader& r, AdadeltaOptions& o) {
                                             o.rho = r.number("rho", 0.95);
                                             o.epsilon = r.number("epsilon", 1e-7);
                                           });
  if (key == "adafactor")
    return make<AdafactorOptions, Adafactor>(c, "Adafactor", 0.001,
                                             [](ConfigReader& r, AdafactorOptions& o) {
                                               o.beta_2_decay = r.number("beta_2_decay", -0.8);
                                               o.epsilon_1 = r.number("epsilon_1", 1e-30);
                                               o.epsilon_2 = r.number("epsilon_2", 1e-3);
                                               o.clip_threshold = r.number("clip_threshold", 1.0);
                                               o.relative_step = r.flag("relative_step", true);
                                             });
  if (key == "ftrl")
    return make<FtrlOptions, Ftrl>(c, "Ftrl", 0.001, [](ConfigReader& r, FtrlOptions& o) {
      o.learning_rate_power = r.number("learning_rate_power", -0.5);
      o.initial_accumulator_value = r.number("initial_accumulator_value", 0.1);
      o.l1_regularization_strength = r.number("l1_regularization_strength", 0.0);
      o.l2_regularization_strength = r.number("l2_regularization_strength", 0.0);
      o.l2_shrinkage_regularization_strength =
          r.number("l2_shrinkage_regularization_strength", 0.0);
      o.beta = r.number("beta", 0.0);
    });
  if (key == "lamb")
    return make<LambOptions, Lamb>(c, "Lamb", 0.001, [](ConfigReader& r, LambOptions& o) {
      o.beta_1 = r.number("beta_1", 0.9);
      o.beta_2 = r.number("beta_2", 0.999);
      o.epsilon = r.number("epsilon", 1e-7);
    });
  if (key == "lion")
    return make<LionOptions, Lion>(c, "Lion", 0.001, [](ConfigReader& r, LionOptions& o) {
      o.beta_1 = r.number("beta_1", 0.9);
      o.beta_2 = r.number("beta_2", 0.99);
    });
  if (key == "muon")
    return make<MuonOptions, Muon>(c, "Muon", 0.001, [](ConfigReader& r, MuonOptions& o) {
      o.adam_beta_1 = r.number("adam_beta_1", 0.9);
      o.adam_beta_2 = r.number("adam_beta_2", 0.999);
      o.adam_weight_decay = r.nullable_number("adam_weight_decay", 0.004);
      o.epsilon = r.number("epsilon", 1e-7);
      o.exclude_layers = r.strings("exclude_layers");
      o.exclude_embeddings = r.flag("exclude_embeddings", true);
      o.muon_a = r.number("muon_a", 3.4445);
      o.muon_b = r.number("muon_b", -4.7750);
      o.muon_c = r.number("muon_c", 2.0315);
      o.adam_lr_ratio = r.number("adam_lr_ratio", 1.0);
      o.momentum = r.number("momentum", 0.95);
      o.ns_steps = r.integer("ns_steps", 5);
      o.nesterov = r.flag("nesterov", true);
      o.rms_rate = r.nullable_number("rms_rate", 0.2);
    });
  if (key == "schedulefreeadamw")
    return make<ScheduleFreeAdamWOptions, ScheduleFreeAdamW>(
        c, "ScheduleFreeAdamW", 0.0025, [](ConfigReader& r, ScheduleFreeAdamWOptions& o) {
          o.beta_1 = r.number("beta_1", 0.9);
          o.beta_2 = r.number("beta_2", 0.999);
          o.epsilon = r.number("epsilon", 1e-8);
          o.warmup_steps = r.integer("warmup_steps", 0);
        });
  throw ValueError("Could not interpret optimizer identifier: '" + class_name +
                   "'. Known optimizers: " + kKnownNames + ".");
}

}  // namespace

OptimizerPtr get(const std::string& identifier) {
  return from_config(identifier, Config::object());
}

OptimizerPtr get(const Config& identifier) {
  if (identifier.is_string()) return get(identifier.get<std::string>());
  return deserialize(identifier);
}

Config serialize(const Optimizer& optimizer) {
  return {{"module", "keras.optimizers"},
          {"class_name", optimizer.class_name()},
          {"config", optimizer.get_config()},
          {"registered_name", nullptr}};
}

Config serialize(const OptimizerPtr& optimizer) {
  if (!optimizer) return nullptr;
  return serialize(*optimizer);
}

OptimizerPtr deserialize(const Config& config) {
  check(config.is_object() && config.contains("class_name") && config["class_name"].is_string(),
        "Cannot read an optimizer from ", config.dump(),
        "; expected {\"class_name\": ..., \"config\": {...}}.");
  Config c = config.contains("config") && !config["config"].is_null() ? config["config"]
                                                                      : Config::object();
  return from_config(config["class_name"].get<std::string>(), c);
}

}  // namespace keras::optimizers
