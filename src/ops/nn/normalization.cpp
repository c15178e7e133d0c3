// moments, batch_normalization, layer_normalization, rms_normalization and normalize, as
// compositions of reductions and broadcast elementwise ops (so their gradients, including
// higher-order ones, come from those ops' rules).

#include <algorithm>
#include <limits>

#include "keras/core/config.h"
#include "keras/distribution/collectives.h"
#include "keras/distribution/distributions.h"
#include "keras/distribution/runtime.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/nn_common.h"

namespace keras::ops {
inline namespace nn {

namespace {

std::vector<int> axes_list(std::string_view op, const Axes& axis, int ndim) {
  uint64_t mask = detail::axes_mask(op, axis, ndim);
  std::vector<int> axes;
  for (int d = 0; d < ndim; ++d)
    if (mask >> d & 1) axes.push_back(d);
  return axes;
}

// The dtype Keras's layer/rms normalization computes in: result_type(x, float32).
DType at_least_float32(DType t) {
  return result_type({t, DType::Float32});
}

void check_vector(std::string_view op, std::string_view name, const Tensor& v, int64_t n,
                  const Shape& x_shape, int axis) {
  check(v.ndim() == 1 && v.shape()[0] == n, op, ": argument `", name,
        "` must be a vector of length x.shape[axis] = ", n, " (x.shape=", x_shape, ", axis=", axis,
        "); got shape ", v.shape(), ".");
}

}  // namespace

std::pair<Tensor, Tensor> moments(const Tensor& x, const Axes& axes, bool keepdims,
                                  bool synchronized) {
  constexpr std::string_view op = "moments";
  check(x.defined(), op, ": the input is an undefined tensor.");
  const DType dtype = x.dtype();
  const bool half = dtype == DType::Float16 || dtype == DType::BFloat16;
  // Statistics in float16 lose too much range: compute in float32, as Keras does.
  Tensor xc = detail::cast(x, half ? DType::Float32 : nn_detail::float_dtype(x));
  std::vector<int> list = axes_list(op, axes, xc.ndim());
  Tensor m, v;
  if (synchronized && distribution::num_processes() > 1 && distribution::distribution()) {
    // Over the global batch of every process: two passes, as the local statistics, each a
    // sum over the processes (whose gradient sums the processes' gradients back).
    int64_t local = 1;
    for (int d : list) local *= xc.shape()[d];
    std::vector<Tensor> sums{sum(xc, list, true), full({}, static_cast<double>(local), xc.dtype())};
    distribution::all_reduce_sum(sums, "the synchronized batch mean (moments)");
    const Tensor count = sums[1];
    m = divide(sums[0], count);
    v = divide(distribution::all_reduce_sum(sum(square(subtract(xc, m)), list, true),
                                            "the synchronized batch variance (moments)"),
               count);
  } else {
    m = mean(xc, list, true);
    v = mean(square(subtract(xc, m)), list, true);
  }
  if (!keepdims) {
    uint64_t mask = detail::axes_mask(op, axes, xc.ndim());
    Shape reduced = detail::reduced_shape(xc.shape(), mask, false);
    m = reshape(m, reduced);
    v = reshape(v, reduced);
  }
  if (half) {
    // Keras clips to the float16 range (for bfloat16 too) before casting back.
    const double limit = 65504.0;
    m = detail::cast(clip(m, -limit, limit), dtype);
    v = detail::cast(clip(v, -limit, limit), dtype);
  }
  return {m, v};
}

Tensor batch_normalization(const Tensor& x, const Tensor& mean, const Tensor& variance, int axis,
                           const Tensor& offset, const Tensor& scale, double epsilon) {
  constexpr std::string_view op = "batch_normalization";
  check(x.defined() && mean.defined() && variance.defined(), op,
        ": x, mean and variance must be defined tensors.");
  const int a = detail::normalize_axis(op, axis, x.ndim());
  const int64_t n = x.shape()[a];
  check_vector(op, "mean", mean, n, x.shape(), axis);
  check_vector(op, "variance", variance, n, x.shape(), axis);
  if (offset.defined()) check_vector(op, "offset", offset, n, x.shape(), axis);
  if (scale.defined()) check_vector(op, "scale", scale, n, x.shape(), axis);
  auto& be = detail::common_backend(op, {&x, &mean, &variance, &offset, &scale});
  const DType dtype = float_result_type(detail::promote({&x, &mean, &variance, &offset, &scale}));
  Shape shape;
  for (int d = 0; d < x.ndim(); ++d) shape.push_back(d == a ? n : 1);
  auto prep = [&](const Tensor& t) { return reshape(detail::prepare(t, dtype, be), shape); };
  // x * inv + (offset - mean * inv): two passes over x.
  Tensor inv = rsqrt(add(prep(variance), epsilon));
  if (scale.defined()) inv = multiply(inv, prep(scale));
  Tensor res = negative(multiply(prep(mean), inv));
  if (offset.defined()) res = add(res, prep(offset));
  return add(multiply(detail::prepare(x, dtype, be), inv), res);
}

Tensor layer_normalization(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                           const Axes& axis, std::optional<double> epsilon) {
  constexpr std::string_view op = "layer_normalization";
  check(x.defined(), op, ": the input is an undefined tensor.");
  auto& be = detail::common_backend(op, {&x, &gamma, &beta});
  const double eps = epsilon.value_or(config::epsilon());
  const DType dtype = at_least_float32(x.dtype());
  Tensor xc = detail::prepare(x, dtype, be);
  const int ndim = xc.ndim();
  std::vector<int> axes = axes_list(op, axis, ndim);
  // gamma and beta broadcast against x, after a reshape when they cover other axes than the
  // last one (Keras's _broadcast).
  Shape broadcast;
  for (int d = 0; d < ndim; ++d) broadcast.push_back(1);
  for (int d : axes) broadcast[d] = xc.shape()[d];
  const bool last_only = axes.size() == 1 && axes[0] == ndim - 1;
  auto prep = [&](const Tensor& v) {
    Tensor t = detail::prepare(v, dtype, be);
    return t.ndim() != ndim && !last_only ? reshape(t, broadcast) : t;
  };
  // (x - mean) * rsqrt(var + eps) * gamma + beta: the same value as Keras's
  // x * inv + (beta - mean * inv), with fewer passes over x (x - mean serves twice).
  Tensor centered = subtract(xc, mean(xc, axes, true));
  Tensor var = mean(square(centered), axes, true);
  Tensor out = multiply(centered, rsqrt(add(var, eps)));
  if (gamma.defined()) out = multiply(out, prep(gamma));
  if (beta.defined()) out = add(out, prep(beta));
  return detail::cast(out, x.dtype());
}

Tensor rms_normalization(const Tensor& x, const Tensor& scale, const Axes& axis,
                         std::optional<double> epsilon) {
  constexpr std::string_view op = "rms_normalization";
  check(x.defined(), op, ": the input is an undefined tensor.");
  auto& be = detail::common_backend(op, {&x, &scale});
  const double eps = epsilon.value_or(config::epsilon());
  const DType dtype = at_least_float32(x.dtype());
  Tensor xc = detail::prepare(x, dtype, be);
  if (xc.ndim() == 0) xc = expand_dims(xc, 0);
  std::vector<int> axes = axes_list(op, axis, xc.ndim());
  Tensor out = multiply(xc, rsqrt(add(mean(square(xc), axes, true), eps)));
  if (scale.defined()) out = multiply(out, detail::prepare(scale, dtype, be));
  return detail::cast(out, x.dtype());
}

Tensor normalize(const Tensor& x, const Axes& axis, int order, std::optional<double> epsilon) {
  constexpr std::string_view op = "normalize";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(order >= 1, op, ": argument `order` must be an int >= 1; got order=", order, ".");
  const double eps = epsilon.value_or(config::epsilon());
  Tensor xc = detail::cast(x, nn_detail::float_dtype(x));
  if (xc.ndim() == 0) xc = expand_dims(xc, 0);
  std::vector<int> axes = axes_list(op, axis, xc.ndim());
  if (order == 2) {
    // x * rsqrt(max(sum(x^2), eps^2)): the clamp keeps zero vectors finite, with a gradient.
    Tensor sq = sum(square(xc), axes, true);
    return multiply(xc, rsqrt(maximum(sq, eps * eps)));
  }
  Tensor norm;
  if (axes.size() == 1) {
    Tensor ax = abs(xc);
    norm = order == 1 ? sum(ax, axes, true)
                      : power(sum(power(ax, static_cast<double>(order)), axes, true), 1.0 / order);
  } else {
    // Over two axes numpy.linalg.norm takes a matrix norm: order 1 is the largest column sum.
    check(axes.size() == 2 && order == 1, op, ": over ", axes.size(),
          " axes only order 1 and 2 are supported (a matrix norm); got order=", order,
          " for x.shape=", x.shape(), ".");
    int rows = axes[0], cols = axes[1];
    if (!axis.is_none() && axis.list().size() == 2) {
      rows = detail::normalize_axis(op, axis.list()[0], xc.ndim());
      cols = detail::normalize_axis(op, axis.list()[1], xc.ndim());
    }
    norm = max(sum(abs(xc), rows, true), cols, true);
  }
  return divide(xc, maximum(norm, eps));
}

}  // namespace nn
}  // namespace keras::ops
