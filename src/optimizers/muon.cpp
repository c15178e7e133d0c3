// keras.optimizers.Muon (keras/src/optimizers/muon.py): Nesterov momentum orthogonalized by a
// quintic Newton-Schulz iteration for 2-D variables, Keras's AdamW step for the others, and
// two weight decay rates (weight_decay for Muon variables, adam_weight_decay for AdamW ones).

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>

#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "keras/optimizers/optimizers.h"
#include "optimizers/builtin_support.h"

namespace keras::optimizers {
namespace {

/// The path Keras matches (variable.path); a slot's fallback when a variable has none.
std::string path_of(const Variable& var) {
  return var.path().empty() ? var.name() : var.path();
}

std::string muon_lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Config muon_optional_number(const std::optional<double>& v) {
  return v ? Config(*v) : Config(nullptr);
}

}  // namespace

Muon::Muon(MuonOptions options)
    : Optimizer("Muon", options.learning_rate, builtin::common_options(options)),
      o_(std::move(options)) {
  check(std::isfinite(o_.epsilon), "Muon: `epsilon` must be a finite number; got ", o_.epsilon,
        ".");
  check(o_.ns_steps >= 0, "Muon: `ns_steps` must be an integer >= 0; got ", o_.ns_steps, ".");
  if (o_.adam_weight_decay)
    check(std::isfinite(*o_.adam_weight_decay) && *o_.adam_weight_decay >= 0,
          "Muon: `adam_weight_decay` must be a finite number >= 0 or unset; got ",
          *o_.adam_weight_decay, ".");
  for (const std::string& pattern : o_.exclude_layers) {
    try {
      std::regex compiled(pattern);
    } catch (const std::regex_error& e) {
      throw ValueError(detail::cat("Muon: `exclude_layers` entry '", pattern,
                                   "' is not a valid regular expression (", e.what(),
                                   "). Pass layer-name keywords or ECMAScript regexes."));
    }
  }
}
Muon::Muon(LearningRate learning_rate)
    : Muon(builtin::with_learning_rate<MuonOptions>(learning_rate)) {}

bool Muon::uses_adamw(const Variable& var) const {
  if (var.shape().size() != 2) return true;
  const std::string path = path_of(var);
  if (o_.exclude_embeddings && muon_lower(path).find("embedding") != std::string::npos) return true;
  return std::any_of(
      o_.exclude_layers.begin(), o_.exclude_layers.end(),
      [&](const std::string& pattern) { return std::regex_search(path, std::regex(pattern)); });
}

void Muon::build_slots(const std::vector<Variable>& vars) {
  // Keras's order: each variable's momentum, then its velocity when AdamW updates it.
  momentums_.assign(vars.size(), Variable());
  velocities_.assign(vars.size(), Variable());
  for (size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].overwrite_with_gradient()) continue;
    momentums_[i] = add_variable_from_reference(vars[i], "momentum");
    if (uses_adamw(vars[i])) velocities_[i] = add_variable_from_reference(vars[i], "velocity");
  }
}

void Muon::update_step(const Tensor& grad, const Variable& var, size_t index, const Tensor& lr) {
  // A velocity marks an AdamW variable.
  if (velocities_[index].defined()) {
    const DType dt = var.dtype();
    builtin::adam_step(ops::cast(grad, dt), ops::cast(ops::multiply(lr, o_.adam_lr_ratio), dt),
                       local_step(dt), o_.adam_beta_1, o_.adam_beta_2, o_.epsilon,
                       momentums_[index], velocities_[index], nullptr, var);
  } else {
    muon_step(grad, var, momentums_[index], lr);
  }
}

void Muon::muon_step(const Tensor& grad, const Variable& var, Variable& m, const Tensor& lr) {
  const Tensor g = ops::cast(grad, var.dtype());
  // m = momentum * m + g, written as Keras does: m += g + m * (momentum - 1).
  m.assign_add(ops::add(g, ops::multiply(m.value(), o_.momentum - 1)));
  Tensor direction = o_.nesterov ? ops::add(g, ops::multiply(o_.momentum, m.value())) : m.value();
  Tensor update = ops::multiply(lr, newton_schulz(direction));
  if (o_.rms_rate) {
    // Moonlight's scale, so that Muon can share AdamW's learning rate and weight decay.
    const Shape& s = update.shape();
    const double larger = static_cast<double>(std::max(s[0], s[1]));
    update = ops::multiply(ops::multiply(update, std::sqrt(larger)), *o_.rms_rate);
  }
  Variable target = var;
  target.assign_sub(ops::cast(update, var.dtype()));
}

Tensor Muon::newton_schulz(Tensor x) const {
  // Works on the wide orientation (rows <= cols), so X X^T is the smaller Gram matrix.
  const bool tall = x.shape()[0] > x.shape()[1];
  if (tall) x = ops::transpose(x);
  x = ops::divide(x, ops::add(ops::norm(x), 1e-7));  // spectral norm <= Frobenius norm <= 1
  for (int i = 0; i < o_.ns_steps; ++i) {
    Tensor gram = ops::matmul(x, ops::transpose(x));
    Tensor poly =
        ops::add(ops::multiply(o_.muon_b, gram), ops::matmul(ops::multiply(o_.muon_c, gram), gram));
    x = ops::add(ops::multiply(o_.muon_a, x), ops::matmul(poly, x));
  }
  return tall ? ops::transpose(x) : x;
}

void Muon::apply_weight_decay(const std::vector<size_t>& indices, const Tensor& lr) {
  // Keras's Muon decays even without weight_decay: each variable by its own branch's rate.
  for (size_t index : indices) {
    if (!use_weight_decay(index)) continue;
    const std::optional<double>& rate =
        velocities_[index].defined() ? o_.adam_weight_decay : o_.weight_decay;
    if (rate) decay_variable(index, *rate, lr);
  }
}

Config Muon::get_config() const {
  Config c = Optimizer::get_config();
  c["adam_beta_1"] = o_.adam_beta_1;
  c["adam_beta_2"] = o_.adam_beta_2;
  c["epsilon"] = o_.epsilon;
  c["exclude_layers"] = o_.exclude_layers;
  c["muon_a"] = o_.muon_a;
  c["muon_b"] = o_.muon_b;
  c["muon_c"] = o_.muon_c;
  c["adam_lr_ratio"] = o_.adam_lr_ratio;
  c["momentum"] = o_.momentum;
  c["ns_steps"] = o_.ns_steps;
  c["nesterov"] = o_.nesterov;
  c["exclude_embeddings"] = o_.exclude_embeddings;
  c["adam_weight_decay"] = muon_optional_number(o_.adam_weight_decay);
  c["rms_rate"] = muon_optional_number(o_.rms_rate);
  return c;
}

}  // namespace keras::optimizers
