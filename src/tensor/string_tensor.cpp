#include "keras/tensor/string_tensor.h"

#include <ostream>
#include <sstream>

#include "keras/core/errors.h"
#include "tensor/print_options.h"

namespace keras {
namespace {

void check_shape(const Shape& shape, size_t count) {
  for (int64_t d : shape)
    check(d >= 0, "StringTensor: shape ", shape.to_string(), " has a negative extent.");
  check(shape.numel() == static_cast<int64_t>(count), "StringTensor: ", count,
        " strings cannot have shape ", shape.to_string(), " (", shape.numel(),
        " elements); pass a shape whose extents multiply to ", count, ".");
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "'";
}

void print(std::ostream& out, const StringTensor& t, int axis, int64_t base, int indent,
           bool summarize) {
  const Shape& shape = t.shape();
  if (axis == shape.rank()) {
    out << quoted(t.flat(base));
    return;
  }
  int64_t stride = 1;
  for (int d = axis + 1; d < shape.rank(); ++d) stride *= shape[d];
  const int64_t n = shape[axis];
  out << '[';
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) {
      if (axis == shape.rank() - 1) {
        out << ", ";
      } else {
        out << ',' << std::string(static_cast<size_t>(shape.rank() - axis - 1), '\n')
            << std::string(static_cast<size_t>(indent + axis + 1), ' ');
      }
    }
    if (summarize && n > 2 * detail::kPrintEdgeItems && i == detail::kPrintEdgeItems) {
      out << "...";  // the middle rows, as NumPy summarizes
      i = n - detail::kPrintEdgeItems - 1;
      continue;
    }
    print(out, t, axis + 1, base + i * stride, indent, summarize);
  }
  out << ']';
}

}  // namespace

StringTensor::StringTensor(std::vector<std::string> values)
    : shape_({static_cast<int64_t>(values.size())}), values_(std::move(values)) {}

StringTensor::StringTensor(std::initializer_list<std::string> values)
    : StringTensor(std::vector<std::string>(values)) {}

StringTensor::StringTensor(std::vector<std::string> values, Shape shape)
    : shape_(std::move(shape)), values_(std::move(values)) {
  check_shape(shape_, values_.size());
}

StringTensor StringTensor::scalar(std::string value) {
  return StringTensor({std::move(value)}, Shape{});
}

const std::string& StringTensor::flat(int64_t i) const {
  check<IndexError>(i >= 0 && i < size(), "StringTensor: flat index ", i,
                    " is out of range for ", size(), " strings.");
  return values_[static_cast<size_t>(i)];
}

const std::string& StringTensor::at(std::initializer_list<int64_t> index) const {
  check<IndexError>(static_cast<int>(index.size()) == ndim(), "StringTensor.at: ",
                    index.size(), " indices for a tensor of rank ", ndim(), " (shape ",
                    shape_.to_string(), "); give one index per axis.");
  int64_t flat_index = 0;
  int axis = 0;
  for (int64_t i : index) {
    const int64_t n = shape_[static_cast<size_t>(axis)];
    const int64_t j = i < 0 ? i + n : i;
    check<IndexError>(j >= 0 && j < n, "StringTensor.at: index ", i, " is out of range for axis ",
                      axis, " of extent ", n, ".");
    flat_index = flat_index * n + j;
    ++axis;
  }
  return values_[static_cast<size_t>(flat_index)];
}

StringTensor StringTensor::reshape(const Shape& shape) const {
  Shape target = shape;
  int inferred = -1;
  int64_t known = 1;
  for (int d = 0; d < target.rank(); ++d) {
    if (target[d] == -1) {
      check(inferred < 0, "StringTensor.reshape: shape ", shape.to_string(),
            " has more than one -1.");
      inferred = d;
    } else {
      known *= target[d];
    }
  }
  if (inferred >= 0) {
    check(known > 0 && size() % known == 0, "StringTensor.reshape: cannot reshape ", size(),
          " strings to ", shape.to_string(), ".");
    target[static_cast<size_t>(inferred)] = size() / known;
  }
  return StringTensor(values_, target);
}

StringTensor StringTensor::operator[](int64_t i) const {
  check<IndexError>(ndim() > 0, "StringTensor[]: a 0-d tensor has no rows.");
  const int64_t n = shape_[0];
  const int64_t j = i < 0 ? i + n : i;
  check<IndexError>(j >= 0 && j < n, "StringTensor[]: row ", i, " is out of range for ", n,
                    " rows.");
  Shape rest(shape_.begin() + 1, shape_.end());
  const int64_t stride = rest.numel();
  auto first = values_.begin() + static_cast<std::ptrdiff_t>(j * stride);
  return StringTensor(std::vector<std::string>(first, first + stride), rest);
}

std::ostream& operator<<(std::ostream& out, const StringTensor& t) {
  const std::string prefix = "tensor(";
  out << prefix;
  if (t.size() == 0 && t.ndim() > 0) {
    out << "[]";
  } else {
    print(out, t, 0, 0, static_cast<int>(prefix.size()), t.size() > detail::kPrintThreshold);
  }
  return out << ", shape=" << t.shape().to_string() << ", dtype=string)";
}

std::string to_string(const StringTensor& t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

}  // namespace keras
