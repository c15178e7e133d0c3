#pragma once
// One type for every scalar that crosses an API: fill values, clip bounds, literals in ops.
// A scalar written as a C++ literal is "weakly typed" as in Keras and JAX: `x + 1.5` keeps
// float16 for a float16 x, and `i + 1` keeps int8 for an int8 i.

#include <cstdint>
#include <iosfwd>
#include <type_traits>

#include "keras/core/dtype.h"

#pragma GCC visibility push(default)
namespace keras {

/// A bool, integer or floating value, with a dtype or a weak kind.
class Scalar {
 public:
  /// What the value holds: a bool, an integer (stored as int64) or a float (stored as double).
  enum class Kind : uint8_t { Bool, Int, Float };

  Scalar() : Scalar(0.0) {}
  /// A bool, strongly typed as DType::Bool.
  Scalar(bool v) : kind_(Kind::Bool), weak_(false), dtype_(DType::Bool) { i_ = v; }  // NOLINT
  /// A weak integer (a Python int in Keras's promotion): adapts to the other operand's dtype.
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(Kind::Int), weak_(true), dtype_(DType::Int32) {  // NOLINT
    i_ = static_cast<int64_t>(v);
  }
  /// A weak float (a Python float in Keras's promotion): adapts to the other operand's dtype.
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : kind_(Kind::Float), weak_(true), dtype_(DType::Float32) {  // NOLINT
    d_ = static_cast<double>(v);
  }
  /// The value of `v` as a weak float (it does not keep float16).
  Scalar(float16_t v) : Scalar(static_cast<float>(v)) {}  // NOLINT
  /// The value of `v` as a weak float (it does not keep bfloat16).
  Scalar(bfloat16_t v) : Scalar(static_cast<float>(v)) {}  // NOLINT

  /// A strongly typed scalar: `value` converted to `dtype`.
  static Scalar typed(double value, DType dtype);
  /// A strongly typed scalar from an integer, exact for int64 values of any size.
  static Scalar typed_int(int64_t value, DType dtype);

  /// Whether the value is a bool, an integer or a float.
  Kind kind() const { return kind_; }
  /// True when the scalar came from a C++ literal and adapts to the other operand's dtype.
  bool is_weak() const { return weak_; }
  /// True when the value is a float.
  bool is_floating() const { return kind_ == Kind::Float; }
  /// True when the value is an integer (not bool).
  bool is_integral() const { return kind_ == Kind::Int; }
  /// True when the value is a bool.
  bool is_bool() const { return kind_ == Kind::Bool; }
  /// The dtype this scalar has on its own (weak ints are int32 and weak floats float32, as a
  /// Python int and float become in Keras).
  DType dtype() const { return dtype_; }

  /// The value as a double (integers may round beyond 2^53).
  double to_double() const { return kind_ == Kind::Float ? d_ : static_cast<double>(i_); }
  /// The value as an int64; floats truncate toward zero.
  int64_t to_int() const { return kind_ == Kind::Float ? static_cast<int64_t>(d_) : i_; }
  /// True when the value is nonzero.
  bool to_bool() const { return kind_ == Kind::Float ? d_ != 0.0 : i_ != 0; }
  /// The value converted to C++ type T (float16/bfloat16 round to nearest even).
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) {
      return to_bool();
    } else if constexpr (std::is_integral_v<T>) {
      return kind_ == Kind::Float ? static_cast<T>(d_) : static_cast<T>(i_);
    } else if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) {
      return T(static_cast<float>(to_double()));
    } else {
      return static_cast<T>(to_double());
    }
  }

 private:
  Kind kind_;
  bool weak_;
  DType dtype_;
  union {
    int64_t i_;
    double d_;
  };
};

/// Writes the value (a bool as True or False, as Python does).
std::ostream& operator<<(std::ostream& out, const Scalar& s);

}  // namespace keras

#pragma GCC visibility pop
