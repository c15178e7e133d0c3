#pragma once
// Arguments shared by the convolution and pooling ops: Keras's "int or tuple of ints" for
// window sizes, strides and rates over the spatial dimensions.

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "keras/core/small_vector.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace nn {

/// An int used for every spatial dimension, or one int per spatial dimension (Python's
/// `int or tuple`): `2`, `{2, 1}`.
class IntOrTuple {
 public:
  /// From an int (every dimension) or from one int per dimension; implicit, as in Python.
  IntOrTuple(int value) : values_{value}, scalar_(true) {}                // NOLINT: an int converts
  /// From an int used for every spatial dimension.
  IntOrTuple(int64_t value) : values_{value}, scalar_(true) {}            // NOLINT
  /// From one int per spatial dimension.
  IntOrTuple(std::initializer_list<int64_t> values) : values_(values) {}  // NOLINT
  /// From one int per spatial dimension.
  IntOrTuple(const std::vector<int64_t>& values)                          // NOLINT
      : values_(values.begin(), values.end()) {}

  /// True when built from a single int.
  bool is_scalar() const { return scalar_; }
  /// The int, or the ints of the tuple.
  const SmallVector<int64_t, 3>& values() const { return values_; }

 private:
  SmallVector<int64_t, 3> values_;
  bool scalar_ = false;
};

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop
