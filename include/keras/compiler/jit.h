#pragma once
// keras::jit: run a function over tensors eagerly once per input signature while recording the
// backend calls it makes, check a second recording against the first, then replay the checked
// program on every later call: no front end, no autograd bookkeeping, constant and dead work
// removed, the function's own buffers planned into one arena (Keras's jit_compile, jax.jit).
//
// What a replay sees of the world: the function's inputs (copied in), the variables it reads
// and assigns (updated in place), random draws (fresh numbers from the same generators, as the
// eager call would take). Anything else the function does on the host (a branch on a tensor's
// value, a counter it keeps) cannot replay: such a function runs eagerly, with one warning that
// names the reason and the layer.

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras {

/// A function compiled by keras::jit. Copies share one cache of programs.
class CompiledFunction {
 public:
  /// The function type: a list of tensors in, a list of tensors out.
  using Function = std::function<TensorList(const TensorList&)>;

  CompiledFunction() = default;
  /// Compiles `fn`, as jit() does; `name` appears in warnings.
  explicit CompiledFunction(Function fn, std::string name = "function");

  /// Calls the function. The signature is every input's backend, dtype and shape plus
  /// `static_key` (what else the function depends on: a training flag, a structure). A new
  /// signature runs eagerly twice (the traces), then replays. The 32 most recently used
  /// signatures keep their programs; an older one traces again when it returns. Inside another
  /// trace the function simply runs, as part of the outer one; so does a call made while a
  /// GradientTape records (value_and_grad around it), so that its results carry gradients as
  /// jax.grad(jax.jit(f)) gives them; and every call when the environment variable
  /// KERAS_DISABLE_JIT is set (to anything but "" "0" "false"; JAX_DISABLE_JIT's role, read
  /// once per process). Thread-safe: calls of a signature whose program assigns no variable
  /// and draws no random numbers (an inference step) replay at the same time, each on its own
  /// copy of the program (one more is traced when every copy is busy); other calls are
  /// serialized.
  TensorList operator()(const TensorList& inputs, std::string_view static_key = {}) const;

  /// Signatures traced so far (tf.function's tracing count): 1 after any number of calls with
  /// one signature.
  int64_t tracing_count() const;
  /// Calls answered by replaying a program.
  int64_t replay_count() const;
  /// Why the last signature that gave up runs eagerly; empty when none did.
  std::string fallback_reason() const;

  /// Whether it holds a function (false for a default-constructed one).
  bool defined() const { return static_cast<bool>(state_); }

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// Compiles `fn` (see CompiledFunction). `name` appears in warnings.
CompiledFunction jit(CompiledFunction::Function fn, std::string name = "function");

}  // namespace keras

#pragma GCC visibility pop
