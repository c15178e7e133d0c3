// Fused softmax / log_softmax along one axis: a pass for the max, one for the sum of
// exponentials, one to write, instead of five separate primitives.
//
// float32, float16 and bfloat16 compute in float with explicit 4-wide vectors (GCC/Clang vector
// extensions): the auto-vectorizer will not if-convert float compares under the default
// -ftrapping-math, so written as scalar code the max and exp loops stay scalar. Three layouts:
// dense lines (the axis innermost), dense tensors with the axis further out (a block of
// neighbouring lines runs together so the vectors span dense memory), and any strides.
// float64 runs the scalar code with std::exp. Sums accumulate in double.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// ---- exp of x <= 0 (x - max), scalar and 4-wide ----------------------------------------------
// Cody-Waite reduction to r in [-ln2/2, ln2/2], Cephes's degree-6 polynomial (at most 1.4 ulp),
// and 2^n assembled in the exponent bits. Below log(FLT_MIN) the result flushes to 0; NaN
// propagates.
constexpr float kExpLow = -87.3365447505531f;
constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
constexpr float kP0 = 1.9875691500e-4f, kP1 = 1.3981999507e-3f, kP2 = 8.3334519073e-3f,
                kP3 = 4.1665795894e-2f, kP4 = 1.6666665459e-1f, kP5 = 5.0000001201e-1f;

inline float exp_nonpositive(float x) {
  const float xc = x < kExpLow ? kExpLow : x;
  const float t = xc * kLog2e + kRound;
  const float n = t - kRound;
  const float r = (xc - n * kLn2Hi) - n * kLn2Lo;
  float p = ((((kP0 * r + kP1) * r + kP2) * r + kP3) * r + kP4) * r + kP5;
  p = p * r * r + r + 1.0f;
  // The low bits of t hold n; 2^n is (n + 127) << 23.
  const int32_t ni = std::bit_cast<int32_t>(t) - std::bit_cast<int32_t>(kRound);
  return x < kExpLow ? 0.0f : p * std::bit_cast<float>((ni + 127) << 23);
}
inline double exp_nonpositive(double x) {
  return std::exp(x);
}

using f4 = float __attribute__((vector_size(16)));
using i4 = int32_t __attribute__((vector_size(16)));
constexpr int64_t kW = 4;

inline f4 splat(float v) {
  return f4{} + v;
}
inline f4 load4(const float* p) {
  f4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(float* p, f4 v) {
  std::memcpy(p, &v, sizeof v);
}
// The first n < 4 values of p, the other lanes `pad`.
inline f4 load_part(const float* p, int64_t n, float pad) {
  float tmp[kW] = {pad, pad, pad, pad};
  for (int64_t k = 0; k < n; ++k) tmp[k] = p[k];
  return load4(tmp);
}
inline void store_part(float* p, f4 v, int64_t n) {
  float tmp[kW];
  store4(tmp, v);
  for (int64_t k = 0; k < n; ++k) p[k] = tmp[k];
}
// max that skips NaN in `v` (the running value m never is NaN), as the scalar loops do.
inline f4 max4(f4 m, f4 v) {
  return v > m ? v : m;
}

inline f4 exp4(f4 x) {
  const f4 low = splat(kExpLow);
  const f4 xc = x < low ? low : x;
  const f4 t = xc * kLog2e + kRound;
  const f4 n = t - kRound;
  const f4 r = (xc - n * kLn2Hi) - n * kLn2Lo;
  f4 p = ((((splat(kP0) * r + kP1) * r + kP2) * r + kP3) * r + kP4) * r + kP5;
  p = p * r * r + r + 1.0f;
  const i4 ni = reinterpret_cast<i4>(t) - std::bit_cast<int32_t>(kRound);
  return x < low ? f4{} : p * reinterpret_cast<f4>((ni + 127) << 23);
}

inline float hmax(f4 v) {
  float m = -kInf;
  for (int k = 0; k < kW; ++k) m = v[k] > m ? v[k] : m;
  return m;
}
// Two doubles: the sums of exponentials accumulate in double, so their rounding does not grow
// with the length of the line.
using d2 = double __attribute__((vector_size(16)));
inline void accumulate(d2& lo, d2& hi, f4 e) {
  lo += d2{e[0], e[1]};
  hi += d2{e[2], e[3]};
}

// The shift applied before exp: the max, or 0 for a line of -inf only (so that no inf - inf
// appears there; the result is NaN either way, as in JAX). NaN entries are skipped by the max
// and then poison the sum, which makes the whole line NaN, as in JAX.
template <typename C>
inline C shift_of(C m) {
  return m == -std::numeric_limits<C>::infinity() ? C(0) : m;
}

// Runs body(offset, count) over [0, n) in vectors: count is 4, and less for the last one.
template <typename F>
inline void for_vectors(int64_t n, F body) {
  int64_t k = 0;
  for (; k + kW <= n; k += kW) body(k, kW);
  if (k < n) body(k, n - k);
}
inline f4 load_n(const float* p, int64_t count, float pad) {
  return count == kW ? load4(p) : load_part(p, count, pad);
}
inline void store_n(float* p, f4 v, int64_t count) {
  if (count == kW)
    store4(p, v);
  else
    store_part(p, v, count);
}

// ---- dense lines (float compute) ------------------------------------------------------------
constexpr int64_t kChunk = 512;

// `n` values of x as float: x itself for float32, else converted into buf.
template <typename T>
const float* as_float(const T* x, int64_t n, float* buf) {
  if constexpr (std::is_same_v<T, float>) {
    return x;
  } else {
    for (int64_t k = 0; k < n; ++k) buf[k] = convert<float>(x[k]);
    return buf;
  }
}
template <typename T>
void from_float(const float* y, int64_t n, T* out) {
  for (int64_t k = 0; k < n; ++k) out[k] = convert<T>(y[k]);
}

template <typename T>
void line_dense(const T* x, T* out, int64_t n, bool log) {
  constexpr bool is_f32 = std::is_same_v<T, float>;
  float buf[kChunk];
  f4 mv = splat(-kInf);
  for (int64_t b = 0; b < n; b += kChunk) {
    const int64_t len = std::min(kChunk, n - b);
    const float* xf = as_float(x + b, len, buf);
    for_vectors(len, [&](int64_t k, int64_t c) { mv = max4(mv, load_n(xf + k, c, -kInf)); });
  }
  const float m = shift_of(hmax(mv));
  // Softmax of float32 keeps exp(x - m) in `out` and rescales it in place afterwards.
  const bool keep = is_f32 && !log;
  double sum = 0;
  for (int64_t b = 0; b < n; b += kChunk) {
    const int64_t len = std::min(kChunk, n - b);
    const float* xf = as_float(x + b, len, buf);
    d2 lo{}, hi{};
    for_vectors(len, [&](int64_t k, int64_t c) {
      f4 e = exp4(load_n(xf + k, c, -kInf) - m);
      if constexpr (is_f32) {
        if (keep) store_n(out + b + k, e, c);
      }
      accumulate(lo, hi, e);
    });
    sum += (lo[0] + lo[1]) + (hi[0] + hi[1]);
  }
  if constexpr (is_f32) {
    if (keep) {
      const float inv = static_cast<float>(1.0 / sum);
      for_vectors(n,
                  [&](int64_t k, int64_t c) { store_n(out + k, load_n(out + k, c, 0) * inv, c); });
      return;
    }
  }
  // log: (x - m) - lse, not x - (m + lse), which rounds away digits when |m| is large.
  const float factor = log ? static_cast<float>(std::log(sum)) : static_cast<float>(1.0 / sum);
  for (int64_t b = 0; b < n; b += kChunk) {
    const int64_t len = std::min(kChunk, n - b);
    const float* xf = as_float(x + b, len, buf);
    float* y = buf;
    if constexpr (is_f32) y = out + b;
    for_vectors(len, [&](int64_t k, int64_t c) {
      f4 v = load_n(xf + k, c, 0) - m;
      store_n(y + k, log ? v - factor : exp4(v) * factor, c);
    });
    if constexpr (!is_f32) from_float(buf, len, out + b);
  }
}

// ---- dense tensors, axis not innermost (float compute) --------------------------------------
constexpr int64_t kBlock = 256;  // columns per task

// Columns [0, width) of a dense (n, inner) slab: softmax down each column, 4 columns at a time.
template <typename T>
void block_dense(const T* x, T* out, int64_t n, int64_t inner, int64_t width, bool log) {
  constexpr bool is_f32 = std::is_same_v<T, float>;
  const bool keep = is_f32 && !log;
  float buf[kBlock], m[kBlock];
  double sum[kBlock];
  std::fill(m, m + width, -kInf);
  std::fill(sum, sum + width, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const float* row = as_float(x + i * inner, width, buf);
    for_vectors(width, [&](int64_t j, int64_t c) {
      store_n(m + j, max4(load_n(m + j, c, -kInf), load_n(row + j, c, -kInf)), c);
    });
  }
  for (int64_t j = 0; j < width; ++j) m[j] = shift_of(m[j]);
  for (int64_t i = 0; i < n; ++i) {
    const float* row = as_float(x + i * inner, width, buf);
    for_vectors(width, [&](int64_t j, int64_t c) {
      f4 e = exp4(load_n(row + j, c, -kInf) - load_n(m + j, c, 0));
      if constexpr (is_f32) {
        if (keep) store_n(out + i * inner + j, e, c);
      }
      if (c == kW) {
        d2 lo, hi;
        std::memcpy(&lo, sum + j, sizeof lo);
        std::memcpy(&hi, sum + j + 2, sizeof hi);
        accumulate(lo, hi, e);
        std::memcpy(sum + j, &lo, sizeof lo);
        std::memcpy(sum + j + 2, &hi, sizeof hi);
      } else {
        for (int64_t k = 0; k < c; ++k) sum[j + k] += e[k];
      }
    });
  }
  float factor[kBlock];
  for (int64_t j = 0; j < width; ++j)
    factor[j] = log ? static_cast<float>(std::log(sum[j])) : static_cast<float>(1.0 / sum[j]);
  for (int64_t i = 0; i < n; ++i) {
    float* y = buf;
    if constexpr (is_f32) y = out + i * inner;
    const float* row = keep ? y : as_float(x + i * inner, width, buf);
    for_vectors(width, [&](int64_t j, int64_t c) {
      const f4 v = load_n(row + j, c, 0), f = load_n(factor + j, c, 1);
      store_n(y + j,
              keep  ? v * f
              : log ? (v - load_n(m + j, c, 0)) - f
                    : exp4(v - load_n(m + j, c, 0)) * f,
              c);
    });
    if constexpr (!is_f32) from_float(buf, width, out + i * inner);
  }
}

// ---- any strides (and float64) --------------------------------------------------------------
template <typename T>
void line_strided(const char* p, char* q, int64_t n, int64_t xs, int64_t os, bool log) {
  using C = compute_t<T>;
  auto at = [&](int64_t i) { return convert<C>(*reinterpret_cast<const T*>(p + i * xs)); };
  C m = -std::numeric_limits<C>::infinity();
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
  constexpr bool vector = std::is_same_v<compute_t<T>, float>;
  if constexpr (vector) {
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
  }
  const backend::Array* ops[2] = {&x, &out};
  auto lines = make_lines<2>(x.shape, axis, ops);
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const char* xb = static_cast<const char*>(x.data());
  char* ob = static_cast<char*>(out.data());
  for_each_line(lines, n * 4, [&](int64_t, const int64_t(&off)[2]) {
    if constexpr (vector) {
      if (xs == sizeof(T) && os == sizeof(T)) {
        line_dense(reinterpret_cast<const T*>(xb + off[0]), reinterpret_cast<T*>(ob + off[1]), n,
                   log);
        return;
      }
    }
    line_strided<T>(xb + off[0], ob + off[1], n, xs, os, log);
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
