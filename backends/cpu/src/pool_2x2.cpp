#include "pool_2x2.h"

#include <algorithm>

#include "thread_pool.h"

namespace keras::cpu {
namespace {

#define KERAS_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))

// pool.cpp's max_step: NaN wins and stays; branch-free so the channel loops vectorize.
inline float max_step(float acc, float v) { return ((v > acc) | (v != v)) ? v : acc; }

inline int32_t same(float v, float peak) { return (v == peak) | ((v != v) & (peak != peak)); }

// One output row (ox = 0 .. out_w) of one image: r0 and r1 are input rows 2 * oy and 2 * oy + 1.
KERAS_CLONES void forward_row(const float* __restrict r0, const float* __restrict r1,
                              float* __restrict out, int64_t out_w, int64_t c) {
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
KERAS_CLONES void backward_row(const float* __restrict r0, const float* __restrict r1,
                               const float* __restrict peak, const float* __restrict g,
                               float* __restrict d0, float* __restrict d1, int64_t out_w,
                               int64_t in_w, int64_t c) {
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

}  // namespace

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
                   forward_row(r0, r0 + w * c, y + row * ow * c, ow, c);
                 }
               });
}

void max_pool_2x2_backward(const WindowGeometry& g, const float* x, const float* y,
                           const float* dy, float* dx) {
  const int64_t h = g.in[1], w = g.in[2], oh = g.out[1], ow = g.out[2], c = g.c;
  parallel_for(g.n, std::max<int64_t>(1, kElementwiseGrain / (h * w * c)),
               [&](int64_t b, int64_t e) {
                 for (int64_t n = b; n < e; ++n) {
                   const float* xn = x + n * h * w * c;
                   float* dn = dx + n * h * w * c;
                   for (int64_t oy = 0; oy < oh; ++oy) {
                     const int64_t at = 2 * oy * w * c, row = (n * oh + oy) * ow * c;
                     backward_row(xn + at, xn + at + w * c, y + row, dy + row, dn + at,
                                  dn + at + w * c, ow, w, c);
                   }
                   // A last input row of an odd height lies under no window.
                   std::fill(dn + 2 * oh * w * c, dn + h * w * c, 0.0f);
                 }
               });
}

}  // namespace keras::cpu
