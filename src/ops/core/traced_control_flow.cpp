// cond and while_loop while keras::jit traces a step: instead of reading the predicate on the
// host (which would make the step run eagerly), they record jumps around the calls of each
// branch or loop body, so a replay takes whichever way the new values say, as jax.lax.cond and
// while_loop do in a jitted function.
//
// At trace time both branches run (the untaken one on the same inputs, its result dropped) and
// a loop body runs once even when the loop does not (its writes undone): that is how their
// calls get recorded. The values returned are the eager ones: the taken branch's, and the loop
// finished eagerly without recording. Neither may assign variables or draw random numbers (the
// trace gives up and the step runs eagerly). A cond whose result needs a gradient becomes a
// select of both branches (both run in every replay; gradients flow through the taken one, as
// ops::where's do); a while_loop whose variables need one is not traced (as in JAX, whose
// while_loop has no reverse-mode gradient): the step runs eagerly.

#include "keras/backend/registry.h"
#include "keras/backend/trace_hook.h"
#include "keras/ops/ops.h"
#include "ops/core/loop_state.h"
#include "ops/detail/op_utils.h"

namespace keras::ops::detail {
namespace {

using backend::ControlOp;
using backend::TraceObserver;

// pred as the one-element bool a JumpIfFalse reads (nonzero is true, as on the host).
Tensor bool_predicate(std::string_view op, const Tensor& pred) {
  check(pred.defined(), op, ": the predicate is an undefined tensor.");
  check(pred.size() == 1, op, ": the predicate must be a scalar (one element); got a tensor of "
        "shape ", pred.shape(), ".");
  const Tensor scalar = reshape(pred, Shape{});
  return scalar.dtype() == DType::Bool ? scalar : not_equal(scalar, zeros_like(scalar));
}

bool read_untraced(const Tensor& pred) {
  backend::UntracedScope untraced;
  return host_scalar(pred) != 0;
}

// Fresh tensors shaped as `like` (undefined where it is), on its backend.
TensorList empty_like_all(const TensorList& like) {
  TensorList out;
  for (const Tensor& t : like)
    out.push_back(t.defined() ? empty(t.shape(), t.dtype(), t.backend()) : Tensor());
  return out;
}

void copy_into(const TensorList& dst, const TensorList& src) {
  for (size_t i = 0; i < dst.size(); ++i)
    if (dst[i].defined()) dst[i].backend().copy(dst[i].array(), src[i].array());
}

bool any_requires_grad(const TensorList& list) {
  for (const Tensor& t : list)
    if (t.defined() && t.requires_grad()) return true;
  return false;
}

// "" when both branches return the same structure, else what differs.
std::string branch_mismatch(const TensorList& a, const TensorList& b) {
  if (a.size() != b.size())
    return keras::detail::cat("its branches return ", a.size(), " and ", b.size(), " tensors");
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].defined() != b[i].defined())
      return keras::detail::cat("output ", i, " of ops::cond is undefined in one branch only");
    if (a[i].defined() && (a[i].shape() != b[i].shape() || a[i].dtype() != b[i].dtype()))
      return keras::detail::cat("the branches of ops::cond return output ", i, " as ", a[i].shape(), " ",
                 a[i].dtype(), " and ", b[i].shape(), " ", b[i].dtype());
  }
  return {};
}

}  // namespace

std::optional<TensorList> traced_cond(const Tensor& pred,
                                      const std::function<TensorList()>& true_fn,
                                      const std::function<TensorList()>& false_fn) {
  TraceObserver* trace = backend::detail::front_end_observer();
  if (!trace) return std::nullopt;
  const Tensor p = bool_predicate("cond", pred);
  const bool taken = read_untraced(p);
  const int otherwise = trace->new_label(), done = trace->new_label();
  trace->on_control(ControlOp::JumpIfFalse, otherwise, &p.array());
  trace->on_region(true);
  const TensorList t = true_fn();
  const TensorList result = empty_like_all(t);
  copy_into(result, t);
  trace->on_control(ControlOp::Jump, done, nullptr);
  trace->on_control(ControlOp::Label, otherwise, nullptr);
  const TensorList f = false_fn();
  const std::string mismatch = branch_mismatch(t, f);
  if (mismatch.empty()) copy_into(result, f);
  trace->on_region(false);
  trace->on_control(ControlOp::Label, done, nullptr);
  if (!mismatch.empty()) {
    trace->on_untraceable(mismatch + " (a replay needs one)");
    return taken ? t : f;
  }
  if (any_requires_grad(t) || any_requires_grad(f)) {
    const int labels[] = {otherwise, done};
    trace->drop_labels(labels);
    TensorList selected;
    for (size_t i = 0; i < t.size(); ++i)
      selected.push_back(t[i].defined() ? where(p, t[i], f[i]) : Tensor());
    return selected;
  }
  if (taken) {
    backend::UntracedScope untraced;
    copy_into(result, t);
  }
  return result;
}

std::optional<TensorList> traced_while_loop(const std::function<Tensor(const TensorList&)>& cond,
                                            const ListFn& body, const TensorList& loop_vars,
                                            std::optional<int64_t> maximum_iterations) {
  constexpr std::string_view op = "while_loop";
  TraceObserver* trace = backend::detail::front_end_observer();
  if (!trace) return std::nullopt;
  constexpr std::string_view kNoGradient =
      "the gradient of ops::while_loop is not traced (JAX's while_loop has none either); use "
      "fori_loop or scan with a fixed trip count";
  if (any_requires_grad(loop_vars)) {
    trace->on_untraceable(kNoGradient);
    return std::nullopt;
  }
  // The loop's own memory: its variables and, with a bound, the iteration count.
  TensorList vars = empty_like_all(loop_vars);
  copy_into(vars, loop_vars);
  Tensor count;
  if (maximum_iterations)
    count = zeros_on({}, DType::Int64, loop_vars.empty() ? backend::current() : loop_vars[0].backend());
  auto predicate = [&] {
    Tensor p = bool_predicate(op, cond(vars));
    if (count.defined()) p = logical_and(p, less(count, full_like(count, Scalar(*maximum_iterations))));
    return p;
  };

  const int head = trace->new_label(), exit = trace->new_label();
  trace->on_control(ControlOp::Label, head, nullptr);
  trace->on_region(true);
  const Tensor p = predicate();
  const bool taken = read_untraced(p);
  trace->on_control(ControlOp::JumpIfFalse, exit, &p.array());
  const TensorList next = body(vars);
  check_same_state(op, "loop variable", vars, next, 0);
  if (any_requires_grad(next)) {  // the body multiplies by a weight, say
    trace->on_region(false);
    trace->on_untraceable(kNoGradient);
    return std::nullopt;
  }
  TensorList saved;
  if (!taken) {  // the body ran only to be recorded: keep the variables as they are
    backend::UntracedScope untraced;
    for (const Tensor& v : vars) saved.push_back(v.defined() ? ops::copy(v) : Tensor());
  }
  copy_into(vars, next);
  if (count.defined()) copy_into(TensorList{count}, TensorList{add(count, ones_like(count))});
  if (!taken) {
    backend::UntracedScope untraced;
    copy_into(vars, saved);
  }
  trace->on_control(ControlOp::Jump, head, nullptr);
  trace->on_region(false);
  trace->on_control(ControlOp::Label, exit, nullptr);

  if (taken) {  // the remaining iterations, eagerly and unrecorded
    backend::UntracedScope untraced;
    for (int64_t step = 1; !maximum_iterations || step < *maximum_iterations; ++step) {
      if (!host_predicate(op, cond(vars))) break;
      const TensorList later = body(vars);
      check_same_state(op, "loop variable", vars, later, step);
      copy_into(vars, later);
    }
  }
  TensorList out;
  for (const Tensor& v : vars) out.push_back(v.defined() ? ops::copy(v) : Tensor());
  return out;
}

}  // namespace keras::ops::detail
