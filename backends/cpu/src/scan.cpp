// Operations along one axis: argmax/argmin and the cumulative scans.

#include <cmath>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"
#include "scalar_math.h"

namespace keras::cpu {
namespace {

template <typename C>
bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  return false;
}

template <typename T, typename I>
void arg_reduce_typed(bool is_max, const Array& out, const Array& x, int axis) {
  using C = compute_t<T>;
  const backend::Array* ops[2] = {&x, &out};
  auto lines = make_lines<2>(x.shape, axis, ops);
  const int64_t n = x.shape[axis], s = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const char* xb = static_cast<const char*>(x.data());
  char* ob = static_cast<char*>(out.data());
  for_each_line(lines, n, [&](int64_t, const int64_t (&off)[2]) {
    const char* p = xb + off[0];
    int64_t best = 0;
    C best_v = convert<C>(*reinterpret_cast<const T*>(p));
    // The first NaN wins, as in NumPy.
    if (!is_nan(best_v)) {
      for (int64_t i = 1; i < n; ++i) {
        C v = convert<C>(*reinterpret_cast<const T*>(p + i * s));
        if (is_nan(v)) {
          best = i;
          break;
        }
        if (is_max ? v > best_v : v < best_v) {
          best = i;
          best_v = v;
        }
      }
    }
    *reinterpret_cast<I*>(ob + off[1]) = static_cast<I>(best);
  });
}

template <typename T>
void scan_typed(backend::ScanOp op, const Array& out, const Array& x, int axis) {
  using C = compute_t<T>;
  // Floating cumulative sums and products accumulate in double, like reductions.
  using Acc = std::conditional_t<is_float_v<T>, double, C>;
  const backend::Array* ops[2] = {&x, &out};
  auto lines = make_lines<2>(x.shape, axis, ops);
  const int64_t n = x.shape[axis];
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const char* xb = static_cast<const char*>(x.data());
  char* ob = static_cast<char*>(out.data());
  for_each_line(lines, n, [&](int64_t, const int64_t (&off)[2]) {
    const char* p = xb + off[0];
    char* q = ob + off[1];
    Acc acc{};
    for (int64_t i = 0; i < n; ++i) {
      Acc v = static_cast<Acc>(convert<C>(*reinterpret_cast<const T*>(p + i * xs)));
      if (i == 0) {
        acc = v;
      } else {
        switch (op) {
          case backend::ScanOp::CumSum:
            if constexpr (std::is_same_v<Acc, bool>) acc = acc || v;
            else if constexpr (std::is_integral_v<Acc>)
              acc = static_cast<Acc>(static_cast<std::make_unsigned_t<Acc>>(acc) + static_cast<std::make_unsigned_t<Acc>>(v));
            else acc = acc + v;
            break;
          case backend::ScanOp::CumProd:
            if constexpr (std::is_same_v<Acc, bool>) acc = acc && v;
            else if constexpr (std::is_integral_v<Acc>)
              acc = static_cast<Acc>(static_cast<std::make_unsigned_t<Acc>>(acc) * static_cast<std::make_unsigned_t<Acc>>(v));
            else acc = acc * v;
            break;
          case backend::ScanOp::CumMax: acc = math::nan_max(acc, v); break;
          case backend::ScanOp::CumMin: acc = math::nan_min(acc, v); break;
          default: break;
        }
      }
      *reinterpret_cast<T*>(q + i * os) = convert<T>(static_cast<C>(acc));
    }
  });
}

}  // namespace

void CpuBackend::arg_reduce(backend::ArgReduceOp op, const Array& out, const Array& x, int axis) {
  bool is_max = op == backend::ArgReduceOp::ArgMax;
  visit_dtype(x.dtype, [&](auto tag) {
    using T = decltype(tag);
    if (out.dtype == DType::Int64) {
      arg_reduce_typed<T, int64_t>(is_max, out, x, axis);
    } else {
      arg_reduce_typed<T, int32_t>(is_max, out, x, axis);
    }
  });
}

void CpuBackend::scan(backend::ScanOp op, const Array& out, const Array& x, int axis) {
  visit_dtype(x.dtype, [&](auto tag) { scan_typed<decltype(tag)>(op, out, x, axis); });
}

}  // namespace keras::cpu
