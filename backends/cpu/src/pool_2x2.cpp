#include "pool_2x2.h"

#include <immintrin.h>

#include <algorithm>
#include <type_traits>

#include "isa.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

// pool.cpp's max_step: NaN wins and stays; branch-free so the channel loops vectorize.
template <typename T>
inline T max_step(T acc, T v) {
  return ((v > acc) | (v != v)) ? v : acc;
}

inline int32_t same(float v, float peak) {
  return (v == peak) | ((v != v) & (peak != peak));
}

// One output row (ox = 0 .. out_w) of one image: r0 and r1 are input rows 2 * oy and 2 * oy + 1.
// The row loops are always inlined into a version per instruction set (forward_row_f32 and the
// others below, isa.h), and GCC vectorizes each for its target.
[[gnu::always_inline]] inline void forward_row(const float* __restrict r0,
                                               const float* __restrict r1, float* __restrict out,
                                               int64_t out_w, int64_t c) {
  for (int64_t ox = 0; ox < out_w; ++ox) {
    const float* a = r0 + 2 * ox * c;
    const float* b = r1 + 2 * ox * c;
    float* o = out + ox * c;
    for (int64_t j = 0; j < c; ++j) {
      float m = -__builtin_inff();
      m = max_step(m, a[j]);
      m = max_step(m, a[c + j]);
      m = max_step(m, b[j]);
      m = max_step(m, b[c + j]);
      o[j] = m;
    }
  }
}

// The gradient rows d0, d1 of input rows r0, r1 under one output row; columns past the last
// window (odd widths) get 0.
[[gnu::always_inline]] inline void backward_row(const float* __restrict r0,
                                                const float* __restrict r1,
                                                const float* __restrict peak,
                                                const float* __restrict g, float* __restrict d0,
                                                float* __restrict d1, int64_t out_w, int64_t in_w,
                                                int64_t c) {
  for (int64_t ox = 0; ox < out_w; ++ox) {
    const int64_t at = 2 * ox * c;
    const float* p = peak + ox * c;
    const float* gv = g + ox * c;
    for (int64_t j = 0; j < c; ++j) {
      const float m = p[j], grad = gv[j];
      const int32_t t0 = same(r0[at + j], m);
      const int32_t t1 = same(r0[at + c + j], m) & ~t0;
      const int32_t t2 = same(r1[at + j], m) & ~(t0 | t1);
      const int32_t t3 = same(r1[at + c + j], m) & ~(t0 | t1 | t2);
      d0[at + j] = t0 ? grad : 0.0f;
      d0[at + c + j] = t1 ? grad : 0.0f;
      d1[at + j] = t2 ? grad : 0.0f;
      d1[at + c + j] = t3 ? grad : 0.0f;
    }
  }
  std::fill(d0 + 2 * out_w * c, d0 + in_w * c, 0.0f);
  std::fill(d1 + 2 * out_w * c, d1 + in_w * c, 0.0f);
}

// One window element v against the running maximum m (index i): v takes over when it is
// larger, or a NaN over a number; equal values keep the first.
template <typename T>
inline void argmax_step(T& m, int32_t& i, T v, int32_t at) {
  const bool take = (v > m) | ((v != v) & (m == m));
  m = take ? v : m;
  i = take ? at : i;
}

template <typename T>
inline void argmax_window(const T* a0, const T* b0, int64_t c, T* o, uint8_t* idx) {
  T m = a0[0];
  int32_t i = 0;
  argmax_step(m, i, a0[c], 1);
  argmax_step(m, i, b0[0], 2);
  argmax_step(m, i, b0[c], 3);
  *o = m;
  *idx = static_cast<uint8_t>(i);
}

// Channels [from, c) of one window position, one at a time.
template <typename T>
inline void argmax_tail(const T* a0, const T* b0, int64_t c, int64_t from, T* o, uint8_t* idx) {
  for (int64_t j = from; j < c; ++j) argmax_window(a0 + j, b0 + j, c, o + j, idx + j);
}

template <typename T>
void argmax_row_scalar(const T* a, const T* b, T* out, uint8_t* argmax, int64_t out_w, int64_t c) {
  for (int64_t ox = 0; ox < out_w; ++ox)
    argmax_tail(a + 2 * ox * c, b + 2 * ox * c, c, 0, out + ox * c, argmax + ox * c);
}

// A row of windows: blocks of W channels by Block, then the rest one at a time. Inlined into
// each ISA's row function below, so that Block (compiled for that ISA) inlines in turn.
template <int W, void (*Block)(const float*, const float*, int64_t, float*, uint8_t*)>
[[gnu::always_inline]] inline void argmax_row_blocks(const float* a, const float* b, float* out,
                                                     uint8_t* argmax, int64_t out_w, int64_t c) {
  for (int64_t ox = 0; ox < out_w; ++ox) {
    const float* a0 = a + 2 * ox * c;
    const float* b0 = b + 2 * ox * c;
    float* o = out + ox * c;
    uint8_t* idx = argmax + ox * c;
    int64_t j = 0;
    for (; j + W <= c; j += W) Block(a0 + j, b0 + j, c, o + j, idx + j);
    argmax_tail(a0, b0, c, j, o, idx);
  }
}

// The same steps on 16 (AVX-512) or 8 (AVX2) channels of one window at once, with
// intrinsics: GCC does not vectorize the mixed float/byte loop by itself (it scalarizes the
// selects).
__attribute__((target("avx512f"))) inline void step(__m512& m, __m512i& i, const float* p,
                                                    int32_t at) {
  const __m512 v = _mm512_loadu_ps(p);
  const __mmask16 take =
      _mm512_cmp_ps_mask(v, m, _CMP_GT_OQ) |
      (_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q) & _mm512_cmp_ps_mask(m, m, _CMP_ORD_Q));
  m = _mm512_mask_mov_ps(m, take, v);
  i = _mm512_mask_mov_epi32(i, take, _mm512_set1_epi32(at));
}

__attribute__((target("avx512f"))) inline void block_avx512(const float* a0, const float* b0,
                                                            int64_t c, float* o, uint8_t* idx) {
  __m512 m = _mm512_loadu_ps(a0);
  __m512i i = _mm512_setzero_si512();
  step(m, i, a0 + c, 1);
  step(m, i, b0, 2);
  step(m, i, b0 + c, 3);
  _mm512_storeu_ps(o, m);
  _mm512_mask_cvtepi32_storeu_epi8(idx, 0xFFFF, i);
}

__attribute__((target("avx512f"))) void argmax_row_avx512(const float* a, const float* b,
                                                          float* out, uint8_t* argmax,
                                                          int64_t out_w, int64_t c) {
  argmax_row_blocks<16, block_avx512>(a, b, out, argmax, out_w, c);
}

__attribute__((target("avx2"))) inline void step(__m256& m, __m256i& i, const float* p,
                                                 int32_t at) {
  const __m256 v = _mm256_loadu_ps(p);
  const __m256 take = _mm256_or_ps(
      _mm256_cmp_ps(v, m, _CMP_GT_OQ),
      _mm256_and_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q), _mm256_cmp_ps(m, m, _CMP_ORD_Q)));
  m = _mm256_blendv_ps(m, v, take);
  i = _mm256_blendv_epi8(i, _mm256_set1_epi32(at), _mm256_castps_si256(take));
}

__attribute__((target("avx2"))) inline void block_avx2(const float* a0, const float* b0, int64_t c,
                                                       float* o, uint8_t* idx) {
  __m256 m = _mm256_loadu_ps(a0);
  __m256i i = _mm256_setzero_si256();
  step(m, i, a0 + c, 1);
  step(m, i, b0, 2);
  step(m, i, b0 + c, 3);
  _mm256_storeu_ps(o, m);
  const __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256(i, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(idx), _mm_packus_epi16(w16, w16));
}

__attribute__((target("avx2"))) void argmax_row_avx2(const float* a, const float* b, float* out,
                                                     uint8_t* argmax, int64_t out_w, int64_t c) {
  argmax_row_blocks<8, block_avx2>(a, b, out, argmax, out_w, c);
}

void argmax_row_f32(const float* a, const float* b, float* out, uint8_t* argmax, int64_t out_w,
                    int64_t c) {
  by_isa(argmax_row_avx512, argmax_row_avx2, argmax_row_scalar<float>, a, b, out, argmax, out_w, c);
}

// W int32 and W bytes as one value each, for the scatter below (W: a register's floats, isa.h);
// aligned(1) makes loads and stores unaligned ones.
template <int W>
struct ScatterLanes {
  typedef int32_t Index __attribute__((vector_size(W * 4), aligned(1)));
  typedef uint8_t Byte __attribute__((vector_size(W), aligned(1)));
};
template <int W, typename T>
[[gnu::always_inline]] inline void scatter_row(const T* gz, const uint8_t* argmax, T* d0, T* d1,
                                               int64_t out_w, int64_t w, int64_t c) {
  for (int64_t ox = 0; ox < out_w; ++ox) {
    const T* gv = gz + ox * c;
    const uint8_t* idx = argmax + ox * c;
    T* p0 = d0 + 2 * ox * c;
    T* p1 = d1 + 2 * ox * c;
    int64_t j = 0;
    if constexpr (std::is_same_v<T, float>) {
      using F = FloatLanes<W>;
      using I = typename ScatterLanes<W>::Index;
      using U = typename ScatterLanes<W>::Byte;
      for (; j + W <= c; j += W) {
        const F v = *reinterpret_cast<const F*>(gv + j);
        const I i = __builtin_convertvector(*reinterpret_cast<const U*>(idx + j), I);
        const F zero = {};
        *reinterpret_cast<F*>(p0 + j) = i == 0 ? v : zero;
        *reinterpret_cast<F*>(p0 + c + j) = i == 1 ? v : zero;
        *reinterpret_cast<F*>(p1 + j) = i == 2 ? v : zero;
        *reinterpret_cast<F*>(p1 + c + j) = i == 3 ? v : zero;
      }
    }
    for (; j < c; ++j) {
      const T v = gv[j];
      const uint8_t i = idx[j];
      p0[j] = i == 0 ? v : T(0);
      p0[c + j] = i == 1 ? v : T(0);
      p1[j] = i == 2 ? v : T(0);
      p1[c + j] = i == 3 ? v : T(0);
    }
  }
  std::fill(d0 + 2 * out_w * c, d0 + w * c, T(0));
  std::fill(d1 + 2 * out_w * c, d1 + w * c, T(0));
}

// The versions of the row loops and their dispatchers.
KERAS_TARGET_AVX512 void forward_row_avx512(const float* __restrict r0, const float* __restrict r1,
                                            float* __restrict out, int64_t out_w, int64_t c) {
  forward_row(r0, r1, out, out_w, c);
}
KERAS_TARGET_AVX2 void forward_row_avx2(const float* __restrict r0, const float* __restrict r1,
                                        float* __restrict out, int64_t out_w, int64_t c) {
  forward_row(r0, r1, out, out_w, c);
}
void forward_row_baseline(const float* __restrict r0, const float* __restrict r1,
                          float* __restrict out, int64_t out_w, int64_t c) {
  forward_row(r0, r1, out, out_w, c);
}
void forward_row_f32(const float* __restrict r0, const float* __restrict r1, float* __restrict out,
                     int64_t out_w, int64_t c) {
  by_isa(forward_row_avx512, forward_row_avx2, forward_row_baseline, r0, r1, out, out_w, c);
}

KERAS_TARGET_AVX512 void backward_row_avx512(const float* __restrict r0, const float* __restrict r1,
                                             const float* __restrict peak,
                                             const float* __restrict g, float* __restrict d0,
                                             float* __restrict d1, int64_t out_w, int64_t in_w,
                                             int64_t c) {
  backward_row(r0, r1, peak, g, d0, d1, out_w, in_w, c);
}
KERAS_TARGET_AVX2 void backward_row_avx2(const float* __restrict r0, const float* __restrict r1,
                                         const float* __restrict peak, const float* __restrict g,
                                         float* __restrict d0, float* __restrict d1, int64_t out_w,
                                         int64_t in_w, int64_t c) {
  backward_row(r0, r1, peak, g, d0, d1, out_w, in_w, c);
}
void backward_row_baseline(const float* __restrict r0, const float* __restrict r1,
                           const float* __restrict peak, const float* __restrict g,
                           float* __restrict d0, float* __restrict d1, int64_t out_w, int64_t in_w,
                           int64_t c) {
  backward_row(r0, r1, peak, g, d0, d1, out_w, in_w, c);
}
void backward_row_f32(const float* __restrict r0, const float* __restrict r1,
                      const float* __restrict peak, const float* __restrict g, float* __restrict d0,
                      float* __restrict d1, int64_t out_w, int64_t in_w, int64_t c) {
  by_isa(backward_row_avx512, backward_row_avx2, backward_row_baseline, r0, r1, peak, g, d0, d1,
         out_w, in_w, c);
}

KERAS_TARGET_AVX512 void scatter_row_avx512(const float* gz, const uint8_t* argmax, float* d0,
                                            float* d1, int64_t out_w, int64_t w, int64_t c) {
  scatter_row<kLanesAvx512>(gz, argmax, d0, d1, out_w, w, c);
}
KERAS_TARGET_AVX2 void scatter_row_avx2(const float* gz, const uint8_t* argmax, float* d0,
                                        float* d1, int64_t out_w, int64_t w, int64_t c) {
  scatter_row<kLanesAvx2>(gz, argmax, d0, d1, out_w, w, c);
}
void scatter_row_baseline(const float* gz, const uint8_t* argmax, float* d0, float* d1,
                          int64_t out_w, int64_t w, int64_t c) {
  scatter_row<kLanesBaseline>(gz, argmax, d0, d1, out_w, w, c);
}
void scatter_row_f32(const float* gz, const uint8_t* argmax, float* d0, float* d1, int64_t out_w,
                     int64_t w, int64_t c) {
  by_isa(scatter_row_avx512, scatter_row_avx2, scatter_row_baseline, gz, argmax, d0, d1, out_w, w,
         c);
}

}  // namespace

template <typename T>
void max_pool_2x2_argmax_row(const T* a, const T* b, T* out, uint8_t* argmax, int64_t out_w,
                             int64_t c) {
  if constexpr (std::is_same_v<T, float>)
    argmax_row_f32(a, b, out, argmax, out_w, c);
  else
    argmax_row_scalar(a, b, out, argmax, out_w, c);
}

template <typename T>
void max_pool_2x2_row(const T* a, const T* b, T* out, int64_t out_w, int64_t c) {
  if constexpr (std::is_same_v<T, float>) {
    forward_row_f32(a, b, out, out_w, c);
  } else {
    for (int64_t ox = 0; ox < out_w; ++ox)
      for (int64_t j = 0; j < c; ++j) {
        const int64_t at = 2 * ox * c + j;
        T m = -__builtin_inf();
        m = max_step(m, a[at]);
        m = max_step(m, a[at + c]);
        m = max_step(m, b[at]);
        m = max_step(m, b[at + c]);
        out[ox * c + j] = m;
      }
  }
}

void max_pool_2x2_scatter_row(const float* gz, const uint8_t* argmax, float* d0, float* d1,
                              int64_t out_w, int64_t w, int64_t c) {
  scatter_row_f32(gz, argmax, d0, d1, out_w, w, c);
}

template <typename T>
void max_pool_2x2_scatter(int64_t n, int64_t h, int64_t w, int64_t c, const T* gz,
                          const uint8_t* argmax, T* dz) {
  const int64_t oh = h / 2, ow = w / 2;
  parallel_for(n, std::max<int64_t>(1, kElementwiseGrain / (h * w * c)), [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      T* dn = dz + i * h * w * c;
      for (int64_t oy = 0; oy < oh; ++oy) {
        const int64_t row = (i * oh + oy) * ow * c;
        T* d0 = dn + 2 * oy * w * c;
        if constexpr (std::is_same_v<T, float>)
          scatter_row_f32(gz + row, argmax + row, d0, d0 + w * c, ow, w, c);
        else
          scatter_row<kLanesBaseline>(gz + row, argmax + row, d0, d0 + w * c, ow, w, c);
      }
      std::fill(dn + 2 * oh * w * c, dn + h * w * c, T(0));
    }
  });
}

template void max_pool_2x2_argmax_row<float>(const float*, const float*, float*, uint8_t*, int64_t,
                                             int64_t);
template void max_pool_2x2_argmax_row<double>(const double*, const double*, double*, uint8_t*,
                                              int64_t, int64_t);
template void max_pool_2x2_row<float>(const float*, const float*, float*, int64_t, int64_t);
template void max_pool_2x2_row<double>(const double*, const double*, double*, int64_t, int64_t);
template void max_pool_2x2_scatter<float>(int64_t, int64_t, int64_t, int64_t, const float*,
                                          const uint8_t*, float*);
template void max_pool_2x2_scatter<double>(int64_t, int64_t, int64_t, int64_t, const double*,
                                           const uint8_t*, double*);

bool is_max_pool_2x2(const WindowGeometry& g, bool x_contiguous, bool y_contiguous) {
  // Two spatial dimensions (the leading one of the normalized three has extent 1).
  return x_contiguous && y_contiguous && g.xs_c == 1 && g.in[0] == 1 && g.window[0] == 1 &&
         g.window[1] == 2 && g.window[2] == 2 && g.stride[1] == 2 && g.stride[2] == 2 &&
         g.pad[1] == 0 && g.pad[2] == 0 && g.out[1] == g.in[1] / 2 && g.out[2] == g.in[2] / 2;
}

void max_pool_2x2(const WindowGeometry& g, const float* x, float* y) {
  const int64_t h = g.in[1], w = g.in[2], oh = g.out[1], ow = g.out[2], c = g.c;
  parallel_for(g.n * oh, std::max<int64_t>(1, kElementwiseGrain / (4 * ow * c)),
               [&](int64_t b, int64_t e) {
                 for (int64_t row = b; row < e; ++row) {
                   const int64_t n = row / oh, oy = row % oh;
                   const float* r0 = x + ((n * h + 2 * oy) * w) * c;
                   forward_row_f32(r0, r0 + w * c, y + row * ow * c, ow, c);
                 }
               });
}

void max_pool_2x2_backward(const WindowGeometry& g, const float* x, const float* y, const float* dy,
                           float* dx) {
  const int64_t h = g.in[1], w = g.in[2], oh = g.out[1], ow = g.out[2], c = g.c;
  parallel_for(g.n, std::max<int64_t>(1, kElementwiseGrain / (h * w * c)),
               [&](int64_t b, int64_t e) {
                 for (int64_t n = b; n < e; ++n) {
                   const float* xn = x + n * h * w * c;
                   float* dn = dx + n * h * w * c;
                   for (int64_t oy = 0; oy < oh; ++oy) {
                     const int64_t at = 2 * oy * w * c, row = (n * oh + oy) * ow * c;
                     backward_row_f32(xn + at, xn + at + w * c, y + row, dy + row, dn + at,
                                      dn + at + w * c, ow, w, c);
                   }
                   // A last input row of an odd height lies under no window.
                   std::fill(dn + 2 * oh * w * c, dn + h * w * c, 0.0f);
                 }
               });
}

}  // namespace keras::cpu
