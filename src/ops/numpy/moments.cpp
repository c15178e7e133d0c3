// average, var, std, nanvar, nanstd, corrcoef: compositions of differentiable reductions, so
// their gradients follow from those of mean, sum, square, sqrt and divide.

#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// Keras computes var (and so std) of half-precision inputs in float32, then casts back.
DType variance_compute_dtype(DType t) {
  return result_type({DTypeLike(t), DTypeLike(DType::Float32)});
}

// The squared distance from the mean: |c|^2 for complex c (real, as NumPy's var).
Tensor squared(const Tensor& centered) {
  return is_complex(centered.dtype()) ? square(abs(centered)) : square(centered);
}

// The dtype var and std return: the input's float dtype, the part dtype for complex input.
DType variance_result_dtype(DType t) {
  return is_complex(t) ? complex_part_dtype(t) : float_result_type(t);
}

Tensor variance(std::string_view op, const Tensor& x, const Axes& axis, bool keepdims) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  detail::axes_mask(op, axis, x.ndim());
  Tensor xc = detail::cast(x, variance_compute_dtype(x.dtype()));
  Tensor centered = subtract(xc, mean(xc, axis, true));
  return mean(squared(centered), axis, keepdims);
}

Tensor nan_variance(std::string_view op, const Tensor& x, const Axes& axis, bool keepdims) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (!is_floating(x.dtype()) && !is_complex(x.dtype())) return variance(op, x, axis, keepdims);
  Tensor nan = detail::isnan_mask(x);
  Tensor count = sum(logical_not(nan), axis, keepdims);
  Tensor centered = where(nan, 0, subtract(x, nanmean(x, axis, true)));
  return divide(sum(squared(centered), axis, keepdims), count);
}

}  // namespace

Tensor var(const Tensor& x, const Axes& axis, bool keepdims) {
  Tensor v = variance("var", x, axis, keepdims);
  return detail::cast(v, variance_result_dtype(x.dtype()));
}

Tensor std(const Tensor& x, const Axes& axis, bool keepdims) {
  Tensor s = sqrt(variance("std", x, axis, keepdims));
  return detail::cast(s, variance_result_dtype(x.dtype()));
}

Tensor nanvar(const Tensor& x, const Axes& axis, bool keepdims) {
  return detail::cast(nan_variance("nanvar", x, axis, keepdims),
                      variance_result_dtype(x.dtype()));
}

Tensor nanstd(const Tensor& x, const Axes& axis, bool keepdims) {
  return detail::cast(sqrt(nan_variance("nanstd", x, axis, keepdims)),
                      variance_result_dtype(x.dtype()));
}

Tensor average(const Tensor& x, const Axes& axis, const Tensor& weights) {
  constexpr std::string_view op = "average";
  check(x.defined(), op, ": the input is an undefined tensor.");
  detail::axes_mask(op, axis, x.ndim());
  if (!weights.defined()) return mean(detail::cast(x, float_result_type(x.dtype())), axis);
  auto& be = detail::common_backend(op, {&x, &weights});
  DType t = result_type({DTypeLike(x.dtype()), weak_float, DTypeLike(weights.dtype())});
  Tensor xc = detail::prepare(x, t, be), w = detail::prepare(weights, t, be);
  if (w.shape() != x.shape()) {
    if (axis.is_none())
      throw ValueError(keras::detail::cat(
          op, ": weights must have the shape of x when axis is None; got x.shape=", x.shape(),
          " and weights.shape=", weights.shape(), "."));
    if (axis.list().size() != 1 || w.ndim() != 1)
      throw ValueError(keras::detail::cat(op, ": weights of shape ", weights.shape(),
                                          " differ from x.shape=", x.shape(),
                                          "; they must then be 1-d and the axis a single axis."));
    int a = detail::normalize_axis(op, axis.list()[0], x.ndim());
    if (w.size() != x.shape()[a])
      throw ValueError(keras::detail::cat(op, ": weights of length ", w.size(),
                                          " do not match x.shape=", x.shape(), " along axis ",
                                          axis.list()[0], " (extent ", x.shape()[a], ")."));
    Shape ws(std::vector<int64_t>(x.ndim(), 1));
    ws[a] = w.size();
    w = reshape(w, ws);
  }
  return divide(sum(multiply(xc, w), axis), sum(w, axis));
}

Tensor corrcoef(const Tensor& x) {
  constexpr std::string_view op = "corrcoef";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (x.ndim() != 1 && x.ndim() != 2)
    throw ValueError(keras::detail::cat(
        op, ": x must be 1-d or 2-d (variables in rows); got shape ", x.shape(), "."));
  if (is_complex(x.dtype())) {
    // NumPy's and JAX's: the covariance with conjugates, divided by the real standard
    // deviations, each part clipped to [-1, 1].
    Tensor rows = reshape(x, x.ndim() == 1 ? Shape{1, x.size()} : x.shape());
    const double dof = static_cast<double>(rows.shape()[1] - 1);
    Tensor centered = subtract(rows, mean(rows, 1, true));
    Tensor cov = divide(matmul(centered, conj(transpose(centered))), dof);
    Tensor stddev = sqrt(divide(sum(square(abs(centered)), 1), dof));
    Tensor c = divide(divide(cov, expand_dims(stddev, 1)), expand_dims(stddev, 0));
    auto clipped = [](const Tensor& t) {
      return where(greater(t, 1), 1, where(less(t, -1), -1, t));
    };
    c = view_as_complex(stack({clipped(real(c)), clipped(imag(c))}, -1));
    return x.ndim() == 1 ? reshape(c, Shape{}) : c;
  }
  DType t = x.dtype() == DType::Int64 ? DType::Float64 : float_result_type(x.dtype());
  Tensor rows = reshape(detail::cast(x, t), x.ndim() == 1 ? Shape{1, x.size()} : x.shape());
  const double dof = static_cast<double>(rows.shape()[1] - 1);
  Tensor centered = subtract(rows, mean(rows, 1, true));
  Tensor cov = divide(matmul(centered, transpose(centered)), dof);
  Tensor stddev = sqrt(divide(sum(square(centered), 1), dof));
  Tensor c = divide(divide(cov, expand_dims(stddev, 1)), expand_dims(stddev, 0));
  // Rounding can push |c| slightly past 1; clip as NumPy does (the gradient passes inside).
  c = where(greater(c, 1), 1, where(less(c, -1), -1, c));
  return x.ndim() == 1 ? reshape(c, Shape{}) : c;
}

}  // namespace numpy
}  // namespace keras::ops
