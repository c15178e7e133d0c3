#pragma once
// The pieces of NumPy-style indexing: t.slice({{0, 10}, {}, {1, -1, 2}}) and
// t.index({0, Slice(1, None), Ellipsis, NewAxis, index_tensor}).

#include <cstdint>
#include <optional>
#include <variant>

#pragma GCC visibility push(default)
namespace keras {

class Tensor;

/// Python's None where an optional bound is meant: Slice(None, 5).
inline constexpr std::nullopt_t None = std::nullopt;

/// start:stop:step along one axis; each part may be None. `{}` is the whole axis (`:`).
struct Slice {
  /// The first index taken (negative counts from the end); None is the start of the axis, or its
  /// end for a negative step.
  std::optional<int64_t> start;
  /// The index the slice stops before (negative counts from the end); None runs past the end
  /// of the axis (past its start for a negative step).
  std::optional<int64_t> stop;
  /// The stride between taken indices, negative to walk backwards; None is 1 and 0 is a ValueError.
  std::optional<int64_t> step;

  Slice() = default;
  /// `start:stop:step`, as Python's slice(start, stop, step); bounds beyond the axis are clamped.
  Slice(std::optional<int64_t> start_, std::optional<int64_t> stop_ = None,
        std::optional<int64_t> step_ = None)
      : start(start_), stop(stop_), step(step_) {}
};

/// `...`: as many full slices as needed.
struct EllipsisType {};
/// The `...` index value.
inline constexpr EllipsisType Ellipsis{};
/// `np.newaxis`: inserts an axis of extent 1.
struct NewAxisType {};
/// The `np.newaxis` index value.
inline constexpr NewAxisType NewAxis{};

}  // namespace keras

#pragma GCC visibility pop
