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
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  Shape(const std::vector<int64_t>& dims) : dims_(dims.begin(), dims.end()) {}  // NOLINT
  template <typename It>
  Shape(It first, It last) : dims_(first, last) {}

  /// Number of axes.
  int rank() const { return static_cast<int>(dims_.size()); }
  size_t size() const { return dims_.size(); }
  bool empty() const { return dims_.empty(); }
  /// Product of the extents (1 for a scalar).
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }
  int64_t operator[](size_t i) const { return dims_[i]; }
  int64_t& operator[](size_t i) { return dims_[i]; }
  const int64_t* begin() const { return dims_.begin(); }
  const int64_t* end() const { return dims_.end(); }
  int64_t* begin() { return dims_.begin(); }
  int64_t* end() { return dims_.end(); }
  const int64_t* data() const { return dims_.data(); }
  int64_t back() const { return dims_.back(); }

  void push_back(int64_t d) { dims_.push_back(d); }
  void pop_back() { dims_.pop_back(); }
  void insert(size_t pos, int64_t d) { dims_.insert(pos, d); }
  void erase(size_t pos) { dims_.erase(pos); }
  void resize(size_t n, int64_t value = 1) { dims_.resize(n, value); }

  std::vector<int64_t> to_vector() const { return {dims_.begin(), dims_.end()}; }
  /// Keras's tuple notation: "(2, 3)", "(5,)", "()".
  std::string to_string() const;

  friend bool operator==(const Shape& a, const Shape& b) { return a.dims_ == b.dims_; }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  SmallVector<int64_t, 8> dims_;
};

std::ostream& operator<<(std::ostream& out, const Shape& shape);
std::ostream& operator<<(std::ostream& out, const Strides& strides);

/// Row-major (C order) strides of a shape, in elements.
Strides contiguous_strides(const Shape& shape);

}  // namespace keras

#pragma GCC visibility pop
