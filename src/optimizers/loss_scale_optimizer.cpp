// keras.optimizers.LossScaleOptimizer (keras/src/optimizers/loss_scale_optimizer.py).
//
// Keras chooses between the finite and the non-finite step with ops.cond; here both outcomes
// are computed and the finite flag selects between them on the device (ops::where), so that a
// compiled train step (keras::jit) replays it without reading the flag on the host.

#include "keras/optimizers/loss_scale_optimizer.h"

#include <cmath>

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"

namespace keras::optimizers {

LossScaleOptimizer::LossScaleOptimizer(OptimizerPtr inner_optimizer,
                                       LossScaleOptimizerOptions options)
    : Optimizer("LossScaleOptimizer", 0.0, OptimizerOptions{.name = options.name}),
      inner_(std::move(inner_optimizer)),
      options_(std::move(options)) {
  check(inner_ != nullptr, "LossScaleOptimizer: `inner_optimizer` is null.");
  check(std::isfinite(options_.initial_scale) && options_.initial_scale > 0,
        "LossScaleOptimizer: `initial_scale` must be a finite number > 0; got ",
        options_.initial_scale, ".");
  check(options_.dynamic_growth_steps >= 1,
        "LossScaleOptimizer: `dynamic_growth_steps` must be an integer >= 1; got ",
        options_.dynamic_growth_steps, ".");
  check(!inner_->options().loss_scale_factor, "LossScaleOptimizer: the inner optimizer '",
        inner_->name(), "' has loss_scale_factor=", inner_->options().loss_scale_factor.value_or(0),
        "; the LossScaleOptimizer scales the loss itself. Create the inner optimizer without it.");
}

OptimizerPtr LossScaleOptimizer::clone() const {
  LossScaleOptimizerOptions o = options_;
  o.name = name();
  return std::make_shared<LossScaleOptimizer>(inner_->clone(), o);
}

void LossScaleOptimizer::build_slots(const std::vector<Variable>& vars) {
  step_counter_ = add_variable({}, DType::Int64, "step_counter", 0.0);
  dynamic_scale_ = add_variable({}, DType::Float32, "dynamic_scale", options_.initial_scale);
  inner_->build(vars);
  for (const Variable& v : inner_->variables()) track_variable(v);
}

Tensor LossScaleOptimizer::scale_loss(const Tensor& loss) const {
  if (!built()) return ops::multiply(loss, options_.initial_scale);
  return ops::multiply(loss, dynamic_scale_.value());
}

void LossScaleOptimizer::apply_indexed(std::vector<Tensor> grads, std::vector<size_t> indices) {
  NoGradScope no_grad;
  std::vector<Tensor> kept;
  std::vector<Variable> vars;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) continue;
    kept.push_back(grads[i]);
    vars.push_back(trainable_variables()[indices[i]]);
  }
  check(!kept.empty(), "No gradients provided for any variable.");

  // check_finite: every gradient entirely finite.
  Tensor finite = ops::all(ops::isfinite(kept[0]));
  for (size_t i = 1; i < kept.size(); ++i)
    finite = ops::logical_and(finite, ops::all(ops::isfinite(kept[i])));

  // The inner step on the unscaled gradients, undone where a gradient was not finite (Keras
  // then skips the step: the model's and the inner optimizer's variables keep their values).
  const Tensor scale = dynamic_scale_.value();
  std::vector<Tensor> unscaled;
  for (size_t i = 0; i < kept.size(); ++i)  // a new value, not a gradient: kept as it is
    unscaled.push_back(vars[i].overwrite_with_gradient() ? kept[i] : ops::divide(kept[i], scale));
  std::vector<Variable> stepped = vars;
  for (const Variable& v : inner_->variables()) stepped.push_back(v);
  std::vector<Tensor> before;
  for (const Variable& v : stepped) before.push_back(v.value());
  inner_->apply(unscaled, vars);
  for (size_t i = 0; i < stepped.size(); ++i)
    stepped[i].assign(ops::where(finite, stepped[i].value(), before[i]));

  // The scale: doubled after dynamic_growth_steps finite steps in a row, halved on a
  // non-finite one; the counter restarts whenever the scale changes.
  const Tensor counter = step_counter_.value();
  const Tensor at_growth =
      ops::equal(counter, Tensor(Scalar::typed_int(options_.dynamic_growth_steps - 1, DType::Int64)));
  const Tensor zero = ops::zeros({}, DType::Int64);
  step_counter_.assign(ops::where(
      finite,
      ops::where(at_growth, zero, ops::add(counter, Tensor(Scalar::typed_int(1, DType::Int64)))),
      zero));
  const Tensor factor = ops::where(
      finite, ops::where(at_growth, ops::full({}, 2.0, DType::Float32), ops::ones({}, DType::Float32)),
      ops::full({}, 0.5, DType::Float32));
  dynamic_scale_.assign(ops::multiply(scale, factor));
}

Config LossScaleOptimizer::get_config() const {
  return {{"name", name()},
          {"inner_optimizer", serialize(*inner_)},
          {"initial_scale", options_.initial_scale},
          {"dynamic_growth_steps", options_.dynamic_growth_steps}};
}

OptimizerPtr LossScaleOptimizer::from_config(const Config& config) {
  check(config.is_object() && config.contains("inner_optimizer"),
        "LossScaleOptimizer: the config needs `inner_optimizer`; got ", config.dump(), ".");
  LossScaleOptimizerOptions o;
  std::string unknown;
  for (auto it = config.begin(); it != config.end(); ++it) {
    const std::string& key = it.key();
    const Config& v = it.value();
    if (key == "inner_optimizer") continue;
    if (key == "name" && v.is_string()) o.name = v.get<std::string>();
    else if (key == "initial_scale" && v.is_number()) o.initial_scale = v.get<double>();
    else if (key == "dynamic_growth_steps" && v.is_number_integer())
      o.dynamic_growth_steps = v.get<int>();
    else if (key == "dynamic")
      check(v.is_boolean() && v.get<bool>(),
            "LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
            "`loss_scale_factor` directly on the `inner_optimizer`.");
    else unknown += (unknown.empty() ? "" : ", ") + key + "=" + v.dump();
  }
  check(unknown.empty(), "LossScaleOptimizer does not support arguments: ", unknown, ".");
  const Config& inner = config["inner_optimizer"];
  return std::make_shared<LossScaleOptimizer>(get(inner), o);
}

}  // namespace keras::optimizers
