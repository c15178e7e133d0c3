// trapezoid: sum of d * (y[1:] + y[:-1]) / 2 along an axis, in NumPy's order of operations.

#include "keras/ops/ops.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

Tensor trapezoid(const Tensor& y, const Tensor& x, double dx, int axis) {
  constexpr std::string_view op = "trapezoid";
  check(y.defined(), op, ": the input y is an undefined tensor.");
  const int a = detail::normalize_axis(op, axis, y.ndim());
  auto& be = detail::common_backend(op, {&y, &x});
  DType t = x.defined() ? result_type({DTypeLike(y.dtype()), weak_float, DTypeLike(x.dtype())})
                        : float_result_type(y.dtype());
  Tensor yc = detail::prepare(y, t, be);
  const int64_t n = y.shape()[a];
  Tensor pair_sum = add(detail::slice_axis(yc, a, 1, n), detail::slice_axis(yc, a, 0, n - 1));
  Tensor area;
  if (!x.defined()) {
    area = multiply(pair_sum, dx);
  } else {
    Tensor xc = detail::prepare(x, t, be);
    if (xc.ndim() == 1) {
      if (xc.size() != n)
        throw ValueError(keras::detail::cat(op, ": x of shape ", x.shape(),
                                            " must have y's extent ", n, " along axis ", axis,
                                            " (y.shape=", y.shape(), ")."));
      Shape xs(std::vector<int64_t>(y.ndim(), 1));
      xs[a] = n;
      xc = reshape(xc, xs);
    } else if (xc.ndim() != y.ndim()) {
      throw ValueError(keras::detail::cat(op, ": x must be 1-d or have y's rank; got x.shape=",
                                          x.shape(), " and y.shape=", y.shape(), "."));
    }
    const int64_t nx = xc.shape()[a];
    Tensor d = subtract(detail::slice_axis(xc, a, 1, nx), detail::slice_axis(xc, a, 0, nx - 1));
    detail::broadcast_shapes(op, d.shape(), pair_sum.shape());
    area = multiply(d, pair_sum);
  }
  return sum(divide(area, 2.0), a);
}

}  // namespace numpy
}  // namespace keras::ops
