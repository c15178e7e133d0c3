#pragma once
// What the built-in optimizers' source files share: the options struct's common part as the
// base's OptimizerOptions, and Keras's Adam update (Adam, AdamW and Muon's AdamW branch).

#include <utility>

#include "keras/optimizers/optimizer.h"

namespace keras::optimizers::builtin {

template <typename O>
OptimizerOptions common_options(const O& o) {
  OptimizerOptions c;
  c.weight_decay = o.weight_decay;  // a double (AdamW) or an optional
  c.clipnorm = o.clipnorm;
  c.clipvalue = o.clipvalue;
  c.global_clipnorm = o.global_clipnorm;
  c.use_ema = o.use_ema;
  c.ema_momentum = o.ema_momentum;
  c.ema_overwrite_frequency = o.ema_overwrite_frequency;
  c.loss_scale_factor = o.loss_scale_factor;
  c.gradient_accumulation_steps = o.gradient_accumulation_steps;
  c.name = o.name;
  return c;
}

/// An options struct with its defaults but `lr`.
template <typename O>
O with_learning_rate(LearningRate lr) {
  O o;
  o.learning_rate = std::move(lr);
  return o;
}

/// Keras's Adam step on `target` (adam.py): m and v move toward g and g^2, then
/// target -= m * lr * sqrt(1 - beta_2^t) / (1 - beta_1^t) / (sqrt(v) + epsilon), with v
/// replaced by its running maximum `v_hat` when given (amsgrad). `g`, `lr` and `step` (t) are
/// in the target's dtype.
void adam_step(const Tensor& g, const Tensor& lr, const Tensor& step, double beta_1, double beta_2,
               double epsilon, Variable& m, Variable& v, Variable* v_hat, Variable target);

}  // namespace keras::optimizers::builtin
