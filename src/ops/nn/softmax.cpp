// softmax, log_softmax and sparsemax. softmax and log_softmax run the backend's fused kernel
// (Capability::Softmax) when it has one, and otherwise the max-subtracted decomposition
// exp(x - max) / sum(exp(x - max)); both record one cheap rule that reads the output.

#include <bit>

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/nn_common.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace nn {

using backend::BinaryOp;
using backend::Capability;
using backend::ReduceOp;
using backend::UnaryOp;

namespace {

std::vector<int> axes_of(uint64_t mask, int ndim) {
  std::vector<int> axes;
  for (int d = 0; d < ndim; ++d)
    if (mask >> d & 1) axes.push_back(d);
  return axes;
}

// The decomposition by primitives. Half types compute in float32 so that the three roundings
// of exp, sum and divide do not pile up in 11 bits.
Tensor softmax_decomposed(const Tensor& x, uint64_t mask, bool log) {
  const DType dtype = x.dtype();
  const bool half = dtype == DType::Float16 || dtype == DType::BFloat16;
  Tensor xf = half ? detail::run_copy(x, DType::Float32) : x;
  Tensor shifted =
      detail::run_binary(BinaryOp::Sub, xf, detail::run_reduce(ReduceOp::Max, xf, mask));
  Tensor e = detail::run_unary(UnaryOp::Exp, shifted);
  Tensor s = detail::run_reduce(ReduceOp::Sum, e, mask);
  Tensor y = log ? detail::run_binary(BinaryOp::Sub, shifted, detail::run_unary(UnaryOp::Log, s))
                 : detail::run_binary(BinaryOp::Div, e, s);
  return half ? detail::run_copy(y, dtype) : y;
}

// The fused kernel over one axis; several axes are moved last and merged first, as Keras does.
Tensor softmax_fused(const Tensor& x, uint64_t mask, bool log) {
  auto& be = x.backend();
  if (std::popcount(mask) == 1) {
    const int axis = std::countr_zero(mask);
    // Lines that are neither dense nor part of a dense tensor (a transposed view) are walked
    // element by element; one contiguous copy first is cheaper.
    const Tensor dense = x.is_contiguous() || x.strides()[axis] == 1 ? x : x.contiguous();
    Tensor out = detail::empty(x.shape(), x.dtype(), be);
    be.softmax(out.array(), dense.array(), axis, log);
    return out;
  }
  Tensor flat = detail::merge_axes_last(x, mask);
  Tensor out = detail::empty(flat.shape(), x.dtype(), be);
  be.softmax(out.array(), flat.array(), flat.ndim() - 1, log);
  return detail::split_axes_last(out, x.shape(), mask);
}

// JAX's softmax and log_softmax of complex x: shifted by the lexicographic maximum (a
// constant), exp(s) / sum(exp(s)) and s - log(sum(exp(s))) with the principal log.
Tensor complex_softmax(const Tensor& x, const Axes& axis, bool log_out) {
  Tensor m;
  {
    NoGradScope constant;
    m = max(x, axis, true);
  }
  Tensor shifted = subtract(x, m);
  Tensor e = exp(shifted);
  Tensor total = sum(e, axis, true);
  return log_out ? subtract(shifted, log(total)) : divide(e, total);
}

Tensor softmax_impl(std::string_view op, const Tensor& x, const Axes& axis, bool log) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (is_complex(x.dtype())) return complex_softmax(x, axis, log);
  Tensor xc = detail::prepare(x, nn_detail::float_dtype(x), x.backend());
  const uint64_t mask = detail::axes_mask(op, axis, xc.ndim());
  auto forward = [&] {
    if (xc.size() == 0) return detail::empty(xc.shape(), xc.dtype(), xc.backend());
    if (mask != 0 && backend::use_fused(xc.backend(), Capability::Softmax))
      return softmax_fused(xc, mask, log);
    return softmax_decomposed(xc, mask, log);
  };
  std::vector<int> axes = axes_of(mask, xc.ndim());
  if (log) {
    return nn_detail::with_rule(op, {xc}, forward,
                                [axes](const autograd::Context& ctx, const Tensor& g) {
                                  // d log_softmax: g - softmax * sum(g)
                                  Tensor p = exp(ctx.output());
                                  return TensorList{subtract(g, multiply(p, sum(g, axes, true)))};
                                });
  }
  return nn_detail::with_rule(op, {xc}, forward,
                              [axes](const autograd::Context& ctx, const Tensor& g) {
                                // d softmax: y (g - sum(g y))
                                Tensor y = ctx.output();
                                Tensor gy = multiply(g, y);
                                return TensorList{subtract(gy, multiply(y, sum(gy, axes, true)))};
                              });
}

}  // namespace

Tensor softmax(const Tensor& x, const Axes& axis) {
  return softmax_impl("softmax", x, axis, false);
}

Tensor log_softmax(const Tensor& x, const Axes& axis) {
  return softmax_impl("log_softmax", x, axis, true);
}

Tensor sparsemax(const Tensor& x, int axis) {
  constexpr std::string_view op = "sparsemax";
  check(x.defined(), op, ": the input is an undefined tensor.");
  Tensor xc = detail::prepare(x, nn_detail::float_dtype(x), x.backend());
  const int a = detail::normalize_axis(op, axis, xc.ndim());
  auto forward = [&] {
    auto& be = xc.backend();
    const DType dtype = xc.dtype();
    if (xc.size() == 0) return detail::empty(xc.shape(), dtype, be);
    // Work along the last axis: sort descending and take running sums.
    std::vector<int> perm;
    for (int d = 0; d < xc.ndim(); ++d)
      if (d != a) perm.push_back(d);
    perm.push_back(a);
    Tensor moved = transpose(xc, perm);
    const int last = xc.ndim() - 1;
    const int64_t n = xc.shape()[a];
    Tensor sorted = detail::empty(moved.shape(), dtype, be);
    be.sort(sorted.array(), backend::Array{}, moved.array(), /*descending=*/true);
    Tensor cumsum = detail::empty(moved.shape(), dtype, be);
    be.scan(backend::ScanOp::CumSum, cumsum.array(), sorted.array(), last);
    Tensor rank = detail::empty(Shape{n}, dtype, be);
    be.arange(rank.array(), 1, 1);
    // The support is the k largest entries with z_(i) > (cumsum_(i) - 1) / i; the threshold is
    // (sum of the support - 1) / k. (Keras 3.16 summed the running sums instead; keras-team/
    // keras#23469 fixed that, and this follows the fix: the output lies on the simplex.)
    Tensor support = greater(subtract(sorted, divide(subtract(cumsum, 1.0), rank)), 0.0);
    Tensor k = sum(cast(support, dtype), last, true);
    Tensor tau = divide(subtract(sum(where(support, sorted, 0.0), last, true), 1.0), k);
    std::vector<int> inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int>(i);
    return maximum(subtract(xc, transpose(tau, inverse)), 0.0);
  };
  return nn_detail::with_rule(
      op, {xc}, forward, [a](const autograd::Context& ctx, const Tensor& g) {
        // On the support S: g - mean over S of g; 0 elsewhere.
        Tensor y = ctx.output();
        Tensor in = cast(greater(y, 0.0), g.dtype());
        Tensor gin = multiply(g, in);
        Tensor k = sum(in, a, true);
        return TensorList{subtract(gin, multiply(in, divide(sum(gin, a, true), k)))};
      });
}

}  // namespace nn
}  // namespace keras::ops
