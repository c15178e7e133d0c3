#pragma once
// Private helpers of the reduction, statistics, sorting and segment ops: reduced shapes,
// axis moves and flips as views, NaN masks, and differentiable gather/scatter along an axis.

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "ops/detail/op_utils.h"

namespace keras::ops::detail {

// ---- reduced shapes ------------------------------------------------------------------------

/// The axes flagged in `mask`, ascending.
std::vector<int> mask_axes(uint64_t mask, int ndim);
/// The number of elements each output of a reduction over `mask` reads.
int64_t reduced_count(const Shape& shape, uint64_t mask);
/// A keepdims-shaped reduction result reshaped as the caller asked.
Tensor finish_reduce(const Tensor& kept, const Shape& x_shape, uint64_t mask, bool keepdims);
/// `g` of a reduction's shape (either keepdims form) broadcast back to `x_shape` (a view).
Tensor expand_reduced(const Tensor& g, const Shape& x_shape, uint64_t mask);
/// The axis of a single-axis op: normalized, or nullopt (flatten first).
std::optional<int> resolve_axis(std::string_view op, std::optional<int> axis, int ndim);

// ---- values --------------------------------------------------------------------------------

/// A new tensor of `shape` and `dtype` on `b`, every element `value`.
Tensor filled(const Shape& shape, const Scalar& value, DType dtype, Backend& b);
/// Bool tensor, true at NaN (all false for integers and bool).
Tensor isnan_mask(const Tensor& x);
/// `x` with NaN replaced by `value` (x itself for integers). Differentiable: the gradient at
/// NaN positions is zero.
Tensor replace_nan(const Tensor& x, double value);
/// a && b, broadcast (bool).
Tensor logical_and(const Tensor& a, const Tensor& b);
/// a || b, broadcast (bool).
Tensor logical_or(const Tensor& a, const Tensor& b);

// ---- views ---------------------------------------------------------------------------------

/// `x` with `axis` moved to the end (a view).
Tensor move_axis_last(const Tensor& x, int axis);
/// The inverse of move_axis_last: the last axis moved back to position `axis` (a view).
Tensor move_last_axis_to(const Tensor& x, int axis);
/// `x` reversed along `axis` (a view; differentiable).
Tensor flip_axis(const Tensor& x, int axis);
/// `x[..., start:stop, ...]` along `axis` (a view; differentiable).
Tensor slice_axis(const Tensor& x, int axis, int64_t start, int64_t stop);
/// `x` with the axes of `mask` moved to the end and merged into one (a view when possible).
Tensor merge_axes_last(const Tensor& x, uint64_t mask);
/// The inverse of merge_axes_last: `t` (kept axes, then one merged axis) back to `x_shape`.
Tensor split_axes_last(const Tensor& t, const Shape& x_shape, uint64_t mask);

// ---- gather and scatter along an axis ------------------------------------------------------
// TODO(integration): gather_along is ops::take_along_axis (built by the shape engineer).

/// out[..., j, ...] = x[..., index[..., j, ...], ...] along `axis`. `index` (int32/int64, of
/// x's rank) is broadcast to x's shape except along `axis`; its entries must be in range
/// (callers guarantee it). Differentiable in x.
Tensor gather_along(const Tensor& x, const Tensor& index, int axis);
/// zeros(shape) with every src[...] added at index[...] along `axis` (index has src's shape).
/// Differentiable in src.
Tensor scatter_add_along(const Tensor& src, const Tensor& index, int axis, const Shape& shape);

// ---- sorting -------------------------------------------------------------------------------

/// Stable sort along the last axis: (values, int64 indices). Values are differentiable (the
/// gradient is scattered back through the indices); either result may be skipped.
std::pair<Tensor, Tensor> sort_last(const Tensor& x, bool descending, bool want_values = true,
                                    bool want_indices = true);

}  // namespace keras::ops::detail
