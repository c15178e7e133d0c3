// NumPy-style text for tensors: values with a common width, rows broken per axis, and "..."
// beyond 1000 elements (three items kept at each end of every axis), as numpy.array2string.

#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"
#include "tensor/print_options.h"

namespace keras {
namespace {

// NumPy's float style: up to 8 significant digits, trailing zeros dropped, "1." for integers,
// scientific notation for very large or very small magnitudes.
std::string format_float(double v, bool scientific) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (scientific) {
    std::snprintf(buf, sizeof buf, "%.8e", v);
    std::string s = buf;
    size_t e = s.find('e');
    std::string mant = s.substr(0, e), exp = s.substr(e);
    while (!mant.empty() && mant.back() == '0') mant.pop_back();
    return mant + exp;
  }
  std::snprintf(buf, sizeof buf, "%.8f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (s == "-0.") return "-0.";
  return s;
}

struct Printer {
  std::vector<double> values;
  Shape shape;
  DType dtype;
  bool summarize;
  bool scientific = false;
  size_t width = 0;
  // Plain floats align on the decimal point: widths of the parts before and after it.
  size_t int_width = 0, frac_width = 0;

  std::string element(int64_t flat) const {
    double v = values[static_cast<size_t>(flat)];
    if (dtype == DType::Bool) return v != 0 ? "True" : "False";
    if (is_integer(dtype)) return std::to_string(static_cast<long long>(v));
    return format_float(v, scientific);
  }

  // Indices shown along an axis of extent n.
  std::vector<int64_t> shown(int64_t n) const {
    std::vector<int64_t> idx;
    if (summarize && n > 2 * detail::kPrintEdgeItems) {
      for (int64_t i = 0; i < detail::kPrintEdgeItems; ++i) idx.push_back(i);
      idx.push_back(-1);  // the ellipsis
      for (int64_t i = n - detail::kPrintEdgeItems; i < n; ++i) idx.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) idx.push_back(i);
    }
    return idx;
  }

  bool aligns_point() const { return is_floating(dtype) && !scientific; }

  void measure(int axis, int64_t base) {
    if (axis == shape.rank()) {
      std::string e = element(base);
      size_t dot = e.find('.');
      if (aligns_point() && dot != std::string::npos) {
        int_width = std::max(int_width, dot);
        frac_width = std::max(frac_width, e.size() - dot - 1);
      }
      width = std::max(width, e.size());
      return;
    }
    int64_t stride = 1;
    for (int d = axis + 1; d < shape.rank(); ++d) stride *= shape[d];
    for (int64_t i : shown(shape[axis]))
      if (i >= 0) measure(axis + 1, base + i * stride);
  }

  void print(std::ostream& out, int axis, int64_t base, int indent) const {
    if (axis == shape.rank()) {
      std::string e = element(base);
      size_t dot = e.find('.');
      if (aligns_point() && dot != std::string::npos) {
        out << std::string(int_width - dot, ' ') << e
            << std::string(frac_width - (e.size() - dot - 1), ' ');
      } else {
        size_t w = aligns_point() ? int_width + 1 + frac_width : width;
        out << std::string(w > e.size() ? w - e.size() : 0, ' ') << e;
      }
      return;
    }
    int64_t stride = 1;
    for (int d = axis + 1; d < shape.rank(); ++d) stride *= shape[d];
    out << '[';
    bool first = true;
    const bool last_axis = axis == shape.rank() - 1;
    for (int64_t i : shown(shape[axis])) {
      if (!first) {
        out << ',';
        if (last_axis) {
          out << ' ';
        } else {
          out << std::string(static_cast<size_t>(shape.rank() - axis - 1), '\n')
              << std::string(static_cast<size_t>(indent + axis + 1), ' ');
        }
      }
      first = false;
      if (i < 0) {
        out << "...";
        continue;
      }
      print(out, axis + 1, base + i * stride, indent);
    }
    out << ']';
  }
};

}  // namespace

std::ostream& operator<<(std::ostream& out, const Tensor& t) {
  if (!t.defined()) return out << "tensor(undefined)";
  Printer p;
  p.shape = t.shape();
  p.dtype = t.dtype();
  p.summarize = t.size() > detail::kPrintThreshold;
  p.values = t.to_vector<double>();
  if (is_floating(p.dtype)) {
    double max_abs = 0, min_abs = INFINITY;
    for (double v : p.values)
      if (std::isfinite(v) && v != 0) {
        max_abs = std::max(max_abs, std::abs(v));
        min_abs = std::min(min_abs, std::abs(v));
      }
    p.scientific = max_abs >= 1e8 || (min_abs < 1e-4 && max_abs > 0) ||
                   (max_abs > 0 && max_abs / min_abs > 1e3 && min_abs < 1e-4);
  }
  p.measure(0, 0);
  const std::string prefix = "tensor(";
  if (t.size() == 0 && t.ndim() > 0) {
    out << prefix << "[], shape=" << t.shape();
  } else {
    out << prefix;
    p.print(out, 0, 0, static_cast<int>(prefix.size()));
  }
  return out << ", dtype=" << t.dtype() << ')';
}

std::string to_string(const Tensor& t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

}  // namespace keras
