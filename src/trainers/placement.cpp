#include "trainers/placement.h"

#include "keras/autograd/gradient_tape.h"
#include "keras/backend/registry.h"
#include "keras/metrics/metric.h"
#include "keras/optimizers/optimizer.h"
#include "trainers/compile_state.h"

namespace keras {
namespace {

void move_variables(const std::vector<Variable>& variables, std::string_view backend) {
  for (Variable v : variables) {
    if (!v.defined() || v.value().backend_name() == backend) continue;
    NoGradScope no_grad;  // the move itself is not part of any computation
    v.exchange_value(v.value().to(backend));
    // exchange_value leaves the new value detached (it is meant for stateless calls, which swap
    // in tensors with their own history); set_trainable attaches it to the variable's gradient
    // leaf again, so tapes see the moved value as this variable.
    v.set_trainable(v.trainable());
  }
}

TensorStruct moved(const TensorStruct& s, std::string_view backend) {
  if (!s.defined()) return s;
  TensorList flat = s.flat();
  bool any = false;
  for (Tensor& t : flat) {
    if (t.defined() && t.backend_name() != backend) {
      t = t.to(backend);
      any = true;
    }
  }
  return any ? s.with_flat(flat) : s;
}

}  // namespace

void Model::to(std::string_view backend_name) {
  backend::get(backend_name);  // an unknown name is a ValueError listing the available ones
  move_variables(weights(), backend_name);
  if (compile_state_) {
    if (compile_state_->optimizer) move_variables(compile_state_->optimizer->variables(), backend_name);
    for (const auto& metric : metrics()) move_variables(metric->variables(), backend_name);
  }
}

namespace trainers {

namespace {

// The backend of the model's first weight; empty when there is none or it is symbolic.
std::string_view weights_backend(const Model& model) {
  const std::vector<Variable> weights = model.weights();
  if (weights.empty()) return {};
  const Tensor& w = weights.front().value();
  return w.backend().is_symbolic() ? std::string_view() : w.backend_name();
}

}  // namespace

WeightsBackendScope::WeightsBackendScope(const Model& model) {
  const std::string_view backend = weights_backend(model);
  if (!backend.empty()) scope_.emplace(backend);
}

StepData on_weights_backend(const Model& model, StepData data) {
  const std::string_view backend = weights_backend(model);
  if (backend.empty()) return data;
  return StepData{moved(data.x, backend), moved(data.y, backend), moved(data.sample_weight, backend)};
}

}  // namespace trainers
}  // namespace keras
