#pragma once
// Keras 3's dtype promotion (keras/src/backend/common/dtypes.py), which follows JAX's lattice:
//   bool -> weak int -> {uint8, int8} -> int16 -> int32 -> int64 -> weak float
//   weak float -> {bfloat16, float16} -> float32 -> float64
// Weak types are C++ literals (Python's int and float); they adapt to the other operand.
//
// One deliberate difference: Keras maps a 64-bit result to 32 bits on non-TensorFlow backends
// (JAX's x64-off mode). keras-cpp keeps int64 and float64, because a C++ caller that asks for
// 64 bits means it, and Keras's own torch backend computes in 64 bits anyway.

#include <initializer_list>
#include <span>

#include "keras/core/dtype.h"

#pragma GCC visibility push(default)
namespace keras {

/// A dtype, or the weak kind of a C++ literal, as an input to promotion.
struct DTypeLike {
  /// The dtype; for a weak input only its kind counts (integer or floating).
  DType dtype;
  /// True for a weakly typed literal, which adapts to the other operands' dtype.
  bool weak = false;
  DTypeLike() : dtype(DType::Float32) {}
  /// The strongly typed dtype `t`.
  DTypeLike(DType t) : dtype(t) {}  // NOLINT: every DType is a DTypeLike
  /// `t`, weak when `is_weak`.
  DTypeLike(DType t, bool is_weak) : dtype(t), weak(is_weak) {}
};

/// Python's `int` in a promotion (a weakly typed integer).
inline const DTypeLike weak_int{DType::Int32, true};
/// Python's `float` in a promotion (a weakly typed float).
inline const DTypeLike weak_float{DType::Float32, true};

/// The dtype Keras's promotion rules give to an operation over `dtypes`; floatx() when empty.
DType result_type(std::span<const DTypeLike> dtypes);
/// result_type over a braced list: `result_type({DType::Int8, weak_float})`.
inline DType result_type(std::initializer_list<DTypeLike> dtypes) {
  return result_type(std::span<const DTypeLike>(dtypes.begin(), dtypes.size()));
}

/// The float dtype an op such as `exp` or `mean` computes in for an input of dtype `t`:
/// floats stay, integers and bool become floatx() (Keras: `dtypes.result_type(t, float)`).
DType float_result_type(DType t);

}  // namespace keras

#pragma GCC visibility pop
