#pragma once
// Element types, their names as Keras spells them, and the mapping from C++ types.

#include <cstddef>
#include <complex>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "keras/core/half.h"

#pragma GCC visibility push(default)
namespace keras {

/// The element types a tensor can hold (Keras names: "bool", "int8", ..., "float64",
/// "complex64", "complex128"). A complex element is a (real, imaginary) pair of its part dtype
/// (float32 or float64), stored side by side as NumPy and std::complex store them. Backends
/// never see complex arrays: the front end computes on their real views (docs/complex.md).
/// "string" tensors hold UTF-8 strings on the host, for the text layers (docs/strings.md); no
/// kernel takes them.
enum class DType : uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Complex64,
  Complex128,
  String,
};

/// Number of DType values, for tables indexed by dtype.
inline constexpr int kNumDTypes = 13;

// Short names, so user code can write `ops::zeros({2, 3}, keras::float16)`.
/// DType::Bool, Keras's "bool" (`bool` is a C++ keyword).
inline constexpr DType bool_ = DType::Bool;
/// DType::Int8, Keras's "int8".
inline constexpr DType int8 = DType::Int8;
/// DType::Int16, Keras's "int16".
inline constexpr DType int16 = DType::Int16;
/// DType::Int32, Keras's "int32".
inline constexpr DType int32 = DType::Int32;
/// DType::Int64, Keras's "int64".
inline constexpr DType int64 = DType::Int64;
/// DType::UInt8, Keras's "uint8".
inline constexpr DType uint8 = DType::UInt8;
/// DType::Float16, Keras's "float16".
inline constexpr DType float16 = DType::Float16;
/// DType::BFloat16, Keras's "bfloat16".
inline constexpr DType bfloat16 = DType::BFloat16;
/// DType::Float32, Keras's "float32".
inline constexpr DType float32 = DType::Float32;
/// DType::Float64, Keras's "float64".
inline constexpr DType float64 = DType::Float64;
/// DType::Complex64, Keras's "complex64": two float32 values.
inline constexpr DType complex64 = DType::Complex64;
/// DType::Complex128, Keras's "complex128": two float64 values.
inline constexpr DType complex128 = DType::Complex128;

/// Bytes per element.
constexpr size_t itemsize(DType t) {
  switch (t) {
    case DType::Bool:
    case DType::Int8:
    case DType::UInt8:
      return 1;
    case DType::Int16:
    case DType::Float16:
    case DType::BFloat16:
      return 2;
    case DType::Int32:
    case DType::Float32:
      return 4;
    case DType::Int64:
    case DType::Float64:
    case DType::Complex64:
      return 8;
    case DType::Complex128:
      return 16;
    case DType::String:
      return sizeof(std::string);
  }
  return 0;
}

/// True for float16, bfloat16, float32 and float64.
constexpr bool is_floating(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 ||
         t == DType::Float64;
}
/// True for the signed and unsigned integer types (not bool).
constexpr bool is_integer(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64 ||
         t == DType::UInt8;
}
/// True for complex64 and complex128.
constexpr bool is_complex(DType t) { return t == DType::Complex64 || t == DType::Complex128; }
/// True for "string" (host-side UTF-8 text; no kernel takes it).
constexpr bool is_string(DType t) { return t == DType::String; }
/// The dtype of each part of a complex dtype: float32 for complex64, float64 for complex128;
/// `t` itself for the others.
constexpr DType complex_part_dtype(DType t) {
  if (t == DType::Complex64) return DType::Float32;
  if (t == DType::Complex128) return DType::Float64;
  return t;
}
/// The complex dtype whose parts hold `t`: complex128 for float64 (and complex128), complex64
/// for every other dtype (as Keras casts float16, bfloat16 and integers).
constexpr DType complex_dtype_for(DType t) {
  return t == DType::Float64 || t == DType::Complex128 ? DType::Complex128 : DType::Complex64;
}
/// True for the unsigned integer types.
constexpr bool is_unsigned(DType t) { return t == DType::UInt8; }

/// The largest finite value of a float dtype (numpy.finfo(t).max); float64's for the others.
constexpr double max_finite(DType t) {
  switch (t) {
    case DType::Float16: return 65504.0;
    case DType::BFloat16: return 3.3895313892515355e38;
    case DType::Float32: return 3.4028234663852886e38;
    default: return 1.7976931348623157e308;
  }
}

/// The Keras name: "float32", "int64", "bool", ...
std::string_view dtype_name(DType t);
/// Parses a Keras dtype name ("float32", "int", "float", "double", "half" are accepted as NumPy
/// does); throws ValueError naming the accepted names.
DType dtype_from_string(std::string_view name);
/// Writes the Keras name (dtype_name).
std::ostream& operator<<(std::ostream& out, DType t);

/// The DType for a C++ element type.
template <typename T>
struct dtype_of;
/// dtype_of for `bool`: DType::Bool.
template <>
struct dtype_of<bool> {
  /// DType::Bool.
  static constexpr DType value = DType::Bool;
};
/// dtype_of for `int8_t`: DType::Int8.
template <>
struct dtype_of<int8_t> {
  /// DType::Int8.
  static constexpr DType value = DType::Int8;
};
/// dtype_of for `int16_t`: DType::Int16.
template <>
struct dtype_of<int16_t> {
  /// DType::Int16.
  static constexpr DType value = DType::Int16;
};
/// dtype_of for `int32_t`: DType::Int32.
template <>
struct dtype_of<int32_t> {
  /// DType::Int32.
  static constexpr DType value = DType::Int32;
};
/// dtype_of for `int64_t`: DType::Int64.
template <>
struct dtype_of<int64_t> {
  /// DType::Int64.
  static constexpr DType value = DType::Int64;
};
/// dtype_of for `uint8_t`: DType::UInt8.
template <>
struct dtype_of<uint8_t> {
  /// DType::UInt8.
  static constexpr DType value = DType::UInt8;
};
/// dtype_of for `keras::float16_t`: DType::Float16.
template <>
struct dtype_of<keras::float16_t> {
  /// DType::Float16.
  static constexpr DType value = DType::Float16;
};
/// dtype_of for `keras::bfloat16_t`: DType::BFloat16.
template <>
struct dtype_of<keras::bfloat16_t> {
  /// DType::BFloat16.
  static constexpr DType value = DType::BFloat16;
};
/// dtype_of for `float`: DType::Float32.
template <>
struct dtype_of<float> {
  /// DType::Float32.
  static constexpr DType value = DType::Float32;
};
/// dtype_of for `double`: DType::Float64.
template <>
struct dtype_of<double> {
  /// DType::Float64.
  static constexpr DType value = DType::Float64;
};
/// dtype_of for `std::complex<float>`: DType::Complex64.
template <>
struct dtype_of<std::complex<float>> {
  /// DType::Complex64.
  static constexpr DType value = DType::Complex64;
};
/// dtype_of for `std::complex<double>`: DType::Complex128.
template <>
struct dtype_of<std::complex<double>> {
  /// DType::Complex128.
  static constexpr DType value = DType::Complex128;
};
/// The DType for the C++ element type `T`: `dtype_v<float>` is DType::Float32.
template <typename T>
inline constexpr DType dtype_v = dtype_of<T>::value;

namespace detail {
/// Thrown by visit_dtype for a complex dtype: a TypeError saying that the operation does not
/// take complex tensors (the ops that do handle them before any kernel runs).
[[noreturn]] void throw_complex_not_supported(DType t);
/// Thrown by visit_dtype for "string": a TypeError saying that only the text layers (and the
/// few ops docs/strings.md lists) take string tensors.
[[noreturn]] void throw_string_not_supported();
}  // namespace detail

/// Calls fn(T{}) with the C++ type of `t`. The dispatch every kernel table uses. Kernels are
/// real-valued: a complex dtype throws a TypeError (complex ops compute on real views).
template <typename Fn>
decltype(auto) visit_dtype(DType t, Fn&& fn) {
  switch (t) {
    case DType::Bool:
      return fn(bool{});
    case DType::Int8:
      return fn(int8_t{});
    case DType::Int16:
      return fn(int16_t{});
    case DType::Int32:
      return fn(int32_t{});
    case DType::Int64:
      return fn(int64_t{});
    case DType::UInt8:
      return fn(uint8_t{});
    case DType::Float16:
      return fn(keras::float16_t{});
    case DType::BFloat16:
      return fn(keras::bfloat16_t{});
    case DType::Float32:
      return fn(float{});
    case DType::Float64:
      return fn(double{});
    case DType::Complex64:
    case DType::Complex128:
      detail::throw_complex_not_supported(t);
    case DType::String:
      detail::throw_string_not_supported();
  }
  return fn(float{});
}

}  // namespace keras

#pragma GCC visibility pop
