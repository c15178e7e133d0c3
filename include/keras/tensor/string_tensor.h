#pragma once
// Tensors of strings: Keras's (TensorFlow's) "string" dtype, held on the host. Text layers
// (StringLookup, TextVectorization, Hashing, HashedCrossing) take them as input; the numeric
// backends never see them, as Keras runs its string preprocessing on the CPU (tf.device("CPU:0"))
// whatever the accelerator. Each element is UTF-8 of any length.
//
//   keras::StringTensor words({"the", "cat", "sat", "down"}, {2, 2});
//   words.at({1, 0});                   // "sat"
//   std::cout << words;                 // tensor([['the', 'cat'],
//                                       //         ['sat', 'down']], shape=(2, 2), dtype=string)

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <vector>

#include "keras/core/shape.h"

#pragma GCC visibility push(default)
namespace keras {

/// An n-d array of UTF-8 strings in C (row-major) order. A value type: copies copy the strings.
class StringTensor {
 public:
  /// An empty 1-d tensor (shape (0,)).
  StringTensor() : shape_({0}) {}
  /// A 1-d tensor of `values`.
  StringTensor(std::vector<std::string> values);  // NOLINT(google-explicit-constructor)
  /// A 1-d tensor of the listed strings: `StringTensor({"a", "b"})`.
  StringTensor(std::initializer_list<std::string> values);
  /// `values` in C order with `shape`; ValueError when their counts differ.
  StringTensor(std::vector<std::string> values, Shape shape);
  /// A 0-d tensor holding one string.
  static StringTensor scalar(std::string value);

  /// The extent of each axis.
  const Shape& shape() const { return shape_; }
  /// The number of axes (0 for a scalar).
  int ndim() const { return shape_.rank(); }
  /// The number of strings.
  int64_t size() const { return static_cast<int64_t>(values_.size()); }
  /// Always "string", the name Keras and TensorFlow give this dtype.
  static const char* dtype() { return "string"; }

  /// The strings in C order.
  const std::vector<std::string>& values() const { return values_; }
  /// The strings in C order, writable in place; keep their count equal to the shape's size.
  std::vector<std::string>& values() { return values_; }
  /// The string at flat (C order) position `i`; IndexError when out of range.
  const std::string& flat(int64_t i) const;
  /// The string at a full index (negative entries count from the end); IndexError otherwise.
  const std::string& at(std::initializer_list<int64_t> index) const;

  /// The same strings with another shape of the same size (-1 once for the inferred extent).
  StringTensor reshape(const Shape& shape) const;
  /// Row `i` of the first axis (a tensor of rank ndim() - 1).
  StringTensor operator[](int64_t i) const;

  /// True when the shapes and all strings are equal.
  friend bool operator==(const StringTensor& a, const StringTensor& b) {
    return a.shape_ == b.shape_ && a.values_ == b.values_;
  }
  /// True when the shapes or some string differ.
  friend bool operator!=(const StringTensor& a, const StringTensor& b) { return !(a == b); }

 private:
  Shape shape_;
  std::vector<std::string> values_;
};

/// NumPy-style text: tensor(['a', 'b'], shape=(2,), dtype=string), with quotes and
/// backslashes escaped and long tensors summarized as the numeric tensors are.
std::ostream& operator<<(std::ostream& out, const StringTensor& t);
/// The same text as operator<<.
std::string to_string(const StringTensor& t);

}  // namespace keras

#pragma GCC visibility pop
