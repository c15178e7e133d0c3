#pragma once
// Private helpers of the reduction, statistics, sorting and segment ops: reduced shapes,
// axis moves and flips as views, NaN masks. (Gather and scatter along an axis are in
// ops/detail/views.h.)

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

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

/// Bool tensor, true at NaN (all false for integers and bool).
Tensor isnan_mask(const Tensor& x);
/// `x` with NaN replaced by `value` (x itself for integers). Differentiable: the gradient at
/// NaN positions is zero.
Tensor replace_nan(const Tensor& x, double value);

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

// ---- sorting -------------------------------------------------------------------------------

/// Stable sort along the last axis: (values, int64 indices). Values are differentiable (the
/// gradient is scattered back through the indices); either result may be skipped.
std::pair<Tensor, Tensor> sort_last(const Tensor& x, bool descending, bool want_values = true,
                                    bool want_indices = true);

}  // namespace keras::ops::detail
