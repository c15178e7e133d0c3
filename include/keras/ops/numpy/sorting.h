#pragma once
// keras.ops (numpy) sorting, searching and set operations. Index results are int32, as in
// Keras. Sorting is stable and puts NaN last.

#include <optional>
#include <string>

#include "keras/core/scalar.h"
#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

// ---- sorting -------------------------------------------------------------------------------
/// Values sorted ascending along `axis` (of the flattened tensor when axis is nullopt).
Tensor sort(const Tensor& x, std::optional<int> axis = -1);
/// Indices that sort x along `axis` (of the flattened tensor when axis is nullopt); stable.
Tensor argsort(const Tensor& x, std::optional<int> axis = -1);
/// Indices that partition x along `axis` around its kth smallest element: that element lands
/// at position kth, smaller ones before it and larger ones after (kth may be negative).
Tensor argpartition(const Tensor& x, int64_t kth, std::optional<int> axis = -1);

// ---- searching -----------------------------------------------------------------------------
/// Insertion points of `values` into the ascending 1-d `sorted_sequence`: the first position
/// (side "left") or one past the last (side "right") that keeps it sorted.
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values,
                    const std::string& side = "left");
/// Index of the bin of each x: i with bins[i-1] <= x < bins[i] for increasing bins,
/// bins[i-1] > x >= bins[i] for decreasing ones.
Tensor digitize(const Tensor& x, const Tensor& bins);
/// True where an element of x1 occurs in x2 (false where `invert`).
Tensor isin(const Tensor& x1, const Tensor& x2, bool assume_unique = false, bool invert = false);
/// The indices of the non-zero elements: one 1-d int32 tensor per axis of x.
TensorList nonzero(const Tensor& x);

// ---- sets ----------------------------------------------------------------------------------
/// Options of unique (Keras's keyword arguments).
struct UniqueOptions {
  /// Keras's `sorted`; ignored: keras-cpp always returns the values sorted ascending (NaN last).
  bool sorted = true;  // results are always sorted ascending (NaN last)
  /// Also return `index`, the first occurrence of each unique value.
  bool return_index = false;
  /// Also return `inverse`, the position of each element of x in `values`.
  bool return_inverse = false;
  /// Also return `counts`, how often each unique value occurs.
  bool return_counts = false;
  /// Unique slices along this axis; nullopt flattens x first.
  std::optional<int> axis = std::nullopt;
  /// A fixed output length: truncated, or padded with fill_value (counts and index with 0).
  std::optional<int64_t> size = std::nullopt;
  /// The value that pads `values` up to `size`.
  Scalar fill_value = 0;
};

/// What unique returns; the fields not asked for are undefined tensors.
struct UniqueResult {
  /// The unique values (or slices), sorted.
  Tensor values;
  /// int32: the first occurrence of each unique value (with return_index).
  Tensor index;    // int32: the first occurrence of each unique value
  /// int32: the index in `values` of each element of x, of x's shape (or (x.shape[axis],) with an
  /// axis).
  Tensor inverse;  // int32: x's shape (axis nullopt) or (x.shape[axis],)
  /// int32: how often each unique value occurs (with return_counts).
  Tensor counts;   // int32
};

/// The unique elements (or slices along an axis) of x, sorted. NaNs are all distinct, as in
/// Keras. Runs on the host: the output length depends on the values.
UniqueResult unique(const Tensor& x, const UniqueOptions& options = {});

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
