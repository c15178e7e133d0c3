// Fused softmax / log_softmax along one axis: a pass for the max, one for the sum of
// exponentials, one to write, instead of five separate primitives.
//
// Three layouts: contiguous lines (the axis is innermost and dense), contiguous tensors with the
// axis further out (a block of neighbouring lines is processed together so the inner loops run
// over dense memory), and any strides. float32 and the half types use a vectorizable exp; sums
// accumulate in double.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

// exp(x) for x <= 0 (x - max in softmax), written without calls so loops over it vectorize:
// Cody-Waite reduction to r in [-ln2/2, ln2/2], Cephes's degree-6 polynomial (about 1 ulp),
// and 2^n assembled in the exponent bits. Results below FLT_MIN flush to 0; NaN propagates.
inline float exp_nonpositive(float x) {
  constexpr float kLow = -87.3365447505531f;  // log(FLT_MIN)
  constexpr float kRound = 12582912.0f;       // 1.5 * 2^23: adding it rounds to an integer
  const float xc = x < kLow ? kLow : x;
  const float t = xc * 1.44269504088896341f + kRound;
  const float n = t - kRound;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // The low bits of t hold n; 2^n is (n + 127) << 23.
  const int32_t ni = std::bit_cast<int32_t>(t) - std::bit_cast<int32_t>(kRound);
  const float scale = std::bit_cast<float>((ni + 127) << 23);
  return x < kLow ? 0.0f : p * scale;
}
inline double exp_nonpositive(double x) {
  return std::exp(x);
}

template <typename C>
constexpr C kNegInf = -std::numeric_limits<C>::infinity();

// The shift applied before exp: the max, or 0 for a line of -inf only (so that no inf - inf
// appears there; the result is NaN either way, as in JAX). NaN entries are skipped by the
// comparison and then poison the sum, which makes the whole line NaN, as in JAX.
template <typename C>
inline C shift_of(C m) {
  return m == kNegInf<C> ? C(0) : m;
}

constexpr int kLanes = 8;

// One dense line of n elements.
template <typename T>
void line_dense(const T* x, T* out, int64_t n, bool log) {
  using C = compute_t<T>;
  constexpr bool in_place = std::is_same_v<T, C>;
  C mx[kLanes];
  std::fill(mx, mx + kLanes, kNegInf<C>);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) {
      C v = convert<C>(x[i + j]);
      mx[j] = v > mx[j] ? v : mx[j];
    }
  C m = kNegInf<C>;
  for (int j = 0; j < kLanes; ++j) m = mx[j] > m ? mx[j] : m;
  for (; i < n; ++i) {
    C v = convert<C>(x[i]);
    m = v > m ? v : m;
  }
  m = shift_of(m);
  double acc[kLanes] = {};
  i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) {
      C e = exp_nonpositive(convert<C>(x[i + j]) - m);
      if constexpr (in_place) {
        if (!log) out[i + j] = e;
      }
      acc[j] += e;
    }
  double sum = 0;
  for (int j = 0; j < kLanes; ++j) sum += acc[j];
  for (; i < n; ++i) {
    C e = exp_nonpositive(convert<C>(x[i]) - m);
    if constexpr (in_place) {
      if (!log) out[i] = e;
    }
    sum += e;
  }
  if (log) {
    // (x - m) - lse, not x - (m + lse): the second rounds away digits when |m| is large.
    const C lse = static_cast<C>(std::log(sum));
    for (i = 0; i < n; ++i) out[i] = convert<T>((convert<C>(x[i]) - m) - lse);
  } else {
    const C inv = static_cast<C>(1.0 / sum);
    for (i = 0; i < n; ++i) {
      if constexpr (in_place) {
        out[i] *= inv;
      } else {
        out[i] = convert<T>(exp_nonpositive(convert<C>(x[i]) - m) * inv);
      }
    }
  }
}

constexpr int64_t kBlock = 256;

// Columns [0, width) of a dense (n, inner) slab, softmax down each column.
template <typename T>
void block_dense(const T* x, T* out, int64_t n, int64_t inner, int64_t width, bool log) {
  using C = compute_t<T>;
  constexpr bool in_place = std::is_same_v<T, C>;
  C m[kBlock];
  double sum[kBlock];
  std::fill(m, m + width, kNegInf<C>);
  std::fill(sum, sum + width, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const T* row = x + i * inner;
    for (int64_t j = 0; j < width; ++j) {
      C v = convert<C>(row[j]);
      m[j] = v > m[j] ? v : m[j];
    }
  }
  for (int64_t j = 0; j < width; ++j) m[j] = shift_of(m[j]);
  for (int64_t i = 0; i < n; ++i) {
    const T* row = x + i * inner;
    T* orow = out + i * inner;
    for (int64_t j = 0; j < width; ++j) {
      C e = exp_nonpositive(convert<C>(row[j]) - m[j]);
      if constexpr (in_place) {
        if (!log) orow[j] = e;
      }
      sum[j] += e;
    }
  }
  C factor[kBlock];
  for (int64_t j = 0; j < width; ++j)
    factor[j] = log ? static_cast<C>(std::log(sum[j])) : static_cast<C>(1.0 / sum[j]);
  for (int64_t i = 0; i < n; ++i) {
    const T* row = x + i * inner;
    T* orow = out + i * inner;
    for (int64_t j = 0; j < width; ++j) {
      if (log) {
        orow[j] = convert<T>((convert<C>(row[j]) - m[j]) - factor[j]);
      } else if constexpr (in_place) {
        orow[j] *= factor[j];
      } else {
        orow[j] = convert<T>(exp_nonpositive(convert<C>(row[j]) - m[j]) * factor[j]);
      }
    }
  }
}

// Any strides: one line at a time, element by element.
template <typename T>
void line_strided(const char* p, char* q, int64_t n, int64_t xs, int64_t os, bool log) {
  using C = compute_t<T>;
  auto at = [&](int64_t i) { return convert<C>(*reinterpret_cast<const T*>(p + i * xs)); };
  C m = kNegInf<C>;
  for (int64_t i = 0; i < n; ++i) {
    C v = at(i);
    m = v > m ? v : m;
  }
  m = shift_of(m);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += exp_nonpositive(at(i) - m);
  const C factor = log ? static_cast<C>(std::log(sum)) : static_cast<C>(1.0 / sum);
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<T*>(q + i * os) =
        convert<T>(log ? (at(i) - m) - factor : exp_nonpositive(at(i) - m) * factor);
}

template <typename T>
void softmax_typed(const Array& out, const Array& x, int axis, bool log) {
  const int64_t n = x.shape[axis];
  if (x.numel() == 0) return;
  if (x.is_contiguous() && out.is_contiguous()) {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= x.shape[d];
    for (int d = axis + 1; d < x.rank(); ++d) inner *= x.shape[d];
    const T* xp = x.data_as<T>();
    T* op = out.data_as<T>();
    if (inner == 1) {
      parallel_for(outer, std::max<int64_t>(1, kElementwiseGrain / (4 * n)),
                   [&](int64_t b, int64_t e) {
                     for (int64_t o = b; o < e; ++o) line_dense(xp + o * n, op + o * n, n, log);
                   });
      return;
    }
    const int64_t blocks = (inner + kBlock - 1) / kBlock;
    parallel_for(outer * blocks, std::max<int64_t>(1, kElementwiseGrain / (4 * n * kBlock)),
                 [&](int64_t b, int64_t e) {
                   for (int64_t t = b; t < e; ++t) {
                     const int64_t o = t / blocks, j0 = (t % blocks) * kBlock;
                     const int64_t offset = o * n * inner + j0;
                     block_dense(xp + offset, op + offset, n, inner, std::min(kBlock, inner - j0),
                                 log);
                   }
                 });
    return;
  }
  const backend::Array* ops[2] = {&x, &out};
  auto lines = make_lines<2>(x.shape, axis, ops);
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const char* xb = static_cast<const char*>(x.data());
  char* ob = static_cast<char*>(out.data());
  for_each_line(lines, n * 4, [&](int64_t, const int64_t(&off)[2]) {
    if (xs == sizeof(T) && os == sizeof(T)) {
      line_dense(reinterpret_cast<const T*>(xb + off[0]), reinterpret_cast<T*>(ob + off[1]), n,
                 log);
    } else {
      line_strided<T>(xb + off[0], ob + off[1], n, xs, os, log);
    }
  });
}

}  // namespace

void CpuBackend::softmax(const Array& out, const Array& x, int axis, bool log) {
  visit_dtype(x.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_float_v<T>) {
      softmax_typed<T>(out, x, axis, log);
    } else {
      unsupported("softmax on integer tensors (the front end casts to float)");
    }
  });
}

}  // namespace keras::cpu
