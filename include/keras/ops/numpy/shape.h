#pragma once
// keras.ops (numpy) shape manipulation. Reshape (when the layout allows), transpose,
// expand_dims, squeeze, broadcast_to, flips, axis moves, rot90, split pieces and slicing return
// views that share storage; joins, tiles, pads and rolls copy once.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "keras/core/scalar.h"
#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

// ---- views ----------------------------------------------------------------------------------

/// `x` with a new shape of the same size; one dimension may be -1 (inferred).
Tensor reshape(const Tensor& x, const Shape& new_shape);
/// Axes permuted; reversed when `axes` is empty.
Tensor transpose(const Tensor& x, const std::vector<int>& axes = {});
/// A new axis of extent 1 at `axis` (or at each listed axis).
Tensor expand_dims(const Tensor& x, const Axes& axis);
/// Axes of extent 1 removed (all of them, or the listed ones, which must have extent 1).
Tensor squeeze(const Tensor& x, const Axes& axis = {});
/// `x` broadcast to `shape`, as a view.
Tensor broadcast_to(const Tensor& x, const Shape& shape);
/// `x` as 1-d.
Tensor ravel(const Tensor& x);
/// The order of elements reversed along the given axes (all axes for None), as a view.
Tensor flip(const Tensor& x, const Axes& axis = {});
/// flip along axis 1 (x must have at least 2 axes).
Tensor fliplr(const Tensor& x);
/// flip along axis 0 (x must have at least 1 axis).
Tensor flipud(const Tensor& x);
/// Axes `source` moved to positions `destination`, the others keeping their order (a view).
Tensor moveaxis(const Tensor& x, const Axes& source, const Axes& destination);
/// Axes axis1 and axis2 interchanged (a view).
Tensor swapaxes(const Tensor& x, int axis1, int axis2);
/// `x` rotated by 90 degrees k times in the plane of `axes`, from the first towards the second
/// (a view).
Tensor rot90(const Tensor& x, int k = 1, std::array<int, 2> axes = {0, 1});
/// The same bytes read as `dtype`. With a different item size the last axis (which must be
/// contiguous) is rescaled, as NumPy's ndarray.view.
Tensor view(const Tensor& x, DType dtype);

// ---- properties -----------------------------------------------------------------------------

/// Number of axes.
int ndim(const Tensor& x);
/// Number of elements.
int64_t size(const Tensor& x);

// ---- joining --------------------------------------------------------------------------------

/// The tensors joined along an existing axis.
Tensor concatenate(const std::vector<Tensor>& xs, int axis = 0);
/// The tensors joined along a new axis.
Tensor stack(const std::vector<Tensor>& xs, int axis = 0);
/// x2 appended to x1 along `axis`; both are flattened first when `axis` is None.
Tensor append(const Tensor& x1, const Tensor& x2, std::optional<int> axis = std::nullopt);
/// Joined along axis 1 (axis 0 for 1-d inputs).
Tensor hstack(const std::vector<Tensor>& xs);
/// Joined along axis 0, 1-d inputs becoming rows.
Tensor vstack(const std::vector<Tensor>& xs);
/// Joined along axis 2, inputs first made at least 3-d ((n,) -> (1, n, 1), (m, n) -> (m, n, 1)).
Tensor dstack(const std::vector<Tensor>& xs);
/// 1-d inputs as columns of a 2-d result; higher-rank inputs joined along axis 1.
Tensor column_stack(const std::vector<Tensor>& xs);

// ---- splitting ------------------------------------------------------------------------------

/// split's second argument: a number of equal sections, or the sorted indices where the pieces
/// begin (`ops::split(x, 3)`, `ops::split(x, {2, 5})`).
class SplitSpec {
 public:
  /// `sections` equal pieces (the extent must divide).
  SplitSpec(int64_t sections) : sections_(sections) {}  // NOLINT
  /// Pieces that begin at the sorted `indices`, as `{2, 5}`.
  SplitSpec(std::initializer_list<int64_t> indices) : indices_(indices) {}  // NOLINT
  /// Pieces that begin at the sorted `indices`.
  SplitSpec(std::vector<int64_t> indices) : indices_(std::move(indices)) {}  // NOLINT

  /// True for a number of sections, false for a list of indices.
  bool is_sections() const { return sections_.has_value(); }
  /// The number of sections (when is_sections()).
  int64_t sections() const { return *sections_; }
  /// The cut indices (when !is_sections()).
  const std::vector<int64_t>& indices() const { return indices_; }

 private:
  std::optional<int64_t> sections_;
  std::vector<int64_t> indices_;
};

/// Pieces of `x` along `axis` (views): equal sections (the extent must divide) or cut at indices.
TensorList split(const Tensor& x, const SplitSpec& indices_or_sections, int axis = 0);
/// `sections` pieces along `axis`; the first (extent % sections) pieces get one more element.
TensorList array_split(const Tensor& x, int64_t sections, int axis = 0);
/// split along axis 1 (axis 0 for 1-d tensors).
TensorList hsplit(const Tensor& x, const SplitSpec& indices_or_sections);
/// split along axis 0 (x must have at least 2 axes).
TensorList vsplit(const Tensor& x, const SplitSpec& indices_or_sections);
/// split along axis 2 (x must have at least 3 axes).
TensorList dsplit(const Tensor& x, const SplitSpec& indices_or_sections);

// ---- tiling, repeating, rolling, padding ----------------------------------------------------

/// `x` repeated `repeats[i]` times along each axis (leading axes of extent 1 are added to the
/// lower-rank of the two, as NumPy).
Tensor tile(const Tensor& x, const std::vector<int64_t>& repeats);
/// `x` repeated along its last axis.
Tensor tile(const Tensor& x, int64_t repeats);
/// Each element repeated `repeats` times along `axis` (of the flattened tensor for None).
Tensor repeat(const Tensor& x, int64_t repeats, std::optional<int> axis = std::nullopt);
/// Element i along `axis` repeated repeats[i] times (one count per element, or one for all).
Tensor repeat(const Tensor& x, const std::vector<int64_t>& repeats,
              std::optional<int> axis = std::nullopt);
/// Elements shifted by `shift` places along `axis`, wrapping around (of the flattened tensor
/// for None).
Tensor roll(const Tensor& x, int64_t shift, const Axes& axis = {});
/// Several shifts along several axes (broadcast against each other, as NumPy).
Tensor roll(const Tensor& x, const std::vector<int64_t>& shift, const Axes& axis);
/// The n-th discrete difference along `axis` (x[1:] - x[:-1], n times; bool uses !=).
Tensor diff(const Tensor& a, int n = 1, int axis = -1);

/// pad's widths: one (before, after) pair per axis, one pair for every axis, or one number for
/// both sides of every axis (`2`, `{{1, 2}}`, `{{0, 0}, {1, 2}}`).
class PadWidth {
 public:
  /// `both` elements before and after every axis.
  PadWidth(int64_t both) : widths_{{both, both}} {}  // NOLINT
  /// One (before, after) pair per axis, or one pair for every axis.
  PadWidth(std::initializer_list<std::pair<int64_t, int64_t>> widths)  // NOLINT
      : widths_(widths) {}
  /// One (before, after) pair per axis, or one pair for every axis.
  PadWidth(std::vector<std::pair<int64_t, int64_t>> widths)  // NOLINT
      : widths_(std::move(widths)) {}

  /// The (before, after) pairs as given.
  const std::vector<std::pair<int64_t, int64_t>>& widths() const { return widths_; }

 private:
  std::vector<std::pair<int64_t, int64_t>> widths_;
};

/// `x` padded. Modes: "constant" (with `constant_values`, default 0), "edge", "reflect",
/// "symmetric", "wrap" (also called "circular").
Tensor pad(const Tensor& x, const PadWidth& pad_width, std::string_view mode = "constant",
           std::optional<Scalar> constant_values = std::nullopt);

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
