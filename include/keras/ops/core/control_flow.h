#pragma once
// keras.ops core control flow: cond, switch_, while_loop, fori_loop, scan, associative_scan,
// map, vectorized_map and custom_gradient, as plain C++ helpers that work under autograd.
//
// Eagerly, a loop calls its body from C++, and the ops inside record themselves on the tape as
// usual, so gradients (and higher-order gradients) flow through the branch taken and through
// every iteration run; only the selected branch runs.
//
// Under keras::jit (and compiled train/test/predict steps), cond, switch_ and while_loop with a
// tensor predicate are traced as jax.lax's are: the program records each branch or loop body
// once and a replay branches on the new values. Branches and bodies must then be free of side
// effects (no variable assignment, no random draws; the step runs eagerly otherwise, with a
// warning), cond's branches must return the same shapes and dtypes, and a cond whose result
// needs a gradient runs both branches and selects (gradients flow through the taken one, as
// through ops::where); a while_loop whose variables need a gradient runs eagerly, as JAX has
// no reverse-mode gradient for it. fori_loop and scan have fixed trip counts and are unrolled.
//
// Shapes of the callables. Each helper has a one-tensor form and a form over several tensors:
// a TensorList (std::vector<Tensor>) stands for Keras's tuple or list of loop variables, and
// keeps its length, and each entry its shape and dtype, across iterations (a ValueError
// names the iteration and the entry otherwise). Write lambdas with explicit parameter types
// (`const Tensor&` or `const TensorList&`); that is how the overloads are told apart.
//
//   Tensor x4 = ops::fori_loop(0, 4, [&](int64_t, const Tensor& acc) { return acc * x; },
//                              ops::ones_like(x));
//   auto [total, running] = ops::scan(
//       [](const Tensor& c, const Tensor& x) { return std::pair{c + x, c + x}; },
//       ops::zeros_like(xs[0]), xs);
//
// Predicates (cond's pred, while_loop's cond) are read on the host: a tensor with exactly one
// element, bool or numeric (nonzero is true); anything else is a ValueError. C++ literals such
// as 0 or 1.5 passed as loop variables become tensors of Keras's default dtypes (int32,
// float32).

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace core {

/// A function of several tensors to several tensors: loop bodies, branches, mapped functions.
using ListFn = std::function<TensorList(const TensorList&)>;

/// true_fn() when pred holds, else false_fn(); only that branch runs.
Tensor cond(const Tensor& pred, const std::function<Tensor()>& true_fn,
            const std::function<Tensor()>& false_fn);
/// cond for branches returning several tensors.
TensorList cond(const Tensor& pred, const std::function<TensorList()>& true_fn,
                const std::function<TensorList()>& false_fn);

/// branches[index](operands), with index (an integer scalar) clamped to the branches' range.
Tensor switch_(const Tensor& index,
               const std::vector<std::function<Tensor(const TensorList&)>>& branches,
               const TensorList& operands);
/// switch_ for branches returning several tensors.
TensorList switch_(const Tensor& index, const std::vector<ListFn>& branches,
                   const TensorList& operands);

/// Replaces loop_var by body(loop_var) while cond(loop_var) holds, at most
/// maximum_iterations times when given; returns the final value.
Tensor while_loop(const std::function<Tensor(const Tensor&)>& cond,
                  const std::function<Tensor(const Tensor&)>& body, const Tensor& loop_var,
                  std::optional<int64_t> maximum_iterations = std::nullopt);
/// while_loop over several loop variables.
TensorList while_loop(const std::function<Tensor(const TensorList&)>& cond, const ListFn& body,
                      const TensorList& loop_vars,
                      std::optional<int64_t> maximum_iterations = std::nullopt);

/// val = body_fun(i, val) for i = lower .. upper - 1, starting from init_val.
Tensor fori_loop(int64_t lower, int64_t upper,
                 const std::function<Tensor(int64_t, const Tensor&)>& body_fun,
                 const Tensor& init_val);
/// fori_loop over several loop variables.
TensorList fori_loop(int64_t lower, int64_t upper,
                     const std::function<TensorList(int64_t, const TensorList&)>& body_fun,
                     const TensorList& init_val);

/// What a scan step returns: the new carry and this step's output.
using ScanStep = std::pair<Tensor, Tensor>;
/// What a scan step over several tensors returns: the new carry and this step's outputs.
using ScanStepList = std::pair<TensorList, TensorList>;

/// Runs (carry, y) = f(carry, x) over the slices x of xs along its leading axis (or `length`
/// times with an undefined x when xs is undefined) and returns (final carry, the y's stacked
/// along a new leading axis). reverse runs from the last slice to the first (ys keep the
/// slices' order). `unroll` is accepted as in Keras (an integer >= 1, or a bool) and changes
/// nothing in eager execution. A step may return an undefined y: the stacked ys are then
/// undefined. With zero steps, f is run once on zeros to learn the shape of y.
std::pair<Tensor, Tensor> scan(const std::function<ScanStep(const Tensor&, const Tensor&)>& f,
                               const Tensor& init, const Tensor& xs = Tensor(),
                               std::optional<int64_t> length = std::nullopt,
                               bool reverse = false, int unroll = 1);
/// scan over several carries and several xs (an empty xs with `length` gives empty x lists).
std::pair<TensorList, TensorList> scan(
    const std::function<ScanStepList(const TensorList&, const TensorList&)>& f,
    const TensorList& init, const TensorList& xs = {},
    std::optional<int64_t> length = std::nullopt, bool reverse = false, int unroll = 1);

/// Inclusive scan with an associative f along `axis`: [a, f(a, b), f(f(a, b), c), ...],
/// computed in O(log n) rounds of f over whole slices (Blelloch's odd-even scheme, as JAX).
/// f receives tensors with the scanned axis in place (of some extent) and must act
/// elementwise along it.
Tensor associative_scan(const std::function<Tensor(const Tensor&, const Tensor&)>& f,
                        const Tensor& elems, bool reverse = false, int axis = 0);
/// associative_scan over several tensors sharing the scanned axis' extent.
TensorList associative_scan(
    const std::function<TensorList(const TensorList&, const TensorList&)>& f,
    const TensorList& elems, bool reverse = false, int axis = 0);

/// f applied to each slice of xs along its leading axis, results stacked: stack([f(x) for x
/// in xs]). With an empty leading axis, f is run once on zeros to learn the result's shape.
Tensor map(const std::function<Tensor(const Tensor&)>& f, const Tensor& xs);
/// map over several tensors sharing the leading extent: f gets one slice of each.
TensorList map(const ListFn& f, const TensorList& xs);

/// Keras's vectorized_map: the same results as map (it loops over the leading axis).
Tensor vectorized_map(const std::function<Tensor(const Tensor&)>& function,
                      const Tensor& elements);
/// vectorized_map over several tensors: function gets one slice of each.
TensorList vectorized_map(const ListFn& function, const TensorList& elements);

/// A gradient rule: the gradients of a function's outputs (upstream) in, the gradients of its
/// inputs out, one per input (an undefined tensor for no gradient).
using GradFn = std::function<TensorList(const TensorList& upstream)>;
/// The gradient rule of a one-tensor function.
using GradFn1 = std::function<Tensor(const Tensor& upstream)>;

/// Keras's custom_gradient: f(args) returns (outputs, grad_fn); the wrapper it returns gives
/// f's outputs, and the tape differentiates them with grad_fn instead of through f's ops.
///
///   auto log1pexp = ops::custom_gradient([](const Tensor& x) {
///     Tensor e = ops::exp(x);
///     return std::pair{ops::log(1.0 + e),
///                      [e](const Tensor& up) { return up * (1.0 - 1.0 / (1.0 + e)); }};
///   });
///   Tensor y = log1pexp(x);   // its gradient stays finite where e^x overflows
///
/// grad_fn runs under the tape when a higher-order gradient is being recorded, and the tensors
/// it captures from f keep their own history, so it is itself differentiable.
std::function<Tensor(const Tensor&)> custom_gradient(
    std::function<std::pair<Tensor, GradFn1>(const Tensor&)> f);
/// custom_gradient for functions of several tensors.
std::function<TensorList(const TensorList&)> custom_gradient(
    std::function<std::pair<TensorList, GradFn>(const TensorList&)> f);

}  // namespace core
}  // namespace keras::ops

#pragma GCC visibility pop
