#pragma once
// keras.ops (numpy) indexing: get_item (NumPy indexing), take, take_along_axis, diagonal,
// trace, select, unravel_index.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

/// One entry of a NumPy index: an integer, a Slice, Ellipsis, NewAxis, or an integer or
/// boolean index tensor.
using Index = std::variant<int64_t, Slice, EllipsisType, NewAxisType, Tensor>;

/// x[key] with NumPy semantics. Integers, slices, Ellipsis and NewAxis alone give a view;
/// integer tensors select by advanced indexing (broadcast together; the selected axes go where
/// the first one was when all advanced entries are adjacent, else first); a boolean tensor
/// selects where it is true (its size depends on the data: a host round trip).
Tensor get_item(const Tensor& x, std::span<const Index> key);
/// get_item with a braced key: ops::get_item(x, {0, Slice(1, None), Ellipsis}).
Tensor get_item(const Tensor& x, std::initializer_list<Index> key);

/// Elements of `x` at `indices` along `axis` (of the flattened x for None); the result has
/// x's shape with that axis replaced by indices' shape. Negative indices count from the end;
/// out-of-range ones are an IndexError.
Tensor take(const Tensor& x, const Tensor& indices, std::optional<int> axis = std::nullopt);
/// x[..., indices[..., j, ...], ...] along `axis` (of the flattened x for None); indices and x
/// broadcast against each other on the other axes.
Tensor take_along_axis(const Tensor& x, const Tensor& indices,
                       std::optional<int> axis = std::nullopt);
/// The diagonal at `offset` of the planes (axis1, axis2), as the last axis of a view.
Tensor diagonal(const Tensor& x, int64_t offset = 0, int axis1 = 0, int axis2 = 1);
/// Sum along that diagonal (bool and small integers sum in int32, as Keras).
Tensor trace(const Tensor& x, int64_t offset = 0, int axis1 = 0, int axis2 = 1);
/// choicelist[i] where condlist[i] is the first true condition, else `default_value`.
Tensor select(const std::vector<Tensor>& condlist, const std::vector<Tensor>& choicelist,
              const Tensor& default_value = 0);
/// The coordinates in `shape` of the flat `indices` (one tensor per axis, indices' dtype).
/// Negative indices count from the end; out-of-range ones are a ValueError.
TensorList unravel_index(const Tensor& indices, const Shape& shape);

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
