#pragma once
// The cropping and padding amounts of Cropping1D/2D/3D and ZeroPadding1D/2D/3D: Keras's "int,
// tuple of ints, or tuple of tuples of 2 ints".

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#pragma GCC visibility push(default)
namespace keras::layers {

/// The amounts at the start and the end of one axis: `2` (both sides) or `{1, 3}`.
struct SidePair {
  /// The same amount on both sides (`2`).
  SidePair(int64_t both) : before(both), after(both) {}  // NOLINT: an int converts, as in Keras
  /// `before_` at the start and `after_` at the end.
  SidePair(int64_t before_, int64_t after_) : before(before_), after(after_) {}
  /// A (before, after) pair (`{1, 3}`).
  SidePair(std::pair<int64_t, int64_t> p) : before(p.first), after(p.second) {}  // NOLINT

  /// The amount at the start of the axis.
  int64_t before;
  /// The amount at the end of the axis.
  int64_t after;
  /// Whether both amounts match.
  friend bool operator==(const SidePair& a, const SidePair& b) {
    return a.before == b.before && a.after == b.after;
  }
};

/// SidePairs for every spatial axis: one int for both sides of every axis (`1`), one int per
/// axis for both of its sides (`{1, 2}`), or one pair per axis (`{{1, 1}, {2, 0}}`); the forms
/// mix per axis as in Keras (`{1, {2, 0}}`).
class SidePairs {
 public:
  /// One int for both sides of every axis.
  SidePairs(int64_t all) : all_(all), scalar_(true) {}  // NOLINT: an int converts, as in Keras
  /// One entry per spatial axis (an int or a pair each).
  SidePairs(std::initializer_list<SidePair> axes) : axes_(axes) {}  // NOLINT
  /// One entry per spatial axis (an int or a pair each).
  SidePairs(std::vector<SidePair> axes) : axes_(std::move(axes)) {}  // NOLINT

  /// True when built from a single int.
  bool is_scalar() const { return scalar_; }
  /// The int of a scalar SidePairs.
  int64_t all() const { return all_; }
  /// The per-axis entries of a non-scalar SidePairs.
  const std::vector<SidePair>& axes() const { return axes_; }

 private:
  std::vector<SidePair> axes_;
  int64_t all_ = 0;
  bool scalar_ = false;
};

}  // namespace keras::layers

#pragma GCC visibility pop
