#include "keras/autograd/gradient_tape.h"

#include "autograd/state.h"
#include "keras/autograd/node.h"
#include "keras/ops/ops.h"

namespace keras {

GradientTape::GradientTape(bool persistent) : persistent_(persistent) {
  depth_ = ++autograd::state().active_tapes;
}

GradientTape::~GradientTape() {
  if (active_) --autograd::state().active_tapes;
}

void GradientTape::watch(Tensor& x) { autograd::make_leaf(x); }

void GradientTape::watch(std::vector<Tensor>& xs) {
  for (Tensor& x : xs) autograd::make_leaf(x);
}

std::vector<Tensor> GradientTape::gradient(const Tensor& target,
                                           const std::vector<Tensor>& sources,
                                           const Tensor& output_gradient,
                                           UnconnectedGradients unconnected) {
  check<RuntimeError>(!used_ || persistent_,
                      "A non-persistent GradientTape can only be used to compute one set of "
                      "gradients. Create it with GradientTape(/*persistent=*/true) to call "
                      "gradient() more than once.");
  check(target.defined(), "GradientTape::gradient: the target is an undefined tensor.");
  used_ = true;
  // Record the gradient computation itself when an outer tape is watching (higher order).
  int others = autograd::state().active_tapes - (active_ ? 1 : 0);
  bool create_graph = others > 0 && autograd::state().grad_mode;
  Tensor roots[1] = {target};
  Tensor seeds[1] = {output_gradient};
  return autograd::backward(roots, seeds, sources, create_graph, unconnected);
}

Tensor GradientTape::gradient(const Tensor& target, const Tensor& source) {
  return gradient(target, std::vector<Tensor>{source})[0];
}

std::vector<Tensor> GradientTape::gradient(const Tensor& target,
                                           const std::vector<Variable>& sources,
                                           UnconnectedGradients unconnected) {
  std::vector<Tensor> values;
  values.reserve(sources.size());
  for (const Variable& v : sources) values.push_back(v.value());
  return gradient(target, values, Tensor(), unconnected);
}

Tensor GradientTape::gradient(const Tensor& target, const Variable& source) {
  return gradient(target, std::vector<Variable>{source})[0];
}

Tensor GradientTape::jacobian(const Tensor& target, const Tensor& source) {
  check<RuntimeError>(persistent_,
                      "GradientTape::jacobian needs a persistent tape: GradientTape(true).");
  const int64_t n = target.size();
  std::vector<Tensor> rows;
  rows.reserve(static_cast<size_t>(n));
  std::vector<double> one_hot(static_cast<size_t>(n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    // Row i: the gradient of target element i.
    one_hot[static_cast<size_t>(i)] = 1.0;
    Tensor seed = ops::cast(Tensor::from_vector(one_hot, target.shape(), target.backend_name()),
                            target.dtype());
    one_hot[static_cast<size_t>(i)] = 0.0;
    rows.push_back(gradient(target, std::vector<Tensor>{source}, seed)[0]);
  }
  Shape out_shape = target.shape();
  for (int64_t d : source.shape()) out_shape.push_back(d);
  if (rows.empty()) return ops::zeros(out_shape, source.dtype());
  return ops::reshape(ops::stack(rows), out_shape);
}

NoGradScope::NoGradScope() : previous_(autograd::state().grad_mode) {
  autograd::state().grad_mode = false;
}

NoGradScope::~NoGradScope() { autograd::state().grad_mode = previous_; }

ValueAndGrads value_and_grad(const std::function<Tensor()>& fn,
                             const std::vector<Variable>& variables) {
  GradientTape tape;
  Tensor value = fn();
  std::vector<Tensor> grads = tape.gradient(value, variables);
  // Hand back the value detached, so the graph is freed now rather than when the caller drops
  // the loss (and the optimizer can then update the variables in place).
  return {ops::stop_gradient(value), std::move(grads)};
}

ValueAndGrads value_and_grad(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                             const std::vector<Tensor>& inputs) {
  GradientTape tape;
  std::vector<Tensor> sources;
  sources.reserve(inputs.size());
  for (const Tensor& x : inputs) {
    if (x.requires_grad()) {
      // Already part of an outer computation: keep the link, so grad(grad(f)) composes.
      sources.push_back(x);
    } else {
      // Watch a fresh alias, so the caller's tensor is not marked.
      Tensor alias = ops::stop_gradient(x);
      tape.watch(alias);
      sources.push_back(alias);
    }
  }
  Tensor value = fn(sources);
  std::vector<Tensor> grads = tape.gradient(value, sources);
  return {ops::stop_gradient(value), std::move(grads)};
}

std::vector<Tensor> grad(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                         const std::vector<Tensor>& inputs) {
  return value_and_grad(fn, inputs).grads;
}

Tensor grad(const std::function<Tensor(const Tensor&)>& fn, const Tensor& x) {
  return value_and_grad([&](const std::vector<Tensor>& xs) { return fn(xs[0]); },
                        std::vector<Tensor>{x})
      .grads[0];
}

namespace autograd {
bool grad_mode_enabled() { return state().grad_mode; }
int active_tapes() { return state().active_tapes; }
}  // namespace autograd

}  // namespace keras
