#pragma once
// Reverse-mode differentiation, one mechanism for every backend: keras::GradientTape (as in
// TensorFlow), keras::value_and_grad and keras::grad (as in JAX), keras::NoGradScope.
//
// Ops record only while a tape is active on the calling thread and grad mode is on, and only
// when an input needs a gradient: inference records nothing.

#include <functional>
#include <initializer_list>
#include <vector>

#include "keras/autograd/variable.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras {

/// What gradient() returns for a source the target does not depend on.
enum class UnconnectedGradients { Zero, None };

/// Records the ops run while it is alive, then differentiates through them.
///
///   keras::GradientTape tape;
///   tape.watch(x);
///   auto y = ops::sum(ops::square(x));
///   auto dy_dx = tape.gradient(y, x);
///
/// Trainable variables are watched automatically. Tapes nest: a gradient computed inside an
/// outer tape is recorded by it, which gives higher-order gradients.
class GradientTape {
 public:
  /// Starts recording on this thread (tf.GradientTape).
  /// A non-persistent tape allows one gradient() call (RuntimeError on the second); a persistent
  /// one allows any number, and jacobian().
  explicit GradientTape(bool persistent = false);
  ~GradientTape();
  GradientTape(const GradientTape&) = delete;
  GradientTape& operator=(const GradientTape&) = delete;

  /// Marks `x` as a source: ops on it are recorded from now on.
  void watch(Tensor& x);
  /// Marks each of `xs` as a source.
  void watch(std::vector<Tensor>& xs);

  /// d target / d source for each source (gradients of a non-scalar target are summed over
  /// its elements, as TensorFlow does). `output_gradient` seeds the backward pass when given.
  std::vector<Tensor> gradient(const Tensor& target, const std::vector<Tensor>& sources,
                               const Tensor& output_gradient = Tensor(),
                               UnconnectedGradients unconnected = UnconnectedGradients::Zero);
  /// d target / d source for one source.
  Tensor gradient(const Tensor& target, const Tensor& source);
  /// A braced list of sources, `tape.gradient(loss, {x})`, gives a list of gradients (without
  /// this overload `{x}` would pick the single-tensor form above and return one tensor).
  std::vector<Tensor> gradient(const Tensor& target, std::initializer_list<Tensor> sources) {
    return gradient(target, std::vector<Tensor>(sources));
  }
  /// d target / d variable for each of `sources`; `unconnected` as for tensors.
  std::vector<Tensor> gradient(const Tensor& target, const std::vector<Variable>& sources,
                               UnconnectedGradients unconnected = UnconnectedGradients::Zero);
  /// d target / d variable for one variable.
  Tensor gradient(const Tensor& target, const Variable& source);
  /// `tape.gradient(loss, {w})` gives a list, as for tensors.
  std::vector<Tensor> gradient(const Tensor& target, std::initializer_list<Variable> sources) {
    return gradient(target, std::vector<Variable>(sources));
  }

  /// Jacobian of `target` with respect to `source`: shape target.shape + source.shape.
  /// Needs a persistent tape.
  Tensor jacobian(const Tensor& target, const Tensor& source);

 private:
  bool persistent_;
  bool used_ = false;
  bool active_ = true;
  int depth_;
};

/// Disables recording on this thread while alive (for inference and optimizer updates).
class NoGradScope {
 public:
  NoGradScope();
  ~NoGradScope();
  NoGradScope(const NoGradScope&) = delete;
  NoGradScope& operator=(const NoGradScope&) = delete;

 private:
  bool previous_;
};

/// The value of fn() and its gradients with respect to `variables`.
struct ValueAndGrads {
  /// fn()'s result.
  Tensor value;
  /// The gradients, one per variable (or input), in order.
  std::vector<Tensor> grads;
};

/// Runs fn under a tape and differentiates its (scalar) result with respect to `variables`:
///   auto [loss, grads] = keras::value_and_grad([&] { return loss_fn(); }, {w, b});
ValueAndGrads value_and_grad(const std::function<Tensor()>& fn,
                             const std::vector<Variable>& variables);
/// The same with respect to tensors, passed to fn in order.
ValueAndGrads value_and_grad(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                             const std::vector<Tensor>& inputs);
/// Only the gradients.
std::vector<Tensor> grad(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                         const std::vector<Tensor>& inputs);
/// Gradient of a function of one tensor: grad(f)(x) in JAX.
Tensor grad(const std::function<Tensor(const Tensor&)>& fn, const Tensor& x);

namespace autograd {

/// Whether ops record on this thread (false inside NoGradScope).
bool grad_mode_enabled();
/// Number of GradientTapes alive on this thread.
int active_tapes();

/// The backward pass over the recorded graph: gradients of `roots` (seeded with
/// `root_grads`, ones when undefined) with respect to `sources`. Builds a differentiable
/// graph of the gradient computation when `create_graph`.
std::vector<Tensor> backward(std::span<const Tensor> roots, std::span<const Tensor> root_grads,
                             std::span<const Tensor> sources, bool create_graph,
                             UnconnectedGradients unconnected);

}  // namespace autograd
}  // namespace keras

#pragma GCC visibility pop
