#pragma once
// What the control-flow helpers share: loop state that keeps its structure across iterations,
// host-read predicates, and slicing along the leading axis with one gradient node.

#include <functional>
#include <optional>
#include <string_view>

#include "keras/core/errors.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// ValueError naming `op` and the argument `name` when the callable `fn` is empty.
template <typename Fn>
void require_callable(std::string_view op, std::string_view name, const Fn& fn) {
  check(static_cast<bool>(fn), op, ": `", name, "` is an empty function.");
}

/// The tensors as loop state: each defined (ValueError naming `op` and `what` otherwise), C++
/// literals made into tensors of their default dtype.
TensorList loop_state(std::string_view op, std::string_view what, const TensorList& values);

/// ValueError naming `op` unless `after` has the length of `before` and each entry its shape
/// and dtype; `what` names the entries ("loop variable", "carry") and `step` the iteration.
void check_same_state(std::string_view op, std::string_view what, const TensorList& before,
                      const TensorList& after, int64_t step);

/// The value of a predicate tensor read on the host: one element, nonzero is true.
bool host_predicate(std::string_view op, const Tensor& pred);

/// The entries' i-th values stacked along a new leading axis: stack([steps[0][i], ...]) for
/// every i. `op` names the caller in the error for outputs whose shapes differ across steps.
TensorList stack_steps(std::string_view op, const std::vector<TensorList>& steps);

// ---- under keras::jit (ops/core/traced_control_flow.cpp) ----------------------------------

/// cond recorded as a branch of the step being traced on this thread; nullopt when none is.
std::optional<TensorList> traced_cond(const Tensor& pred,
                                      const std::function<TensorList()>& true_fn,
                                      const std::function<TensorList()>& false_fn);

/// while_loop (over loop variables already checked by loop_state) recorded as a loop of the
/// step being traced on this thread; nullopt when none is, or when the trace gives up on it
/// (the caller then runs the loop eagerly).
std::optional<TensorList> traced_while_loop(
    const std::function<Tensor(const TensorList&)>& cond,
    const std::function<TensorList(const TensorList&)>& body, const TensorList& loop_vars,
    std::optional<int64_t> maximum_iterations);

}  // namespace keras::ops::detail
