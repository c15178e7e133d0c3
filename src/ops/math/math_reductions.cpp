// logsumexp, top_k, in_top_k.

#include <limits>

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace math {

using backend::BinaryOp;
using backend::ReduceOp;
using backend::UnaryOp;

Tensor logsumexp(const Tensor& x, const Axes& axis, bool keepdims) {
  constexpr std::string_view op = "logsumexp";
  check(x.defined(), op, ": the input is an undefined tensor.");
  const uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  if (is_complex(x.dtype())) {
    // JAX's: shifted by the largest finite real part (a constant), then the principal log.
    Tensor shift;
    {
      NoGradScope constant;
      // (An empty reduction has no maximum: shift by 0, in the reduced shape.)
      Tensor m = x.size() > 0 ? max(real(x), axis, true) : sum(real(x), axis, true);
      shift = where(isfinite(m), m, 0.0);
    }
    Tensor out = add(log(sum(exp(subtract(x, shift)), axis, true)), shift);
    return keepdims ? out : squeeze(out, axis.is_none() ? Axes() : axis);
  }
  Tensor xc = detail::cast(x, float_result_type(x.dtype()));
  auto& be = xc.backend();
  const Shape kept_shape = detail::reduced_shape(x.shape(), mask, true);
  // Shift by the (finite) maximum so exp cannot overflow; primitives only, one rule below.
  Tensor shift = detail::filled(kept_shape, 0, xc.dtype(), be);
  if (detail::reduced_count(x.shape(), mask) > 0 && x.size() > 0) {
    Tensor m = detail::run_reduce(ReduceOp::Max, xc, mask);
    shift = where(detail::run_unary(UnaryOp::IsFinite, m), m, 0);
  }
  Tensor e = detail::run_unary(UnaryOp::Exp, detail::run_binary(BinaryOp::Sub, xc, shift));
  Tensor kept = detail::run_binary(
      BinaryOp::Add, detail::run_unary(UnaryOp::Log, detail::run_reduce(ReduceOp::Sum, e, mask)),
      shift);
  Tensor out = detail::finish_reduce(kept, x.shape(), mask, keepdims);
  if (autograd::should_record(xc)) {
    Shape xs = x.shape();
    autograd::record(op, {xc}, out, [xc, xs, mask](const autograd::Context& ctx, const Tensor& g) {
      // d/dx logsumexp(x) = softmax(x) = exp(x - logsumexp(x)).
      Tensor y = detail::expand_reduced(ctx.output(), xs, mask);
      return TensorList{multiply(detail::expand_reduced(g, xs, mask), exp(subtract(xc, y)))};
    });
  }
  return out;
}

std::pair<Tensor, Tensor> top_k(const Tensor& x, int64_t k, bool) {
  constexpr std::string_view op = "top_k";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (x.ndim() == 0)
    throw ValueError(keras::detail::cat(op, ": x must have at least one axis; got a 0-d tensor."));
  const int last = x.ndim() - 1;
  const int64_t n = x.shape()[last];
  if (k < 0 || k > n)
    throw ValueError(keras::detail::cat(op, ": k=", k, " must be within [0, ", n,
                                        "], the extent of the last axis of x.shape=", x.shape(),
                                        "."));
  // A stable descending sort keeps the lower index first among ties, as JAX's top_k does.
  Tensor order = detail::sort_last(x, true, false, true).second;
  Tensor idx = detail::slice_axis(order, last, 0, k);
  return {detail::gather_along(x, idx, last), detail::cast(idx, DType::Int32)};
}

Tensor in_top_k(const Tensor& targets, const Tensor& predictions, int64_t k) {
  constexpr std::string_view op = "in_top_k";
  check(targets.defined() && predictions.defined(), op, ": an input is an undefined tensor.");
  if (predictions.ndim() != 2 || targets.ndim() != 1 ||
      targets.shape()[0] != predictions.shape()[0])
    throw ValueError(keras::detail::cat(op,
                                        ": expected targets of shape (batch,) and predictions "
                                        "of shape (batch, classes); got targets.shape=",
                                        targets.shape(),
                                        " and predictions.shape=", predictions.shape(), "."));
  if (!is_integer(targets.dtype()))
    throw TypeError(
        keras::detail::cat(op, ": targets must hold integers; got dtype ", targets.dtype(), "."));
  auto& be = detail::common_backend(op, {&targets, &predictions});
  const int64_t classes = predictions.shape()[1];
  if (classes == 0) return detail::filled(targets.shape(), false, DType::Bool, be);
  Tensor valid = logical_and(greater_equal(targets, 0), less(targets, classes));
  Tensor safe = reshape(where(valid, targets, 0), Shape{targets.size(), 1});
  Tensor at_target = detail::gather_along(predictions, safe, 1);
  // A NaN prediction at the target never counts as large.
  if (is_floating(at_target.dtype()))
    at_target =
        where(detail::isnan_mask(at_target), -std::numeric_limits<double>::infinity(), at_target);
  Tensor rank = add(sum(greater(predictions, at_target), 1), 1);
  return logical_and(valid, less_equal(rank, k));
}

}  // namespace math
}  // namespace keras::ops
