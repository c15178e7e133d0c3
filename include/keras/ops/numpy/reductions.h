#pragma once
// keras.ops (numpy) reductions. `axis` is one axis, a list, or {} for all (ops::Axes);
// keepdims keeps reduced axes with extent 1. Arg-reductions return int32 as in Keras.

#include <optional>

#include "keras/core/scalar.h"
#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

// ---- sums and products ---------------------------------------------------------------------
/// Sum; bool and small integers sum in int32 as in Keras.
Tensor sum(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Product; bool and small integers multiply in int32 (or in `dtype` when given).
Tensor prod(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
            std::optional<DType> dtype = std::nullopt);
/// Mean; integers average in floatx().
Tensor mean(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Number of non-zero elements (int32).
Tensor count_nonzero(const Tensor& x, const Axes& axis = {});

// ---- extremes ------------------------------------------------------------------------------
/// Maximum; NaN propagates. Reducing an empty axis is a ValueError.
Tensor max(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Maximum that also counts `initial` (so an empty reduction gives `initial`).
Tensor max(const Tensor& x, const Axes& axis, bool keepdims, const Scalar& initial);
/// Minimum; NaN propagates. Reducing an empty axis is a ValueError.
Tensor min(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Minimum that also counts `initial` (so an empty reduction gives `initial`).
Tensor min(const Tensor& x, const Axes& axis, bool keepdims, const Scalar& initial);
/// Maximum (numpy.amax).
Tensor amax(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Minimum (numpy.amin).
Tensor amin(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Range of values, max - min ("peak to peak").
Tensor ptp(const Tensor& x, const Axes& axis = {}, bool keepdims = false);

// ---- logic ---------------------------------------------------------------------------------
/// True where every element along the axes is non-zero (true for an empty reduction).
Tensor all(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// True where some element along the axes is non-zero (false for an empty reduction).
Tensor any(const Tensor& x, const Axes& axis = {}, bool keepdims = false);

// ---- arg-reductions (int32) ----------------------------------------------------------------
/// Index of the first maximum along `axis` (of the flattened tensor when axis is nullopt).
/// A NaN counts as the maximum.
Tensor argmax(const Tensor& x, std::optional<int> axis = std::nullopt, bool keepdims = false);
/// Index of the first minimum along `axis` (of the flattened tensor when axis is nullopt).
Tensor argmin(const Tensor& x, std::optional<int> axis = std::nullopt, bool keepdims = false);
/// argmax ignoring NaN; -1 where every element is NaN (as JAX).
Tensor nanargmax(const Tensor& x, std::optional<int> axis = std::nullopt, bool keepdims = false);
/// argmin ignoring NaN; -1 where every element is NaN (as JAX).
Tensor nanargmin(const Tensor& x, std::optional<int> axis = std::nullopt, bool keepdims = false);

// ---- reductions that skip NaN --------------------------------------------------------------
/// Sum treating NaN as zero.
Tensor nansum(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Product treating NaN as one.
Tensor nanprod(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Mean of the non-NaN elements (NaN where there are none).
Tensor nanmean(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Maximum of the non-NaN elements (NaN where there are none).
Tensor nanmax(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Minimum of the non-NaN elements (NaN where there are none).
Tensor nanmin(const Tensor& x, const Axes& axis = {}, bool keepdims = false);

// ---- cumulative (axis nullopt: over the flattened tensor) ----------------------------------
/// Inclusive cumulative sum; bool becomes int32, or `dtype` when given.
Tensor cumsum(const Tensor& x, std::optional<int> axis = std::nullopt,
              std::optional<DType> dtype = std::nullopt);
/// Inclusive cumulative product; bool becomes int32, or `dtype` when given.
Tensor cumprod(const Tensor& x, std::optional<int> axis = std::nullopt,
               std::optional<DType> dtype = std::nullopt);
/// Cumulative sum treating NaN as zero.
Tensor nancumsum(const Tensor& x, std::optional<int> axis = std::nullopt,
                 std::optional<DType> dtype = std::nullopt);
/// Cumulative product treating NaN as one.
Tensor nancumprod(const Tensor& x, std::optional<int> axis = std::nullopt,
                  std::optional<DType> dtype = std::nullopt);

// ---- integration ---------------------------------------------------------------------------
/// Integral of y along `axis` by the trapezoidal rule, at sample points `x` (1-d of y's extent
/// along axis, or broadcastable to y) or with uniform spacing `dx` when x is undefined.
Tensor trapezoid(const Tensor& y, const Tensor& x = Tensor(), double dx = 1.0, int axis = -1);

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
