// cond, switch_, while_loop, fori_loop, and the loop-state helpers every control-flow op
// shares (ops/core/loop_state.h).

#include "keras/autograd/node.h"
#include "keras/backend/trace_hook.h"
#include "keras/ops/ops.h"
#include "ops/core/loop_state.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {

namespace detail {

TensorList loop_state(std::string_view op, std::string_view what, const TensorList& values) {
  TensorList out;
  out.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    check(values[i].defined(), op, ": ", what, " ", i, " is an undefined tensor.");
    out.push_back(values[i].is_weak() ? convert_to_tensor(values[i]) : values[i]);
  }
  return out;
}

void check_same_state(std::string_view op, std::string_view what, const TensorList& before,
                      const TensorList& after, int64_t step) {
  check(after.size() == before.size(), op, ": at iteration ", step, " the body returned ",
        after.size(), " ", what, "s for ", before.size(), "; the number must stay the same.");
  for (size_t i = 0; i < before.size(); ++i) {
    check(after[i].defined(), op, ": at iteration ", step, " ", what, " ", i,
          " came back as an undefined tensor.");
    check(after[i].shape() == before[i].shape() && after[i].dtype() == before[i].dtype(), op,
          ": ", what, " ", i, " must keep its shape and dtype across iterations; at iteration ",
          step, " it went from shape ", before[i].shape(), " ", before[i].dtype(), " to shape ",
          after[i].shape(), " ", after[i].dtype(), ".");
  }
}

bool host_predicate(std::string_view op, const Tensor& pred) {
  check(pred.defined(), op, ": the predicate is an undefined tensor.");
  check(pred.size() == 1, op, ": the predicate must be a scalar (one element); got a tensor of "
        "shape ", pred.shape(), ".");
  return host_scalar(pred) != 0;
}

TensorList stack_steps(std::string_view op, const std::vector<TensorList>& steps) {
  const TensorList& first = steps.front();
  for (size_t s = 0; s < steps.size(); ++s)
    check(steps[s].size() == first.size(), op, ": step ", s, " returned ", steps[s].size(),
          " outputs and step 0 returned ", first.size(), ".");
  TensorList out;
  for (size_t i = 0; i < first.size(); ++i) {
    TensorList column;
    column.reserve(steps.size());
    for (size_t s = 0; s < steps.size(); ++s) {
      const Tensor& y = steps[s][i];
      check(y.defined() == first[i].defined(), op, ": output ", i,
            " is undefined at some steps only.");
      if (!y.defined()) continue;
      check(y.shape() == first[i].shape() && y.dtype() == first[i].dtype(), op, ": output ", i,
            " must have one shape and dtype at every step; step 0 gave shape ", first[i].shape(),
            " ", first[i].dtype(), " and step ", s, " gave shape ", y.shape(), " ", y.dtype(),
            ".");
      column.push_back(y);
    }
    out.push_back(column.empty() ? Tensor() : stack(column));
  }
  return out;
}

}  // namespace detail

inline namespace core {

namespace {

constexpr std::string_view kSwitch = "switch";

void check_index(const Tensor& index, size_t count) {
  check(count > 0, kSwitch, ": needs at least one branch.");
  check(index.defined(), kSwitch, ": the index is an undefined tensor.");
  check<TypeError>(is_integer(index.dtype()) || index.dtype() == DType::Bool, kSwitch,
                   ": the index must be an integer scalar; got dtype ", index.dtype(), ".");
  check(index.size() == 1, kSwitch,
        ": the index must be a scalar (one element); got a tensor of shape ", index.shape(), ".");
}

// The branch switch_ runs: index clamped to [0, count).
size_t branch_index(const Tensor& index, size_t count) {
  check_index(index, count);
  const int64_t i = index.item<int64_t>();
  const int64_t last = static_cast<int64_t>(count) - 1;
  return static_cast<size_t>(i < 0 ? 0 : (i > last ? last : i));
}

// Under keras::jit: branches[k..] as nested conds on index <= k, which clamps as branch_index.
TensorList traced_switch(const Tensor& index, const std::vector<ListFn>& branches,
                         const TensorList& operands, size_t k) {
  detail::require_callable(kSwitch, "branch", branches[k]);
  if (k + 1 == branches.size()) return branches[k](operands);
  const Tensor bound = full_like(index, Scalar(static_cast<int64_t>(k)), DType::Int64);
  return cond(less_equal(cast(index, DType::Int64), bound),
              std::function<TensorList()>([&] { return branches[k](operands); }),
              std::function<TensorList()>(
                  [&] { return traced_switch(index, branches, operands, k + 1); }));
}

}  // namespace

Tensor cond(const Tensor& pred, const std::function<Tensor()>& true_fn,
            const std::function<Tensor()>& false_fn) {
  detail::require_callable("cond", "true_fn", true_fn);
  detail::require_callable("cond", "false_fn", false_fn);
  if (auto traced = detail::traced_cond(pred, [&] { return TensorList{true_fn()}; },
                                        [&] { return TensorList{false_fn()}; }))
    return (*traced)[0];
  return detail::host_predicate("cond", pred) ? true_fn() : false_fn();
}

TensorList cond(const Tensor& pred, const std::function<TensorList()>& true_fn,
                const std::function<TensorList()>& false_fn) {
  detail::require_callable("cond", "true_fn", true_fn);
  detail::require_callable("cond", "false_fn", false_fn);
  if (auto traced = detail::traced_cond(pred, true_fn, false_fn)) return *traced;
  return detail::host_predicate("cond", pred) ? true_fn() : false_fn();
}

Tensor switch_(const Tensor& index,
               const std::vector<std::function<Tensor(const TensorList&)>>& branches,
               const TensorList& operands) {
  if (backend::detail::front_end_observer()) {
    std::vector<ListFn> lists;
    for (const auto& b : branches)
      lists.push_back(b ? ListFn([&b](const TensorList& v) { return TensorList{b(v)}; })
                        : ListFn());
    return switch_(index, lists, operands)[0];
  }
  const auto& branch = branches[branch_index(index, branches.size())];
  detail::require_callable("switch", "branch", branch);
  return branch(operands);
}

TensorList switch_(const Tensor& index, const std::vector<ListFn>& branches,
                   const TensorList& operands) {
  if (backend::detail::front_end_observer()) {
    check_index(index, branches.size());
    return traced_switch(index, branches, operands, 0);
  }
  const auto& branch = branches[branch_index(index, branches.size())];
  detail::require_callable("switch", "branch", branch);
  return branch(operands);
}

TensorList while_loop(const std::function<Tensor(const TensorList&)>& cond, const ListFn& body,
                      const TensorList& loop_vars, std::optional<int64_t> maximum_iterations) {
  constexpr std::string_view op = "while_loop";
  detail::require_callable(op, "cond", cond);
  detail::require_callable(op, "body", body);
  check(!maximum_iterations || *maximum_iterations >= 0, op,
        ": maximum_iterations must be >= 0; got ", maximum_iterations.value_or(0), ".");
  TensorList vars = detail::loop_state(op, "loop variable", loop_vars);
  if (auto traced = detail::traced_while_loop(cond, body, vars, maximum_iterations))
    return *traced;
  for (int64_t step = 0; !maximum_iterations || step < *maximum_iterations; ++step) {
    if (!detail::host_predicate(op, cond(vars))) break;
    TensorList next = body(vars);
    detail::check_same_state(op, "loop variable", vars, next, step);
    vars = std::move(next);
  }
  return vars;
}

Tensor while_loop(const std::function<Tensor(const Tensor&)>& cond,
                  const std::function<Tensor(const Tensor&)>& body, const Tensor& loop_var,
                  std::optional<int64_t> maximum_iterations) {
  detail::require_callable("while_loop", "cond", cond);
  detail::require_callable("while_loop", "body", body);
  return while_loop([&](const TensorList& v) { return cond(v[0]); },
                    [&](const TensorList& v) { return TensorList{body(v[0])}; },
                    TensorList{loop_var}, maximum_iterations)[0];
}

TensorList fori_loop(int64_t lower, int64_t upper,
                     const std::function<TensorList(int64_t, const TensorList&)>& body_fun,
                     const TensorList& init_val) {
  constexpr std::string_view op = "fori_loop";
  detail::require_callable(op, "body_fun", body_fun);
  TensorList vars = detail::loop_state(op, "loop variable", init_val);
  for (int64_t i = lower; i < upper; ++i) {
    TensorList next = body_fun(i, vars);
    detail::check_same_state(op, "loop variable", vars, next, i - lower);
    vars = std::move(next);
  }
  return vars;
}

Tensor fori_loop(int64_t lower, int64_t upper,
                 const std::function<Tensor(int64_t, const Tensor&)>& body_fun,
                 const Tensor& init_val) {
  detail::require_callable("fori_loop", "body_fun", body_fun);
  return fori_loop(lower, upper,
                   [&](int64_t i, const TensorList& v) { return TensorList{body_fun(i, v[0])}; },
                   TensorList{init_val})[0];
}

}  // namespace core
}  // namespace keras::ops
