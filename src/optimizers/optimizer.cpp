// keras.optimizers.Optimizer: what Keras's BaseOptimizer does around the subclass's update rule
// (base_optimizer.py: apply, _backend_apply_gradients, clipping, weight decay, EMA, gradient
// accumulation, stateless_apply, get_config).

#include "keras/optimizers/optimizer.h"

#include <cmath>
#include <regex>

#include "keras/autograd/gradient_tape.h"
#include "keras/layers/layer.h"
#include "keras/ops/ops.h"

namespace keras::optimizers {
namespace {

void check_learning_rate(double lr) {
  check(std::isfinite(lr) && lr >= 0, "The learning rate must be a finite number >= 0; got ", lr,
        ".");
}

void check_optional_positive(const char* what, const std::optional<double>& v) {
  if (v)
    check(std::isfinite(*v) && *v >= 0, "Optimizer: `", what,
          "` must be a finite number >= 0 or unset; got ", *v, ".");
}

std::string replace_all(std::string s, char from, char to) {
  for (char& c : s)
    if (c == from) c = to;
  return s;
}

Config optional_number(const std::optional<double>& v) {
  return v ? Config(*v) : Config(nullptr);
}
Config optional_int(const std::optional<int>& v) {
  return v ? Config(*v) : Config(nullptr);
}

OptimizerOptions options_named(OptimizerOptions options, const std::string& name) {
  options.name = name;
  return options;
}

}  // namespace

Optimizer::Optimizer(const std::string& class_name, const LearningRate& learning_rate,
                     OptimizerOptions options)
    : options_(std::move(options)) {
  name_ = options_.name.empty() ? unique_name(to_snake_case(class_name)) : options_.name;
  check_optional_positive("weight_decay", options_.weight_decay);
  check_optional_positive("clipnorm", options_.clipnorm);
  check_optional_positive("clipvalue", options_.clipvalue);
  check_optional_positive("global_clipnorm", options_.global_clipnorm);
  check_optional_positive("loss_scale_factor", options_.loss_scale_factor);
  if (options_.loss_scale_factor)
    check(*options_.loss_scale_factor > 0, "Optimizer: `loss_scale_factor` must be > 0; got ",
          *options_.loss_scale_factor, ".");
  if (options_.gradient_accumulation_steps)
    check(*options_.gradient_accumulation_steps >= 2,
          "`gradient_accumulation_steps` must be an integer >= 2. Received: "
          "gradient_accumulation_steps=",
          *options_.gradient_accumulation_steps);
  if (options_.use_ema) {
    check(options_.ema_momentum >= 0 && options_.ema_momentum <= 1,
          "`ema_momentum` must be in the range [0, 1]. Received: ema_momentum=",
          options_.ema_momentum);
    if (options_.ema_overwrite_frequency)
      check(*options_.ema_overwrite_frequency >= 1,
            "`ema_overwrite_frequency` must be an integer >= 1 or None. Received: "
            "ema_overwrite_frequency=",
            *options_.ema_overwrite_frequency);
  }
  int clips = (options_.clipnorm ? 1 : 0) + (options_.clipvalue ? 1 : 0) +
              (options_.global_clipnorm ? 1 : 0);
  check(clips <= 1, "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set.");

  iterations_ = Variable(ops::zeros({}, DType::Int64),
                         {.trainable = false, .name = "iteration", .path = name_ + "/iteration"});
  variables_.push_back(iterations_);
  if (learning_rate.is_schedule()) {
    schedule_ = learning_rate.schedule();
  } else {
    check_learning_rate(learning_rate.value());
    initial_learning_rate_ = learning_rate.value();
    learning_rate_ =
        Variable(ops::full({}, learning_rate.value(), DType::Float32),
                 {.trainable = false, .name = "learning_rate", .path = name_ + "/learning_rate"});
    variables_.push_back(learning_rate_);
  }
}

Optimizer::Optimizer(const Optimizer& other)
    : Optimizer(
          other.class_name(),
          other.schedule_ ? LearningRate(other.schedule_) : LearningRate(other.learning_rate()),
          options_named(other.options_, other.name_)) {
  excluded_from_decay_ = other.excluded_from_decay_;
  excluded_names_ = other.excluded_names_;
}

Optimizer::~Optimizer() = default;

Optimizer::operator OptimizerPtr() const {
  return clone();
}

OptimizerPtr Optimizer::clone() const {
  throw NotImplementedError(
      detail::cat("Optimizer '", name_, "' (", class_name(), ") does not implement clone()."));
}

void Optimizer::build_slots(const std::vector<Variable>&) {}

// ---- variables -----------------------------------------------------------------------------

Variable Optimizer::add_variable(const Shape& shape, DType dtype, const std::string& name,
                                 double init) {
  Variable v(ops::full(shape, init, dtype),
             {.trainable = false, .name = name, .path = name_ + "/" + name});
  variables_.push_back(v);
  return v;
}

Variable Optimizer::add_variable_from_reference(const Variable& reference, const std::string& name,
                                                double init) {
  const std::string& path = reference.path().empty() ? reference.name() : reference.path();
  std::string prefix = replace_all(replace_all(path, '/', '_'), ':', '_');
  return add_variable(reference.shape(), reference.dtype(), prefix + "_" + name, init);
}

std::vector<std::vector<Variable>> Optimizer::add_optimizer_variables(
    const std::vector<Variable>& vars, const std::vector<std::string>& names,
    const std::vector<double>& inits) {
  std::vector<std::vector<Variable>> out(names.size());
  for (const Variable& var : vars)
    for (size_t i = 0; i < names.size(); ++i)
      // None for a variable the optimizer overwrites with its gradient: it is never updated.
      out[i].push_back(
          var.overwrite_with_gradient()
              ? Variable()
              : add_variable_from_reference(var, names[i], i < inits.size() ? inits[i] : 0));
  return out;
}

void Optimizer::build(const std::vector<Variable>& trainable_variables) {
  if (built_) return;
  for (size_t i = 0; i < trainable_variables.size(); ++i) {
    check(trainable_variables[i].defined(), "Optimizer '", name_, "': variable ", i,
          " of the list to build with is empty.");
    for (size_t j = 0; j < i; ++j)
      check(!trainable_variables[i].is_same(trainable_variables[j]), "Optimizer '", name_,
            "': variable '", trainable_variables[i].path(), "' appears twice in the list.");
  }
  if (options_.use_ema) averages_ = add_optimizer_variables(trainable_variables, {"average"})[0];
  if (options_.gradient_accumulation_steps)  // every variable's, overwritten ones' included
    for (const Variable& var : trainable_variables)
      accumulators_.push_back(add_variable_from_reference(var, "gradient_accumulator"));
  trainable_variables_ = trainable_variables;
  decay_mask_.assign(trainable_variables.size(), true);
  std::optional<std::regex> pattern;
  if (!excluded_names_.empty()) {
    std::string alternatives;
    for (const auto& n : excluded_names_) alternatives += (alternatives.empty() ? "" : "|") + n;
    pattern.emplace(alternatives);
  }
  for (size_t i = 0; i < trainable_variables.size(); ++i) {
    for (const Variable& e : excluded_from_decay_)
      if (e.is_same(trainable_variables[i])) decay_mask_[i] = false;
    if (pattern && std::regex_search(trainable_variables[i].name(), *pattern))
      decay_mask_[i] = false;
  }
  build_slots(trainable_variables);
  built_ = true;
}

void Optimizer::exclude_from_weight_decay(const std::vector<Variable>& var_list,
                                          const std::vector<std::string>& var_names) {
  check(!built_,
        "`exclude_from_weight_decay()` can only be configured before the optimizer is built.");
  excluded_from_decay_ = var_list;
  excluded_names_ = var_names;
}

size_t Optimizer::index_of(const Variable& var) const {
  for (size_t i = 0; i < trainable_variables_.size(); ++i)
    if (trainable_variables_[i].is_same(var)) return i;
  throw ValueError(detail::cat(
      "Unknown variable: '", var.defined() ? var.path() : std::string("<empty>"),
      "'. This optimizer ('", name_,
      "') can only be called for the variables it was originally built with. When working "
      "with a new set of variables, you should recreate a new optimizer instance."));
}

void Optimizer::set_weights(const std::vector<Tensor>& weights) {
  check(built_,
        "You are calling `set_weights()` on an optimizer that has not yet been built. "
        "Call `optimizer.build(trainable_variables)` first.");
  check(weights.size() == variables_.size(), "Optimizer '", name_, "' has ", variables_.size(),
        " variables; set_weights got ", weights.size(), ".");
  for (size_t i = 0; i < weights.size(); ++i) {
    check(weights[i].shape() == variables_[i].shape(), "Optimizer variable '", variables_[i].path(),
          "' has shape ", variables_[i].shape(), ", not compatible with the provided weight shape ",
          weights[i].shape(), ".");
    variables_[i].assign(weights[i]);
  }
}

// ---- learning rate -------------------------------------------------------------------------

Tensor Optimizer::learning_rate_tensor() const {
  if (schedule_) return ops::cast((*schedule_)(iterations_.value()), DType::Float32);
  return learning_rate_.value();
}

double Optimizer::learning_rate() const {
  return static_cast<double>(learning_rate_tensor().item<float>());
}

void Optimizer::set_learning_rate(double lr) {
  check(!schedule_,
        "This optimizer was created with a `LearningRateSchedule` object as its "
        "`learning_rate` constructor argument, hence its learning rate is not settable. If you "
        "need the learning rate to be settable, you should instantiate the optimizer with a "
        "float `learning_rate` argument.");
  check_learning_rate(lr);
  learning_rate_.assign(ops::full({}, lr, DType::Float32));
}

Tensor Optimizer::scale_loss(const Tensor& loss) const {
  return options_.loss_scale_factor ? ops::multiply(loss, *options_.loss_scale_factor) : loss;
}

// ---- steps ---------------------------------------------------------------------------------

Tensor Optimizer::step_count() const {
  if (options_.gradient_accumulation_steps)
    return ops::floor_divide(
        iterations_.value(),
        Tensor(Scalar::typed_int(*options_.gradient_accumulation_steps, DType::Int64)));
  return iterations_.value();
}

Tensor Optimizer::local_step(DType dtype, int offset) const {
  return ops::cast(ops::add(step_count(), Tensor(Scalar::typed_int(offset, DType::Int64))), dtype);
}

void Optimizer::apply_gradients(const std::vector<std::pair<Tensor, Variable>>& grads_and_vars) {
  std::vector<Tensor> grads;
  std::vector<Variable> vars;
  for (const auto& [g, v] : grads_and_vars) {
    grads.push_back(g);
    vars.push_back(v);
  }
  apply(grads, vars);
}

void Optimizer::apply(const std::vector<Tensor>& grads) {
  if (grads.empty()) return;
  check(built_,
        "When passing `grads` without `variables`, the optimizer must already be built on a "
        "list of variables. Call `optimizer.build(trainable_variables)` first.");
  check(grads.size() == trainable_variables_.size(),
        "When passing `grads` as a list of gradient tensors, the gradients must match the "
        "optimizer's variables one-to-one. Received a list of ",
        grads.size(), " gradients, but the optimizer is tracking ", trainable_variables_.size(),
        " trainable variables.");
  std::vector<size_t> indices(grads.size());
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  apply_indexed(grads, std::move(indices));
}

void Optimizer::apply(const std::vector<Tensor>& grads, const std::vector<Variable>& vars) {
  check(grads.size() == vars.size(), "Optimizer '", name_, "': got ", grads.size(),
        " gradients for ", vars.size(), " variables; they must pair up one to one.");
  if (grads.empty()) return;
  if (!built_) build(vars);
  std::vector<size_t> indices;
  indices.reserve(vars.size());
  for (const Variable& v : vars) indices.push_back(index_of(v));
  apply_indexed(grads, std::move(indices));
}

void Optimizer::apply_indexed(std::vector<Tensor> grads, std::vector<size_t> indices) {
  NoGradScope no_grad;  // updates are never part of a gradient computation
  // Filter empty gradients (Keras warns about them; none at all is an error).
  std::vector<Tensor> kept;
  std::vector<size_t> kept_indices;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) continue;
    const Variable& var = trainable_variables_[indices[i]];
    check(grads[i].shape() == var.shape(), "Optimizer '", name_, "': the gradient for '",
          var.path(), "' has shape ", grads[i].shape(), " but the variable has shape ", var.shape(),
          ".");
    // Keras's optimizers apply JAX's complex gradient dL/dx - i dL/dy as they would a real one,
    // which moves the imaginary parts uphill; rather than train them wrong, keras-cpp refuses.
    check<TypeError>(!is_complex(grads[i].dtype()), "Optimizer '", name_, "': the variable '",
                     var.path(), "' is ", dtype_name(grads[i].dtype()),
                     ", and optimizers do not update complex variables (a step along JAX's "
                     "gradient, dL/dx - i dL/dy, would climb in the imaginary parts). Train its "
                     "real and imaginary parts as float variables and join them with "
                     "ops::view_as_complex(ops::stack({re, im}, -1)), or make it non-trainable.");
    check(is_floating(grads[i].dtype()), "Optimizer '", name_, "': the gradient for '", var.path(),
          "' must be floating point; got ", dtype_name(grads[i].dtype()), ".");
    kept.push_back(grads[i]);
    kept_indices.push_back(indices[i]);
  }
  check(!kept.empty(), "No gradients provided for any variable.");
  grads = std::move(kept);
  indices = std::move(kept_indices);
  // With accumulation, whether this step applies: one host read of `iterations` per step.
  const std::optional<int> steps = options_.gradient_accumulation_steps;
  const bool is_update_step = steps && (iterations_.value().item<int64_t>() + 1) % *steps == 0;
  overwrite_with_gradients(grads, indices, is_update_step);
  if (grads.empty()) {  // only overwritten variables: no update step, the counter still moves
    iterations_.assign(ops::add(iterations_.value(), Tensor(Scalar::typed_int(1, DType::Int64))));
    return;
  }

  if (options_.loss_scale_factor)
    for (Tensor& g : grads) g = ops::divide(g, *options_.loss_scale_factor);

  const Tensor lr = learning_rate_tensor();
  if (steps) {
    if (is_update_step) {
      for (size_t i = 0; i < grads.size(); ++i)
        grads[i] = ops::divide(ops::add(ops::cast(grads[i], accumulators_[indices[i]].dtype()),
                                        accumulators_[indices[i]].value()),
                               static_cast<double>(*steps));
      grads = clip_gradients(grads);
      apply_weight_decay(indices, lr);
      update_all(grads, indices, lr);
      for (Variable& acc : accumulators_) acc.assign(ops::zeros_like(acc.value()));
    } else {
      for (size_t i = 0; i < grads.size(); ++i)
        accumulators_[indices[i]].assign(
            ops::add(ops::cast(grads[i], accumulators_[indices[i]].dtype()),
                     accumulators_[indices[i]].value()));
    }
  } else {
    grads = clip_gradients(grads);
    apply_weight_decay(indices, lr);
    update_all(grads, indices, lr);
  }

  if (options_.use_ema) {
    update_moving_averages();
    if (options_.ema_overwrite_frequency) {
      const int64_t step = step_count().item<int64_t>();
      if ((step + 1) % *options_.ema_overwrite_frequency == 0)
        overwrite_with_averages(trainable_variables_, "ema_overwrite_frequency");
    }
  }
  for (size_t index : indices) {
    Variable& var = trainable_variables_[index];
    if (var.constraint()) var.assign(var.constraint()(var.value()));
  }
  iterations_.assign(ops::add(iterations_.value(), Tensor(Scalar::typed_int(1, DType::Int64))));
}

void Optimizer::overwrite_with_gradients(std::vector<Tensor>& grads, std::vector<size_t>& indices,
                                         bool is_update_step) {
  std::vector<Tensor> kept;
  std::vector<size_t> kept_indices;
  const std::optional<int> steps = options_.gradient_accumulation_steps;
  for (size_t i = 0; i < grads.size(); ++i) {
    Variable& var = trainable_variables_[indices[i]];
    if (!var.overwrite_with_gradient()) {
      kept.push_back(grads[i]);
      kept_indices.push_back(indices[i]);
      continue;
    }
    if (!steps) {
      var.assign(grads[i]);
      continue;
    }
    // Accumulated as a running maximum (the amax histories' and scales' meaning), assigned
    // on the update step.
    Variable& acc = accumulators_[indices[i]];
    Tensor most = ops::maximum(ops::cast(grads[i], acc.dtype()), acc.value());
    if (is_update_step) {
      var.assign(most);
      acc.assign(ops::zeros_like(acc.value()));
    } else {
      acc.assign(most);
    }
  }
  grads = std::move(kept);
  indices = std::move(kept_indices);
}

void Optimizer::update_all(const std::vector<Tensor>& grads, const std::vector<size_t>& indices,
                           const Tensor& lr) {
  for (size_t i = 0; i < grads.size(); ++i)
    update_step(grads[i], trainable_variables_[indices[i]], indices[i], lr);
}

std::vector<Tensor> Optimizer::clip_gradients(const std::vector<Tensor>& grads) const {
  if (options_.clipnorm && *options_.clipnorm > 0) {
    const double clipnorm = *options_.clipnorm;
    std::vector<Tensor> out;
    for (const Tensor& g : grads) {
      Tensor l2sum = ops::sum(ops::square(g), {}, /*keepdims=*/true);
      Tensor pred = ops::greater(l2sum, 0.0);
      Tensor l2sum_safe = ops::where(pred, l2sum, ops::ones_like(l2sum));
      Tensor l2norm = ops::where(pred, ops::sqrt(l2sum_safe), l2sum);
      out.push_back(ops::divide(ops::multiply(g, clipnorm), ops::maximum(l2norm, clipnorm)));
    }
    return out;
  }
  if (options_.global_clipnorm && *options_.global_clipnorm > 0) {
    const double clip = *options_.global_clipnorm;
    std::vector<Tensor> squared;
    for (const Tensor& g : grads) squared.push_back(ops::sum(ops::square(g)));
    Tensor norm = ops::sqrt(ops::sum(ops::stack(squared)));
    Tensor scale_for_finite = ops::multiply(clip, ops::minimum(ops::divide(1.0, norm), 1.0 / clip));
    // NaN when the norm is not finite, as in Keras.
    Tensor scale = ops::add(scale_for_finite, ops::subtract(norm, norm));
    std::vector<Tensor> out;
    for (const Tensor& g : grads) out.push_back(ops::multiply(g, ops::cast(scale, g.dtype())));
    return out;
  }
  if (options_.clipvalue && *options_.clipvalue > 0) {
    const double v = *options_.clipvalue;
    std::vector<Tensor> out;
    for (const Tensor& g : grads) out.push_back(ops::clip(g, -v, v));
    return out;
  }
  return grads;
}

void Optimizer::apply_weight_decay(const std::vector<size_t>& indices, const Tensor& lr) {
  if (!options_.weight_decay) return;
  for (size_t index : indices)
    if (use_weight_decay(index)) decay_variable(index, *options_.weight_decay, lr);
}

void Optimizer::decay_variable(size_t index, double weight_decay, const Tensor& lr) {
  Variable& var = trainable_variables_[index];
  Tensor lr_cast = ops::cast(lr, var.dtype());
  Tensor wd_cast = ops::full({}, weight_decay, var.dtype());
  var.assign(
      ops::subtract(var.value(), ops::multiply(ops::multiply(var.value(), wd_cast), lr_cast)));
}

// ---- EMA -----------------------------------------------------------------------------------

void Optimizer::update_moving_averages() {
  // Chosen on the device, not by reading the step count on the host, so the step compiles.
  const Tensor not_first_step = ops::not_equal(step_count(), 0);
  for (size_t i = 0; i < trainable_variables_.size(); ++i) {
    const Variable& var = trainable_variables_[i];
    if (!averages_[i].defined()) continue;  // an overwritten variable has none
    Tensor momentum = ops::where(not_first_step, ops::full({}, options_.ema_momentum, var.dtype()),
                                 ops::full({}, 0.0, var.dtype()));
    averages_[i].assign(ops::add(ops::multiply(momentum, averages_[i].value()),
                                 ops::multiply(ops::subtract(1.0, momentum), var.value())));
  }
}

void Optimizer::overwrite_with_averages(const std::vector<Variable>& vars, const char* caller) {
  check(vars.size() == averages_.size(), caller, ": the length of model variables (", vars.size(),
        ") to override does not match the length of model variables stored in the "
        "optimizer (",
        averages_.size(),
        "). Please check if the optimizer was called on your "
        "model.");
  for (size_t i = 0; i < vars.size(); ++i) {
    Variable v = vars[i];
    if (averages_[i].defined()) v.assign(averages_[i].value());
  }
}

void Optimizer::swap_ema_weights(const std::vector<Variable>& vars) {
  check(options_.use_ema,
        "SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. Received: "
        "use_ema=False for optimizer '",
        name_, "'.");
  check(built_, "swap_ema_weights: optimizer '", name_, "' has not been built yet.");
  check(vars.size() == averages_.size(), "swap_ema_weights: got ", vars.size(),
        " variables, but the optimizer keeps ", averages_.size(), " moving averages.");
  for (size_t i = 0; i < vars.size(); ++i) {
    if (!averages_[i].defined()) continue;
    Variable v = vars[i];
    Tensor old = v.value();
    v.assign(averages_[i].value());
    averages_[i].assign(old);
  }
}

void Optimizer::finalize_variable_values(const std::vector<Variable>& vars) {
  if (options_.use_ema && built_) overwrite_with_averages(vars, "finalize_variable_values");
}

// ---- stateless -----------------------------------------------------------------------------

std::pair<std::vector<Tensor>, std::vector<Tensor>> Optimizer::stateless_apply(
    const std::vector<Tensor>& optimizer_variables, const std::vector<Tensor>& grads,
    const std::vector<Tensor>& trainable_variables) {
  check(built_, "To call `stateless_apply`, ", class_name(),
        " must be built (i.e. its variables must have been created). You can build it via "
        "`optimizer.build(trainable_variables)`.");
  check(optimizer_variables.size() == variables_.size(),
        "Argument `optimizer_variables` must be a list of tensors corresponding 1:1 to ",
        class_name(), "().variables. Received list with length ", optimizer_variables.size(),
        ", but expected ", variables_.size(), " variables.");
  check(trainable_variables.size() == trainable_variables_.size(),
        "Argument `trainable_variables` must be a list of tensors corresponding 1:1 to the "
        "trainable variables list that the optimizer was built with. Received "
        "len(trainable_variables) == ",
        trainable_variables.size(), " whereas the optimizer was built with ",
        trainable_variables_.size(), " variables.");
  // Run apply() on the given values, then put every variable back (values read before an
  // assign never change, so holding them is enough to restore).
  std::vector<Variable> all = trainable_variables_;
  all.insert(all.end(), variables_.begin(), variables_.end());
  std::vector<Tensor> saved;
  for (const Variable& v : all) saved.push_back(v.value());
  struct Restore {
    std::vector<Variable>& vars;
    std::vector<Tensor>& values;
    ~Restore() {
      for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(values[i]);
    }
  } restore{all, saved};
  for (size_t i = 0; i < trainable_variables.size(); ++i) all[i].assign(trainable_variables[i]);
  for (size_t i = 0; i < optimizer_variables.size(); ++i)
    all[trainable_variables.size() + i].assign(optimizer_variables[i]);
  apply(grads);
  std::vector<Tensor> new_trainable, new_optimizer;
  for (const Variable& v : trainable_variables_) new_trainable.push_back(v.value());
  for (const Variable& v : variables_) new_optimizer.push_back(v.value());
  return {new_trainable, new_optimizer};
}

// ---- config --------------------------------------------------------------------------------

Config Optimizer::get_config() const {
  Config lr = schedule_ ? schedules::serialize(schedule_) : Config(learning_rate());
  return {{"name", name_},
          {"learning_rate", lr},
          {"weight_decay", optional_number(options_.weight_decay)},
          {"clipnorm", optional_number(options_.clipnorm)},
          {"global_clipnorm", optional_number(options_.global_clipnorm)},
          {"clipvalue", optional_number(options_.clipvalue)},
          {"use_ema", options_.use_ema},
          {"ema_momentum", options_.ema_momentum},
          {"ema_overwrite_frequency", optional_int(options_.ema_overwrite_frequency)},
          {"loss_scale_factor", optional_number(options_.loss_scale_factor)},
          {"gradient_accumulation_steps", optional_int(options_.gradient_accumulation_steps)}};
}

}  // namespace keras::optimizers
