// cumsum, cumprod, nancumsum, nancumprod.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

using backend::ScanOp;

namespace {

// sum over i >= k of g_i along `axis`: a cumulative sum of the reversed gradient.
Tensor reverse_cumsum(const Tensor& g, int axis) {
  return detail::flip_axis(cumsum(detail::flip_axis(g, axis), axis), axis);
}

// d/dx_k of sum_i g_i prod_{j<=i} x_j, exact with zeros. With z the first zero of a line:
// before z it is revcumsum(g y)_k / x_k (y vanishes from z on); at z it is revcumsum(g y')_z
// where y' is the product with x_z replaced by 1; after z it is 0.
Tensor cumprod_grad(const Tensor& x, const Tensor& y, const Tensor& g, int axis) {
  Tensor is_zero = equal(x, 0);
  Tensor zeros_so_far = cumsum(is_zero, axis);
  Tensor before_first = equal(zeros_so_far, 0);
  Tensor at_first = logical_and(is_zero, equal(zeros_so_far, 1));
  Tensor x_safe = where(before_first, x, 1);
  Tensor before = divide(reverse_cumsum(multiply(g, y), axis), x_safe);
  Tensor y_skip = cumprod(where(at_first, 1, x), axis);
  Tensor at = reverse_cumsum(multiply(g, y_skip), axis);
  return where(before_first, before, where(at_first, at, 0));
}

Tensor scan_op(std::string_view op, ScanOp kind, const Tensor& x, std::optional<int> axis,
               std::optional<DType> dtype) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  std::optional<int> ax = detail::resolve_axis(op, axis, x.ndim());
  Tensor src = ax ? x : reshape(x, Shape{x.size()});
  const int a = ax.value_or(0);
  // Keras keeps the dtype, except that bool counts in int32.
  DType t = dtype.value_or(x.dtype() == DType::Bool ? DType::Int32 : x.dtype());
  Tensor xc = detail::cast(src, t);
  Tensor out = detail::empty(xc.shape(), t, xc.backend());
  if (out.size() > 0) xc.backend().scan(kind, out.array(), xc.array(), a);
  if (autograd::should_record(xc)) {
    if (kind == ScanOp::CumSum) {
      autograd::record(op, {xc}, out, [a](const autograd::Context&, const Tensor& g) {
        return TensorList{reverse_cumsum(g, a)};
      });
    } else {
      autograd::record(op, {xc}, out, [xc, a](const autograd::Context& ctx, const Tensor& g) {
        return TensorList{cumprod_grad(xc, ctx.output(), g, a)};
      });
    }
  }
  return out;
}

}  // namespace

Tensor cumsum(const Tensor& x, std::optional<int> axis, std::optional<DType> dtype) {
  if (x.defined() && is_complex(dtype.value_or(x.dtype()))) {
    // A sum is linear: the running sums of the pairs, along the same axis of the real view.
    Tensor z = detail::cast(x, dtype.value_or(x.dtype()));
    if (!axis) return cumsum(reshape(z, {-1}), 0);
    const int a = detail::normalize_axis("cumsum", *axis, z.ndim());
    return view_as_complex(cumsum(view_as_real(z), a));
  }
  return scan_op("cumsum", ScanOp::CumSum, x, axis, dtype);
}
Tensor cumprod(const Tensor& x, std::optional<int> axis, std::optional<DType> dtype) {
  if (x.defined() && is_complex(dtype.value_or(x.dtype()))) {
    Tensor z = detail::cast(x, dtype.value_or(x.dtype()));
    if (!axis) return complex_detail::running_product(reshape(z, {-1}), 0);
    return complex_detail::running_product(z, detail::normalize_axis("cumprod", *axis, z.ndim()));
  }
  return scan_op("cumprod", ScanOp::CumProd, x, axis, dtype);
}
Tensor nancumsum(const Tensor& x, std::optional<int> axis, std::optional<DType> dtype) {
  check(x.defined(), "nancumsum: the input is an undefined tensor.");
  if (is_complex(dtype.value_or(x.dtype())))  // a NaN in either part counts as 0
    return cumsum(where(isnan(x), 0.0, x), axis, dtype);
  return scan_op("nancumsum", ScanOp::CumSum, detail::replace_nan(x, 0), axis, dtype);
}
Tensor nancumprod(const Tensor& x, std::optional<int> axis, std::optional<DType> dtype) {
  check(x.defined(), "nancumprod: the input is an undefined tensor.");
  if (is_complex(dtype.value_or(x.dtype()))) return cumprod(where(isnan(x), 1.0, x), axis, dtype);
  return scan_op("nancumprod", ScanOp::CumProd, detail::replace_nan(x, 1), axis, dtype);
}

}  // namespace numpy
}  // namespace keras::ops
