#include "conv_pool_sparse.h"

#include <algorithm>
#include <vector>

#include "isa.h"

namespace keras::cpu {
namespace {

using conv_detail::ConvGeometry;

// Partial kernel gradients (slices of images), a fixed number: the sum's order is fixed.
constexpr int64_t kSlices = 16;

// The kernels below take W, the floats per register of the version they are compiled into
// (isa.h).

// d[0, c) += v * s[0, c): whole W-float blocks as vectors, then (AVX-512) a block of 8, then the
// rest one by one (written out because GCC's own vectorization of a short loop of unknown length
// costs more in alias checks and peeling than the loop itself).
template <int W>
[[gnu::always_inline]] inline void add_scaled(float* d, const float* s, float v, int64_t c) {
  using Lanes = FloatLanes<W>;
  int64_t i = 0;
  for (; i + W <= c; i += W)
    *reinterpret_cast<Lanes*>(d + i) += v * *reinterpret_cast<const Lanes*>(s + i);
  if constexpr (W > kLanesAvx2)
    if (i + kLanesAvx2 <= c) {
      using Narrow = FloatLanes<kLanesAvx2>;
      *reinterpret_cast<Narrow*>(d + i) += v * *reinterpret_cast<const Narrow*>(s + i);
      i += kLanesAvx2;
    }
  for (; i < c; ++i) d[i] += v * s[i];
}

// Per-task buffers of image_backward: one channel's nonzero windows and the taps' offsets.
struct Scratch {
  std::vector<int64_t> iy, ix;  // the top-left input coordinate of each window's patch
  std::vector<float> v;         // its value of gz
  std::vector<int64_t> tap_at;  // offset of each tap from the top-left, in floats
};

// One window's updates: dx under its patch += v * w (the channel's taps), dw += v * patch.
// Windows inside the input use the precomputed tap offsets; the others check every tap.
template <int W>
[[gnu::always_inline]] inline void window_update(const ConvGeometry& g, const Scratch& s,
                                                 int64_t iy, int64_t ix, float v, const float* xn,
                                                 const float* w, float* dxn, float* dw) {
  const int64_t c = g.c, taps = g.taps();
  const int64_t reach1 = (g.window[1] - 1) * g.dilation[1];
  const int64_t reach2 = (g.window[2] - 1) * g.dilation[2];
  if (iy >= 0 && ix >= 0 && iy + reach1 < g.in[1] && ix + reach2 < g.in[2]) {
    const int64_t base = (iy * g.in[2] + ix) * c;
    if (dxn)
      for (int64_t t = 0; t < taps; ++t) add_scaled<W>(dxn + base + s.tap_at[t], w + t * c, v, c);
    if (dw)
      for (int64_t t = 0; t < taps; ++t) add_scaled<W>(dw + t * c, xn + base + s.tap_at[t], v, c);
    return;
  }
  for (int64_t ky = 0; ky < g.window[1]; ++ky) {
    const int64_t y = iy + ky * g.dilation[1];
    if (y < 0 || y >= g.in[1]) continue;
    for (int64_t kx = 0; kx < g.window[2]; ++kx) {
      const int64_t col = ix + kx * g.dilation[2];
      if (col < 0 || col >= g.in[2]) continue;
      const int64_t t = ky * g.window[2] + kx, at = (y * g.in[2] + col) * c;
      if (dxn) add_scaled<W>(dxn + at, w + t * c, v, c);
      if (dw) add_scaled<W>(dw + t * c, xn + at, v, c);
    }
  }
}

// One channel's kernel gradient (T taps of C channels) over its listed windows, in passes over
// B W-float blocks of channels whose T * B accumulators stay in registers: the same sums, in the
// same order, as window_update's, without a store and reload per window. T * B must fit the
// registers (18 of AVX-512's 32; 9 of AVX2's 16: a block of 8 channels per pass).
template <int W, int T, int B, int C>
[[gnu::always_inline]] inline void kernel_grad_in_registers(const ConvGeometry& g, const Scratch& s,
                                                            int64_t count, const float* xn,
                                                            float* dw) {
  using Lanes = FloatLanes<W>;
  static_assert(C % (W * B) == 0, "whole passes of B blocks");
  const int64_t reach1 = (g.window[1] - 1) * g.dilation[1];
  const int64_t reach2 = (g.window[2] - 1) * g.dilation[2];
  for (int c0 = 0; c0 < C; c0 += W * B) {
    Lanes acc[T][B];
    for (int t = 0; t < T; ++t)
      for (int b = 0; b < B; ++b)
        acc[t][b] = *reinterpret_cast<const Lanes*>(dw + t * C + c0 + W * b);
    for (int64_t k = 0; k < count; ++k) {
      const int64_t iy = s.iy[k], ix = s.ix[k];
      const float v = s.v[k];
      const bool inside = iy >= 0 && ix >= 0 && iy + reach1 < g.in[1] && ix + reach2 < g.in[2];
      for (int t = 0; t < T; ++t) {
        const int64_t y = iy + t / g.window[2] * g.dilation[1];
        const int64_t x = ix + t % g.window[2] * g.dilation[2];
        if (!inside && (y < 0 || y >= g.in[1] || x < 0 || x >= g.in[2])) continue;
        const float* p = xn + (y * g.in[2] + x) * C + c0;
        for (int b = 0; b < B; ++b) acc[t][b] += v * *reinterpret_cast<const Lanes*>(p + W * b);
      }
    }
    for (int t = 0; t < T; ++t)
      for (int b = 0; b < B; ++b)
        *reinterpret_cast<Lanes*>(dw + t * C + c0 + W * b) = acc[t][b];
  }
}

// One image. wt: the kernel as (O, taps, C), so that an output channel's taps are contiguous;
// dwt: the kernel gradient in the same layout. Output channels go outermost, so that one
// channel's weights and gradient stay in L1 while its windows are visited. A channel's
// nonzero windows are listed first (without a branch per window), even windows of a row
// before odd ones: consecutive windows then touch disjoint input columns, so their updates
// of dx do not wait on each other through memory. Always inlined into a version per
// instruction set (below).
template <int W>
[[gnu::always_inline]] inline void image_backward(const ConvGeometry& g, int64_t ph, int64_t pw,
                                                  const float* xn, const float* wt,
                                                  const float* gzn, const uint8_t* an, float* dxn,
                                                  float* dwt, Scratch& s) {
  const int64_t c = g.c, o = g.o, taps = g.taps();
  for (int64_t co = 0; co < o; ++co) {
    int64_t count = 0;
    for (int64_t py = 0; py < ph; ++py)
      for (int64_t j = 0; j < pw; ++j) {
        const int64_t px = j < (pw + 1) / 2 ? 2 * j : 2 * (j - (pw + 1) / 2) + 1;
        const int64_t at = (py * pw + px) * o + co;
        const int a = an[at];  // the conv output position the window's maximum came from
        const int64_t oy = 2 * py + (a >> 1), ox = 2 * px + (a & 1);
        s.iy[count] = oy * g.stride[1] - g.pad[1];
        s.ix[count] = ox * g.stride[2] - g.pad[2];
        s.v[count] = gzn[at];
        count += gzn[at] != 0.0f;
      }
    const float* w = wt ? wt + co * taps * c : nullptr;
    float* dw = dwt ? dwt + co * taps * c : nullptr;
    // 3x3 kernels over 16 or 32 channels keep the kernel gradient in registers: 32 channels in
    // one pass with AVX-512 (18 registers), W per pass with the narrower versions.
    if (dw && taps == 9 && (c == 16 || c == 32)) {
      if (c == 16)
        kernel_grad_in_registers<W, 9, 1, 16>(g, s, count, xn, dw);
      else
        kernel_grad_in_registers<W, 9, W == kLanesAvx512 ? 2 : 1, 32>(g, s, count, xn, dw);
      dw = nullptr;
    }
    if (!dxn && !dw) continue;
    for (int64_t k = 0; k < count; ++k)
      window_update<W>(g, s, s.iy[k], s.ix[k], s.v[k], xn, w, dxn, dw);
  }
}

KERAS_TARGET_AVX512 void image_backward_avx512(const ConvGeometry& g, int64_t ph, int64_t pw,
                                               const float* xn, const float* wt, const float* gzn,
                                               const uint8_t* an, float* dxn, float* dwt,
                                               Scratch& s) {
  image_backward<kLanesAvx512>(g, ph, pw, xn, wt, gzn, an, dxn, dwt, s);
}

KERAS_TARGET_AVX2 void image_backward_avx2(const ConvGeometry& g, int64_t ph, int64_t pw,
                                           const float* xn, const float* wt, const float* gzn,
                                           const uint8_t* an, float* dxn, float* dwt, Scratch& s) {
  image_backward<kLanesAvx2>(g, ph, pw, xn, wt, gzn, an, dxn, dwt, s);
}

void image_backward_baseline(const ConvGeometry& g, int64_t ph, int64_t pw, const float* xn,
                             const float* wt, const float* gzn, const uint8_t* an, float* dxn,
                             float* dwt, Scratch& s) {
  image_backward<kLanesBaseline>(g, ph, pw, xn, wt, gzn, an, dxn, dwt, s);
}

}  // namespace

void conv_pool_sparse_backward(const ConvGeometry& g, int64_t ph, int64_t pw, const float* x,
                               const float* kernel, const float* gz, const uint8_t* argmax,
                               float* dx, float* dkernel) {
  const int64_t c = g.c, o = g.o, taps = g.taps(), size = o * taps * c;
  const int64_t image = g.in[1] * g.in[2] * c, pooled = ph * pw * o;
  std::vector<float> wt(dx ? static_cast<size_t>(size) : 0);
  if (dx)
    for (int64_t t = 0; t < taps; ++t)
      for (int64_t ci = 0; ci < c; ++ci)
        for (int64_t co = 0; co < o; ++co)
          wt[(co * taps + t) * c + ci] = kernel[(t * c + ci) * o + co];
  const int64_t slices = std::max<int64_t>(1, std::min(g.n, kSlices));
  std::vector<float> partial(dkernel ? static_cast<size_t>(slices * size) : 0, 0.0f);
  parallel_for(slices, 1, [&](int64_t b, int64_t e) {
    Scratch scratch;
    scratch.iy.resize(static_cast<size_t>(ph * pw));
    scratch.ix.resize(static_cast<size_t>(ph * pw));
    scratch.v.resize(static_cast<size_t>(ph * pw));
    for (int64_t ky = 0; ky < g.window[1]; ++ky)
      for (int64_t kx = 0; kx < g.window[2]; ++kx)
        scratch.tap_at.push_back((ky * g.dilation[1] * g.in[2] + kx * g.dilation[2]) * c);
    for (int64_t s = b; s < e; ++s)
      for (int64_t n = s * g.n / slices; n < (s + 1) * g.n / slices; ++n) {
        float* dxn = dx ? dx + n * image : nullptr;
        if (dxn) std::fill(dxn, dxn + image, 0.0f);
        by_isa(image_backward_avx512, image_backward_avx2, image_backward_baseline, g, ph, pw,
               x + n * image, dx ? wt.data() : nullptr, gz + n * pooled, argmax + n * pooled, dxn,
               dkernel ? partial.data() + s * size : nullptr, scratch);
      }
  });
  if (!dkernel) return;
  for (int64_t s = 1; s < slices; ++s)
    for (int64_t i = 0; i < size; ++i) partial[i] += partial[s * size + i];
  for (int64_t co = 0; co < o; ++co)
    for (int64_t t = 0; t < taps; ++t)
      for (int64_t ci = 0; ci < c; ++ci)
        dkernel[(t * c + ci) * o + co] = partial[(co * taps + t) * c + ci];
}

}  // namespace keras::cpu
