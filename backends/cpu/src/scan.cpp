// Operations along one axis: argmax/argmin and the cumulative scans.

#include <algorithm>
#include <cmath>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"
#include "backend/scalar_math.h"
#include "thread_pool.h"

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
  for_each_line(lines, n, [&](int64_t, const int64_t(&off)[2]) {
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

// The accumulator of a scan: floating sums and products in double, like reductions.
template <typename T>
using scan_acc_t = std::conditional_t<is_float_v<T>, double, compute_t<T>>;

template <backend::ScanOp Op, typename Acc>
Acc scan_step(Acc acc, Acc v) {
  using backend::ScanOp;
  if constexpr (Op == ScanOp::CumMax) {
    return backend::math::nan_max(acc, v);
  } else if constexpr (Op == ScanOp::CumMin) {
    return backend::math::nan_min(acc, v);
  } else if constexpr (std::is_same_v<Acc, bool>) {
    return Op == ScanOp::CumSum ? (acc || v) : (acc && v);
  } else if constexpr (std::is_integral_v<Acc>) {  // wrapping, as NumPy
    using U = std::make_unsigned_t<Acc>;
    return static_cast<Acc>(Op == ScanOp::CumSum ? static_cast<U>(acc) + static_cast<U>(v)
                                                 : static_cast<U>(acc) * static_cast<U>(v));
  } else {
    return Op == ScanOp::CumSum ? acc + v : acc * v;
  }
}

template <typename T, typename Acc>
Acc load(const char* p) {
  return static_cast<Acc>(convert<compute_t<T>>(*reinterpret_cast<const T*>(p)));
}
template <typename T, typename Acc>
void store(char* p, Acc v) {
  *reinterpret_cast<T*>(p) = convert<T>(static_cast<compute_t<T>>(v));
}

// Scans along a non-innermost axis whose operands are contiguous along the innermost one: a
// chunk of the inner axis is carried down the scanned axis at once, in unit-stride loops.
template <backend::ScanOp Op, typename T>
bool scan_rows(const Array& out, const Array& x, int axis) {
  using Acc = scan_acc_t<T>;
  const int inner = x.rank() - 1;
  if (axis == inner || x.strides[inner] != 1 || out.strides[inner] != 1 || x.shape[inner] < 8)
    return false;
  if (x.shape.numel() == 0) return true;
  const int64_t J = x.shape[inner], n = x.shape[axis];
  constexpr int64_t kChunk = 256;
  const int64_t isz = static_cast<int64_t>(sizeof(T));
  const int64_t xs = x.strides[axis] * isz, os = out.strides[axis] * isz;
  // Lines over every axis but `axis` and the inner one.
  Shape outer = x.shape;
  outer[inner] = 1;
  const backend::Array* ops[2] = {&x, &out};
  auto lines = make_lines<2>(outer, axis, ops);
  const int64_t chunks = (J + kChunk - 1) / kChunk;
  const char* xb = static_cast<const char*>(x.data());
  char* ob = static_cast<char*>(out.data());
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n * kChunk, 1));
  parallel_for(lines.count * chunks, grain, [&](int64_t b, int64_t e) {
    Acc acc[kChunk];
    int64_t off[2];
    for (int64_t w = b; w < e; ++w) {
      lines.offsets(w / chunks, off);
      const int64_t j0 = (w % chunks) * kChunk, len = std::min(kChunk, J - j0);
      const char* p = xb + off[0] + j0 * isz;
      char* q = ob + off[1] + j0 * isz;
      for (int64_t j = 0; j < len; ++j) {
        acc[j] = load<T, Acc>(p + j * isz);
        store<T, Acc>(q + j * isz, acc[j]);
      }
      for (int64_t i = 1; i < n; ++i) {
        p += xs;
        q += os;
        for (int64_t j = 0; j < len; ++j) {
          acc[j] = scan_step<Op>(acc[j], load<T, Acc>(p + j * isz));
          store<T, Acc>(q + j * isz, acc[j]);
        }
      }
    }
  });
  return true;
}

template <backend::ScanOp Op, typename T>
void scan_typed(const Array& out, const Array& x, int axis) {
  using Acc = scan_acc_t<T>;
  if (scan_rows<Op, T>(out, x, axis)) return;
  const backend::Array* ops[2] = {&x, &out};
  auto lines = make_lines<2>(x.shape, axis, ops);
  const int64_t n = x.shape[axis];
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const char* xb = static_cast<const char*>(x.data());
  char* ob = static_cast<char*>(out.data());
  for_each_line(lines, n, [&](int64_t, const int64_t(&off)[2]) {
    const char* p = xb + off[0];
    char* q = ob + off[1];
    if (n == 0) return;
    Acc acc = load<T, Acc>(p);
    store<T, Acc>(q, acc);
    for (int64_t i = 1; i < n; ++i) {
      acc = scan_step<Op>(acc, load<T, Acc>(p + i * xs));
      store<T, Acc>(q + i * os, acc);
    }
  });
}

template <typename T>
void scan_dispatch(backend::ScanOp op, const Array& out, const Array& x, int axis) {
  using backend::ScanOp;
  switch (op) {
    case ScanOp::CumSum:
      return scan_typed<ScanOp::CumSum, T>(out, x, axis);
    case ScanOp::CumProd:
      return scan_typed<ScanOp::CumProd, T>(out, x, axis);
    case ScanOp::CumMax:
      return scan_typed<ScanOp::CumMax, T>(out, x, axis);
    case ScanOp::CumMin:
      return scan_typed<ScanOp::CumMin, T>(out, x, axis);
    default:
      break;
  }
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
  visit_dtype(x.dtype, [&](auto tag) { scan_dispatch<decltype(tag)>(op, out, x, axis); });
}

}  // namespace keras::cpu
