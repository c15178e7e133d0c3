#pragma once
// Basic indexing as a view: for every axis of the source, an integer (the axis disappears) or
// a slice start:start+len*step:step. The same spec reads a view of any strided tensor, and its
// gradient writes the incoming gradient into zeros of the source's shape through that view.

#include <optional>
#include <vector>

#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// What basic indexing keeps of one source axis.
struct AxisIndex {
  int64_t start = 0;
  int64_t step = 1;
  int64_t length = 1;
  bool keep = true;  // false: an integer index, the axis is dropped
};

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

}  // namespace keras::ops::detail
