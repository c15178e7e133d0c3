// See conv_depthwise.h. The inner loops are written plainly and compiled three times (isa.h):
// GCC vectorizes the channel loop with each version's register width.

#include "conv_depthwise.h"

#include <algorithm>

#include "isa.h"

namespace keras::cpu::conv_detail {
namespace {

// y[r] = sum over taps of x[row of tap] * w[tap] for rows [r0, r1).
__attribute__((always_inline)) inline void rows_body(const ConvGeometry& g, const float* x,
                                                     const float* w, float* y, int64_t r0,
                                                     int64_t r1) {
  const int64_t p_count = g.positions(), o = g.o, m = g.og, c_count = g.c;
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t n = r / p_count;
    float* __restrict yr = y + r * o;
    std::fill(yr, yr + o, 0.0f);
    for_each_tap_line(g, r - n * p_count, g.xs,
                      [&](int64_t tap, bool inside, int64_t off, int64_t i2) {
                        if (!inside) return;
                        for (int64_t k2 = 0; k2 < g.window[2]; ++k2) {
                          const int64_t i = i2 + k2 * g.dilation[2];
                          if (i < 0 || i >= g.in[2]) continue;
                          const float* __restrict xr = x + n * g.xs_n + off + i * g.xs[2];
                          const float* __restrict wr = w + (tap + k2) * o;
                          if (m == 1) {
                            for (int64_t c = 0; c < c_count; ++c) yr[c] += xr[c] * wr[c];
                          } else {
                            for (int64_t c = 0; c < c_count; ++c)
                              for (int64_t j = 0; j < m; ++j)
                                yr[c * m + j] += xr[c] * wr[c * m + j];
                          }
                        }
                      });
  }
}

KERAS_TARGET_AVX512 void rows_avx512(const ConvGeometry& g, const float* x, const float* w,
                                     float* y, int64_t r0, int64_t r1) {
  rows_body(g, x, w, y, r0, r1);
}
KERAS_TARGET_AVX2 void rows_avx2(const ConvGeometry& g, const float* x, const float* w, float* y,
                                 int64_t r0, int64_t r1) {
  rows_body(g, x, w, y, r0, r1);
}
void rows_baseline(const ConvGeometry& g, const float* x, const float* w, float* y, int64_t r0,
                   int64_t r1) {
  rows_body(g, x, w, y, r0, r1);
}

}  // namespace

void depthwise_forward(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const int64_t work_per_row = std::max<int64_t>(1, g.taps() * g.o);
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / work_per_row);
  parallel_for(g.rows, grain, [&](int64_t b, int64_t e) {
    by_isa(rows_avx512, rows_avx2, rows_baseline, g, x, w, y, b, e);
  });
}

}  // namespace keras::cpu::conv_detail
