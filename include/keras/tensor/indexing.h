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
  std::optional<int64_t> start;
  std::optional<int64_t> stop;
  std::optional<int64_t> step;

  Slice() = default;
  Slice(std::optional<int64_t> start_, std::optional<int64_t> stop_ = None,
        std::optional<int64_t> step_ = None)
      : start(start_), stop(stop_), step(step_) {}
};

/// `...`: as many full slices as needed.
struct EllipsisType {};
inline constexpr EllipsisType Ellipsis{};
/// `np.newaxis`: inserts an axis of extent 1.
struct NewAxisType {};
inline constexpr NewAxisType NewAxis{};

}  // namespace keras

#pragma GCC visibility pop
