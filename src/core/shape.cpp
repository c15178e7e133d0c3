#include "keras/core/shape.h"

#include <ostream>
#include <sstream>

namespace keras {

std::string Shape::to_string() const {
  std::ostringstream out;
  out << *this;
  return out.str();
}

std::ostream& operator<<(std::ostream& out, const Shape& shape) {
  out << '(';
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) out << ", ";
    out << shape[i];
  }
  if (shape.rank() == 1) out << ',';
  return out << ')';
}

std::ostream& operator<<(std::ostream& out, const Strides& strides) {
  out << '(';
  for (size_t i = 0; i < strides.size(); ++i) {
    if (i) out << ", ";
    out << strides[i];
  }
  if (strides.size() == 1) out << ',';
  return out << ')';
}

Strides contiguous_strides(const Shape& shape) {
  Strides strides(shape.size());
  int64_t stride = 1;
  for (int i = shape.rank() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= shape[i] > 0 ? shape[i] : 1;
  }
  return strides;
}

}  // namespace keras
