#pragma once
// Tensor shapes and strides. Both live inline for rank <= 8.

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <vector>

#include "keras/core/small_vector.h"

#pragma GCC visibility push(default)
namespace keras {

/// Strides in elements (not bytes); they may be 0 (broadcast) or negative (flipped views).
using Strides = SmallVector<int64_t, 8>;

/// The extent of each axis of a tensor; `Shape{}` is a 0-d scalar.
class Shape {
 public:
  Shape() = default;
  /// The listed extents: `Shape{2, 3}`.
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  /// The extents in `dims`.
  Shape(const std::vector<int64_t>& dims) : dims_(dims.begin(), dims.end()) {}  // NOLINT
  template <typename It>
  /// The extents in `[first, last)`.
  Shape(It first, It last) : dims_(first, last) {}

  /// Number of axes.
  int rank() const { return static_cast<int>(dims_.size()); }
  /// Number of axes, as a size_t (rank() as an int).
  size_t size() const { return dims_.size(); }
  /// True for a 0-d shape (a scalar), not for a shape with a zero extent.
  bool empty() const { return dims_.empty(); }
  /// Product of the extents (1 for a scalar).
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }
  /// The extent of axis `i`, unchecked: `i` must be below rank().
  int64_t operator[](size_t i) const { return dims_[i]; }
  /// The extent of axis `i`, writable and unchecked.
  int64_t& operator[](size_t i) { return dims_[i]; }
  /// An iterator to the first extent.
  const int64_t* begin() const { return dims_.begin(); }
  /// An iterator past the last extent.
  const int64_t* end() const { return dims_.end(); }
  /// A writable iterator to the first extent.
  int64_t* begin() { return dims_.begin(); }
  /// A writable iterator past the last extent.
  int64_t* end() { return dims_.end(); }
  /// The extents as a contiguous array of rank() values.
  const int64_t* data() const { return dims_.data(); }
  /// The last axis's extent; the shape must not be 0-d.
  int64_t back() const { return dims_.back(); }

  /// Appends an axis of extent `d`.
  void push_back(int64_t d) { dims_.push_back(d); }
  /// Removes the last axis; the shape must not be 0-d.
  void pop_back() { dims_.pop_back(); }
  /// Inserts an axis of extent `d` before axis `pos` (`pos` at most rank()).
  void insert(size_t pos, int64_t d) { dims_.insert(pos, d); }
  /// Removes axis `pos` (below rank()).
  void erase(size_t pos) { dims_.erase(pos); }
  /// Keeps the first `n` axes, or appends axes of extent `value` up to `n`.
  void resize(size_t n, int64_t value = 1) { dims_.resize(n, value); }

  /// The extents as a std::vector.
  std::vector<int64_t> to_vector() const { return {dims_.begin(), dims_.end()}; }
  /// Keras's tuple notation: "(2, 3)", "(5,)", "()".
  std::string to_string() const;

  /// True when both have the same rank and extents.
  friend bool operator==(const Shape& a, const Shape& b) { return a.dims_ == b.dims_; }
  /// True when rank or extents differ.
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  SmallVector<int64_t, 8> dims_;
};

/// Writes to_string(): "(2, 3)".
std::ostream& operator<<(std::ostream& out, const Shape& shape);
/// Writes strides in the same tuple notation: "(3, 1)".
std::ostream& operator<<(std::ostream& out, const Strides& strides);

/// Row-major (C order) strides of a shape, in elements.
Strides contiguous_strides(const Shape& shape);

}  // namespace keras

#pragma GCC visibility pop
