// median, quantile, percentile and their NaN-skipping forms. The reduced axes are merged into
// one and sorted (NaN last); each quantile then reads the sorted values at the two positions
// around (count - 1) * q and interpolates as NumPy does. Sorting and gathering are both
// differentiable, so the gradient reaches the selected elements with the interpolation
// weights.

#include <limits>

#include "keras/ops/ops.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

enum class Method { Linear, Lower, Higher, Midpoint, Nearest };

Method parse_method(std::string_view op, const std::string& method) {
  if (method == "linear") return Method::Linear;
  if (method == "lower") return Method::Lower;
  if (method == "higher") return Method::Higher;
  if (method == "midpoint") return Method::Midpoint;
  if (method == "nearest") return Method::Nearest;
  throw ValueError(keras::detail::cat(op, ": unknown method '", method,
                                      "'; expected one of 'linear', 'lower', 'higher', "
                                      "'midpoint', 'nearest'."));
}

// NumPy's _lerp: a + (b - a) t, or b - (b - a)(1 - t) for t >= 0.5 (exact at both ends).
Tensor lerp(const Tensor& a, const Tensor& b, const Tensor& t) {
  Tensor diff = subtract(b, a);
  return where(greater_equal(t, 0.5), subtract(b, multiply(diff, subtract(1, t))),
               add(a, multiply(diff, t)));
}

Tensor rounded(backend::UnaryOp op, const Tensor& t) {
  return detail::run_unary(op, t);
}

struct Positions {
  Tensor lo, hi;  // int64 indices into the sorted line
  Tensor weight;  // of hi, in the compute dtype; undefined when hi is not used
};

// Where each quantile reads, from pos = (count - 1) q in float64. `count` is the number of
// valid (non-NaN) values of each line; indices stay within [0, n) even for empty lines.
Positions positions(Method method, const Tensor& q, const Tensor& count, int64_t n, DType t) {
  using backend::UnaryOp;
  Tensor last = subtract(count, 1.0);
  Tensor pos = multiply(q, last);
  Tensor lo, hi, weight;
  switch (method) {
    case Method::Linear:
      lo = rounded(UnaryOp::Floor, pos);
      hi = minimum(add(lo, 1.0), last);
      weight = cast(subtract(pos, lo), t);
      break;
    case Method::Lower:
      lo = rounded(UnaryOp::Floor, pos);
      break;
    case Method::Higher:
      lo = rounded(UnaryOp::Ceil, pos);
      break;
    case Method::Nearest:
      lo = rounded(UnaryOp::Round, pos);
      break;  // half to even
    case Method::Midpoint:
      lo = rounded(UnaryOp::Floor, pos);
      hi = rounded(UnaryOp::Ceil, pos);
      weight = detail::filled(Shape{}, 0.5, t, pos.backend());
      break;
  }
  auto to_index = [n](const Tensor& p) {
    return cast(detail::run_unary(backend::UnaryOp::Clip, p, 0.0, static_cast<double>(n - 1)),
                DType::Int64);
  };
  return {to_index(lo), hi.defined() ? to_index(hi) : Tensor(), weight};
}

void check_q_range(std::string_view op, const Tensor& q, double scale) {
  Tensor bad =
      logical_or(logical_or(less(q, 0.0), greater(q, 1.0)), detail::isnan_mask(q));
  if (q.size() > 0 && any(bad).item<bool>())
    throw ValueError(keras::detail::cat(op, ": q must be within [0, ", scale,
                                        "]; got values outside it (q.shape=", q.shape(), ")."));
}

Tensor quantile_impl(std::string_view op, const Tensor& x, const Tensor& q, const Axes& axis,
                     const std::string& method_name, bool keepdims, bool skip_nan, double scale) {
  check(x.defined() && q.defined(), op, ": an input is an undefined tensor.");
  const Method method = parse_method(op, method_name);
  if (q.ndim() > 1)
    throw ValueError(
        keras::detail::cat(op, ": q must be a scalar or 1-d; got shape ", q.shape(), "."));
  const uint64_t mask = detail::axes_mask(op, axis, x.ndim());
  auto& be = detail::common_backend(op, {&x, &q});
  const DType t = float_result_type(x.dtype());
  Tensor qv = divide(detail::prepare(q, DType::Float64, be), scale);
  check_q_range(op, qv, scale);
  const int64_t nq = q.ndim() == 0 ? 1 : q.shape()[0];

  Tensor lines = detail::merge_axes_last(detail::cast(x, t), mask);
  const int last = lines.ndim() - 1;
  const int64_t n = lines.shape()[last];
  Shape kept_q = lines.shape();  // kept axes, then one axis per quantile
  kept_q[last] = nq;
  Tensor result;
  if (n == 0) {
    result = detail::filled(kept_q, std::numeric_limits<double>::quiet_NaN(), t, be);
  } else {
    Tensor nan = detail::isnan_mask(lines);
    Tensor count = skip_nan ? cast(sum(logical_not(nan), -1, true), DType::Float64)
                            : detail::filled(Shape{}, static_cast<double>(n), DType::Float64, be);
    Shape q_shape(std::vector<int64_t>(lines.ndim(), 1));
    q_shape[last] = nq;
    Positions p = positions(method, reshape(qv, q_shape), count, n, t);
    Tensor sorted = detail::sort_last(lines, false, true, false).first;
    Tensor lo = detail::gather_along(sorted, p.lo, last);
    result = p.hi.defined() ? lerp(lo, detail::gather_along(sorted, p.hi, last), p.weight) : lo;
    // A line with NaN gives NaN; with skip_nan, only a line of nothing but NaN does.
    Tensor invalid = skip_nan ? equal(count, 0.0) : any(nan, -1, true);
    result = where(invalid, std::numeric_limits<double>::quiet_NaN(), result);
  }
  // (kept..., nq) -> q's shape + the reduced shape.
  Shape out_shape = detail::reduced_shape(x.shape(), mask, keepdims);
  if (q.ndim() == 1) out_shape.insert(0, nq);
  return reshape(detail::move_last_axis_to(result, 0), out_shape);
}

}  // namespace

Tensor quantile(const Tensor& x, const Tensor& q, const Axes& axis, const std::string& method,
                bool keepdims) {
  return quantile_impl("quantile", x, q, axis, method, keepdims, false, 1.0);
}
Tensor nanquantile(const Tensor& x, const Tensor& q, const Axes& axis, const std::string& method,
                   bool keepdims) {
  return quantile_impl("nanquantile", x, q, axis, method, keepdims, true, 1.0);
}
Tensor percentile(const Tensor& x, const Tensor& q, const Axes& axis, const std::string& method,
                  bool keepdims) {
  return quantile_impl("percentile", x, q, axis, method, keepdims, false, 100.0);
}
Tensor nanpercentile(const Tensor& x, const Tensor& q, const Axes& axis, const std::string& method,
                     bool keepdims) {
  return quantile_impl("nanpercentile", x, q, axis, method, keepdims, true, 100.0);
}
Tensor median(const Tensor& x, const Axes& axis, bool keepdims) {
  return quantile_impl("median", x, 0.5, axis, "linear", keepdims, false, 1.0);
}
Tensor nanmedian(const Tensor& x, const Axes& axis, bool keepdims) {
  return quantile_impl("nanmedian", x, 0.5, axis, "linear", keepdims, true, 1.0);
}

}  // namespace numpy
}  // namespace keras::ops
