// NumPy-style text for tensors: values with a common width, rows broken per axis, and "..."
// beyond 1000 elements (three items kept at each end of every axis), as numpy.array2string.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "keras/backend/backend.h"
#include "keras/ops/math/complex.h"
#include "keras/tensor/tensor.h"
#include "tensor/print_options.h"

namespace keras {
namespace {

// v as an element of dtype t holds it: what a printed value must read back as.
double as_stored(double v, DType t) {
  switch (t) {
    case DType::Float16: return static_cast<float>(float16_t(static_cast<float>(v)));
    case DType::BFloat16: return static_cast<float>(bfloat16_t(static_cast<float>(v)));
    case DType::Float32: return static_cast<float>(v);
    default: return v;
  }
}

// NumPy's float style (floatmode "maxprec"): the fewest digits after the point, at most 8, that
// read back as the same value of the element's dtype; "1." for integers; scientific notation
// for very large or very small magnitudes.
std::string format_float(double v, bool scientific, DType t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  for (int digits = 0; digits <= 8; ++digits) {
    // '#' keeps the point when no digit follows it, as NumPy writes "1." and "1.e+09".
    std::snprintf(buf, sizeof buf, scientific ? "%#.*e" : "%#.*f", digits, v);
    if (as_stored(std::strtod(buf, nullptr), t) == as_stored(v, t)) break;
  }
  std::string s = buf;
  if (scientific) {
    size_t e = s.find('e');
    std::string mant = s.substr(0, e), exp = s.substr(e);
    while (!mant.empty() && mant.back() == '0') mant.pop_back();
    return mant + exp;
  }
  while (!s.empty() && s.back() == '0') s.pop_back();
  return s;
}

// Floats printed in one column: one notation, aligned on the decimal point.
struct FloatColumn {
  bool scientific = false;
  size_t int_width = 0, frac_width = 0;

  // NumPy switches to scientific notation for very large or very small magnitudes, or a wide
  // range of them.
  void choose_notation(const std::vector<double>& values, size_t first, size_t step) {
    double max_abs = 0, min_abs = INFINITY;
    for (size_t i = first; i < values.size(); i += step) {
      double v = values[i];
      if (std::isfinite(v) && v != 0) {
        max_abs = std::max(max_abs, std::abs(v));
        min_abs = std::min(min_abs, std::abs(v));
      }
    }
    // numpy.core.arrayprint.FloatingFormat.fillFormat's rule.
    scientific = max_abs >= 1e8 || (max_abs > 0 && (min_abs < 1e-4 || max_abs / min_abs > 1e3));
  }
  void measure(const std::string& e) {
    size_t dot = e.find('.');
    if (dot == std::string::npos) dot = e.size();
    int_width = std::max(int_width, dot);
    frac_width = std::max(frac_width, e.size() - dot);
  }
  std::string pad(const std::string& e) const {
    size_t dot = e.find('.');
    if (dot == std::string::npos) dot = e.size();
    return std::string(int_width - dot, ' ') + e + std::string(frac_width - (e.size() - dot), ' ');
  }
};

struct Printer {
  std::vector<double> values;  // complex: (real, imaginary) pairs
  Shape shape;
  DType dtype;
  bool summarize;
  bool scientific = false;
  size_t width = 0;
  // Plain floats align on the decimal point: widths of the parts before and after it.
  size_t int_width = 0, frac_width = 0;
  // Complex numbers align their real and imaginary parts separately, as NumPy does.
  FloatColumn real_part, imag_part;

  std::string real_text(int64_t flat) const {
    return format_float(values[static_cast<size_t>(2 * flat)], real_part.scientific,
                        complex_part_dtype(dtype));
  }
  // The imaginary part with its sign ("+2.", "-0.5"), without the "j".
  std::string imag_text(int64_t flat) const {
    double v = values[static_cast<size_t>(2 * flat + 1)];
    std::string e = format_float(std::abs(v), imag_part.scientific, complex_part_dtype(dtype));
    if (std::isnan(v)) return "+nan";
    return (std::signbit(v) ? "-" : "+") + e;
  }

  std::string element(int64_t flat) const {
    if (is_complex(dtype)) {
      std::string im = imag_part.pad(imag_text(flat));
      size_t end = im.find_last_not_of(' ') + 1;  // the j goes before the padding
      return real_part.pad(real_text(flat)) + im.substr(0, end) + "j" + im.substr(end);
    }
    double v = values[static_cast<size_t>(flat)];
    if (dtype == DType::Bool) return v != 0 ? "True" : "False";
    if (is_integer(dtype)) return std::to_string(static_cast<long long>(v));
    return format_float(v, scientific, dtype);
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
      if (is_complex(dtype)) {
        real_part.measure(real_text(base));
        imag_part.measure(imag_text(base));
        return;
      }
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
  if (t.dtype() == DType::String && !t.backend().is_symbolic()) return out << t.to_strings();
  Printer p;
  p.shape = t.shape();
  p.dtype = t.dtype();
  p.summarize = t.size() > detail::kPrintThreshold;
  if (is_complex(p.dtype)) {
    p.values = ops::view_as_real(t).to_vector<double>();
    p.real_part.choose_notation(p.values, 0, 2);
    p.imag_part.choose_notation(p.values, 1, 2);
  } else {
    p.values = t.to_vector<double>();
    if (is_floating(p.dtype)) {
      FloatColumn column;
      column.choose_notation(p.values, 0, 1);
      p.scientific = column.scientific;
    }
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
