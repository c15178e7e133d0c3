#pragma once
// Basic indexing as a view: for every axis of the source, an integer (the axis disappears) or
// a slice start:start+len*step:step. The same spec reads a view of any strided tensor, and its
// gradient writes the incoming gradient into zeros of the source's shape through that view.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keras/backend/backend.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// What basic indexing keeps of one source axis.
struct AxisIndex {
  int64_t start = 0;
  int64_t step = 1;
  int64_t length = 1;
  bool keep = true;  // false: an integer index, the axis is dropped
};

/// The view of `x` the spec selects, recording nothing (for writing into fresh outputs).
Tensor spec_view(const Tensor& x, const std::vector<AxisIndex>& spec);
/// The view of `x` the spec selects (no copy). Differentiable.
Tensor basic_view(const Tensor& x, const std::vector<AxisIndex>& spec);
/// zeros(shape) with `g` written where basic_view(zeros, spec) would read. Differentiable.
Tensor basic_embed(const Tensor& g, const Shape& shape, const std::vector<AxisIndex>& spec);

/// The strides to view (shape, strides) as `new_shape` without copying, if any exist.
std::optional<Strides> view_strides(const Shape& old_shape, const Strides& old_strides,
                                    const Shape& new_shape);

}  // namespace keras::ops::detail

namespace keras::ops::detail {

/// Python's slice.indices(n) for `s` on an axis of extent n; ValueError for a zero step.
AxisIndex resolve_slice(std::string_view op, const Slice& s, int64_t n, int axis);
/// An integer index on an axis of extent n (negative counts from the end); IndexError when out
/// of range.
AxisIndex resolve_index(std::string_view op, int64_t i, int64_t n, int axis);

/// The full-axis spec of a tensor of `shape` (every axis kept whole).
std::vector<AxisIndex> full_spec(const Shape& shape);

// ---- gather and scatter along one axis (the backend's gather/scatter primitives) ------------

/// Integer `indices` for an axis of extent n, checked on the host (IndexError naming `op`, the
/// axis and the offending range) and with negative entries wrapped. int32 or int64.
Tensor normalize_indices(std::string_view op, const Tensor& indices, int64_t n, int axis);
/// out[..., j, ...] = x[..., index[..., j, ...], ...] along `axis`; index (of x's rank) is
/// broadcast to x's shape except along `axis`; indices in range. Differentiable.
Tensor gather_along(const Tensor& x, const Tensor& index, int axis);
/// zeros(shape) plus src scatter-added along `axis` at `index` (broadcast to src's shape;
/// `shape` equals src's except along `axis`); indices in range. Differentiable (the gradient
/// is gather_along).
Tensor scatter_add_along(const Tensor& src, const Tensor& index, int axis, const Shape& shape);
/// x's entries along `axis` at the in-range, non-negative 1-d `index` (take). Differentiable.
Tensor index_select(const Tensor& x, const Tensor& index, int axis);
/// The shape (1, 1, ..., 1) of `rank` axes.
Shape ones_shape(int rank);
/// A 1-d int64 tensor on x's backend holding `values`.
Tensor index_tensor(const std::vector<int64_t>& values, const Tensor& like);

/// "[1, 2, 3]", for messages.
std::string list_string(const std::vector<int64_t>& values);

}  // namespace keras::ops::detail
