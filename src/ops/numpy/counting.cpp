// bincount and histogram: counts scattered into bins with the backend's scatter-add.

#include <cmath>

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

Tensor bincount(const Tensor& x, const Tensor& weights, int64_t minlength) {
  constexpr std::string_view op = "bincount";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (!is_integer(x.dtype()) && x.dtype() != DType::Bool)
    throw TypeError(keras::detail::cat(op, ": x must hold integers; got dtype ", x.dtype(), "."));
  if (x.ndim() != 1 && x.ndim() != 2)
    throw ValueError(keras::detail::cat(op, ": x must be 1-d (or 2-d, counted per row); got shape ",
                                        x.shape(), "."));
  if (minlength < 0)
    throw ValueError(
        keras::detail::cat(op, ": minlength must be non-negative; got ", minlength, "."));
  if (weights.defined() && weights.shape() != x.shape())
    throw ValueError(keras::detail::cat(op, ": weights must have x's shape ", x.shape(), "; got ",
                                        weights.shape(), "."));
  auto& be = detail::common_backend(op, {&x, &weights});
  Tensor idx = detail::cast(x, x.dtype() == DType::Int64 ? DType::Int64 : DType::Int32);
  // The output length depends on the values: one host read of the extremes.
  int64_t length = minlength;
  if (x.size() > 0) {
    auto extremes =
        stack({cast(min(idx), DType::Int64), cast(max(idx), DType::Int64)}).to_vector<int64_t>();
    if (extremes[0] < 0)
      throw ValueError(keras::detail::cat(op, ": x must be non-negative; got a minimum of ",
                                          extremes[0], " (x.shape=", x.shape(), ")."));
    length = std::max(length, extremes[1] + 1);
  }
  Shape out_shape = x.shape();
  out_shape[x.ndim() - 1] = length;
  const int axis = x.ndim() - 1;
  if (!weights.defined())
    return detail::scatter_add_along(detail::filled(x.shape(), 1, DType::Int32, be), idx, axis,
                                     out_shape);
  DType t = result_type({DTypeLike(x.dtype()), DTypeLike(weights.dtype())});
  return detail::scatter_add_along(detail::prepare(weights, t, be), idx, axis, out_shape);
}

std::pair<Tensor, Tensor> histogram(const Tensor& x, int64_t bins,
                                    std::optional<std::pair<double, double>> range) {
  constexpr std::string_view op = "histogram";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (x.ndim() != 1)
    throw ValueError(
        keras::detail::cat(op, ": input tensor must be 1-dimensional; got shape ", x.shape(), "."));
  if (bins < 0)
    throw ValueError(keras::detail::cat(op,
                                        ": argument `bins` should be a non-negative integer; "
                                        "got ",
                                        bins, "."));
  auto& be = x.backend();
  double first = 0, last = 1;
  if (range) {
    std::tie(first, last) = *range;
    if (last < first)
      throw ValueError(keras::detail::cat(op,
                                          ": the second element of `range` must be greater "
                                          "than the first; got (",
                                          first, ", ", last, ")."));
  } else if (x.size() > 0) {
    // The edges depend on the values: one host read of the extremes.
    auto extremes =
        stack({cast(min(x), DType::Float64), cast(max(x), DType::Float64)}).to_vector<double>();
    first = extremes[0];
    last = extremes[1];
  }
  if (!std::isfinite(first) || !std::isfinite(last))
    throw ValueError(
        keras::detail::cat(op, ": the range [", first, ", ", last, "] is not finite."));
  if (first == last) {
    first -= 0.5;
    last += 0.5;
  }
  // The edges as NumPy's linspace computes them: in double, the last one exactly `last`.
  const DType edge_dtype = float_result_type(x.dtype());
  std::vector<double> edge_values(static_cast<size_t>(bins + 1));
  const double step = bins > 0 ? (last - first) / static_cast<double>(bins) : 0.0;
  for (int64_t i = 0; i <= bins; ++i) edge_values[i] = static_cast<double>(i) * step + first;
  if (bins > 0) edge_values[bins] = last;
  Tensor edges =
      cast(Tensor::from_vector(edge_values, Shape{bins + 1}, x.backend_name()), edge_dtype);

  // Counts of float inputs have x's dtype (as Keras's JAX backend); of integers, int32.
  const DType count_dtype = is_floating(x.dtype()) ? x.dtype() : DType::Int32;
  if (bins == 0 || x.size() == 0) return {detail::filled(Shape{bins}, 0, count_dtype, be), edges};
  // NumPy's uniform-bin rule: an estimate from the scaled offset, corrected by at most one
  // against the rounded edges; the last bin is closed. Values outside go to a spare bin.
  Tensor xd = cast(x, DType::Float64);
  Tensor inside = logical_and(greater_equal(xd, first), less_equal(xd, last));
  Tensor estimate =
      where(inside, multiply(subtract(xd, first), static_cast<double>(bins) / (last - first)), 0.0);
  Tensor idx = cast(detail::run_unary(backend::UnaryOp::Clip,
                                      detail::run_unary(backend::UnaryOp::Floor, estimate), 0.0,
                                      static_cast<double>(bins - 1)),
                    DType::Int64);
  Tensor xe = cast(x, edge_dtype);
  idx = subtract(idx, cast(less(xe, detail::gather_along(edges, idx, 0)), DType::Int64));
  idx = cast(detail::run_unary(backend::UnaryOp::Clip, idx, 0.0, static_cast<double>(bins - 1)),
             DType::Int64);
  Tensor up = logical_and(greater_equal(xe, detail::gather_along(edges, add(idx, 1), 0)),
                                  not_equal(idx, bins - 1));
  idx = where(inside, add(idx, cast(up, DType::Int64)), bins);
  Tensor counts = detail::scatter_add_along(detail::filled(x.shape(), 1, count_dtype, be), idx, 0,
                                            Shape{bins + 1});
  return {detail::slice_axis(counts, 0, 0, bins), edges};
}

}  // namespace numpy
}  // namespace keras::ops
