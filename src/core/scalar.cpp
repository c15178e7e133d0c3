#include "keras/core/scalar.h"

#include <ostream>

namespace keras {

Scalar Scalar::typed(double value, DType dtype) {
  Scalar s(value);
  if (dtype == DType::Bool) {
    s = Scalar(value != 0.0);
  } else if (keras::is_integer(dtype)) {
    s = Scalar(static_cast<int64_t>(value));
  }
  s.weak_ = false;
  s.dtype_ = dtype;
  return s;
}

Scalar Scalar::typed_int(int64_t value, DType dtype) {
  if (keras::is_floating(dtype)) return typed(static_cast<double>(value), dtype);
  Scalar s = dtype == DType::Bool ? Scalar(value != 0) : Scalar(value);
  s.weak_ = false;
  s.dtype_ = dtype;
  return s;
}

std::ostream& operator<<(std::ostream& out, const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return out << (s.to_bool() ? "True" : "False");
    case Scalar::Kind::Int: return out << s.to_int();
    case Scalar::Kind::Float: return out << s.to_double();
  }
  return out;
}

}  // namespace keras
