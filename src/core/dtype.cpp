#include "keras/core/dtype.h"

#include <ostream>

#include "keras/core/errors.h"

namespace keras {

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::Int8: return "int8";
    case DType::Int16: return "int16";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::UInt8: return "uint8";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
    case DType::String: return "string";
  }
  return "unknown";
}

DType dtype_from_string(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i) {
    auto t = static_cast<DType>(i);
    if (dtype_name(t) == name) return t;
  }
  // The aliases standardize_dtype accepts in Keras.
  if (name == "int") return DType::Int32;
  if (name == "float") return DType::Float32;
  if (name == "double") return DType::Float64;
  if (name == "half") return DType::Float16;
  if (name == "bool_") return DType::Bool;

  throw ValueError(keras::detail::cat("Invalid dtype '", name,
                               "'. Expected one of: bool, int8, int16, int32, int64, uint8, "
                               "float16, bfloat16, float32, float64, complex64, complex128, "
                               "string."));
}

namespace detail {
void throw_complex_not_supported(DType t) {
  throw TypeError(cat("This operation does not take ", dtype_name(t),
                      " tensors. keras-cpp's complex support covers the ops listed in "
                      "docs/complex.md; take ops::real and ops::imag (or ops::view_as_real) "
                      "to compute on the parts."));
}

void throw_string_not_supported() {
  throw TypeError(
      "This operation does not take string tensors: strings live on the host for the text "
      "layers (TextVectorization, StringLookup, Hashing, HashedCrossing), which turn them into "
      "numbers first. The ops that take strings are listed in docs/strings.md.");
}
}  // namespace detail

std::ostream& operator<<(std::ostream& out, DType t) { return out << dtype_name(t); }

}  // namespace keras
