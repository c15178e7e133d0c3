#pragma once
// The `axis` argument of reductions and friends: one axis, a list, or None (all axes).
// ops::sum(x) and ops::sum(x, {}) reduce everything; ops::sum(x, -1); ops::sum(x, {0, 2}).

#include <initializer_list>
#include <optional>
#include <vector>

#include "keras/core/small_vector.h"

#pragma GCC visibility push(default)
namespace keras::ops {

/// One axis, a list of axes, or None (every axis). Negative axes count from the end.
class Axes {
 public:
  /// None: every axis.
  Axes() = default;
  /// None (Python's `axis=None`): every axis.
  Axes(std::nullopt_t) {}  // NOLINT
  /// A single axis; negative counts from the end.
  Axes(int axis) : axes_(SmallVector<int, 8>{axis}) {}  // NOLINT
  /// A list of axes such as `{0, 2}`; a bare `{}` picks the default constructor (None).
  Axes(std::initializer_list<int> axes) : axes_(SmallVector<int, 8>(axes)) {}  // NOLINT
  /// A list of axes.
  Axes(const std::vector<int>& axes)  // NOLINT
      : axes_(SmallVector<int, 8>(axes.begin(), axes.end())) {}

  /// Whether this is None (reduce over every axis).
  bool is_none() const { return !axes_.has_value(); }
  /// The axes, as given (not normalized); only valid when `is_none()` is false.
  const SmallVector<int, 8>& list() const { return *axes_; }

 private:
  std::optional<SmallVector<int, 8>> axes_;
};

}  // namespace keras::ops

#pragma GCC visibility pop
