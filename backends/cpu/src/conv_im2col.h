#pragma once
// The pieces of the im2col + GEMM convolution shared by conv.cpp and conv_pool.cpp: the
// geometry of a convolution as one matrix product, the tile size of the tiled schedule, the
// patch gather (im2col) and the product of patches with the kernel.

#include <algorithm>
#include <type_traits>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "gemm.h"
#include "spatial.h"
#include "thread_pool.h"

namespace keras::cpu::conv_detail {

using backend::ConvSpec;

struct ConvGeometry : WindowGeometry {
  int64_t groups = 1, cg = 1, o = 1, og = 1;
  int64_t kcg = 1;   // patch length of one group: taps * cg
  int64_t kc = 1;    // patch length of all groups: taps * c
  int64_t rows = 0;  // n * positions
};

inline ConvGeometry conv_geometry(const Array& x, const Array& y, const Array& kernel,
                                  const ConvSpec& s) {
  ConvGeometry g;
  SmallVector<int64_t, 3> window(kernel.shape.begin(), kernel.shape.begin() + s.spatial_dims);
  static_cast<WindowGeometry&>(g) = make_geometry(x, y, window, s.strides, s.dilation, s.pad_before,
                                                  s.spatial_dims, s.channels_last);
  g.groups = s.groups;
  g.cg = g.c / g.groups;
  g.o = kernel.shape[kernel.rank() - 1];
  g.og = g.o / g.groups;
  g.kcg = g.taps() * g.cg;
  g.kc = g.kcg * g.groups;
  g.rows = g.n * g.positions();
  return g;
}

template <typename F>
constexpr DType dtype_of() {
  return std::is_same_v<F, double> ? DType::Float64 : DType::Float32;
}

// Below this many rows per tile a GEMM call costs more than it computes.
constexpr int64_t kMinTileRows = 128;
// Patch bytes of one tile: with its GEMM's other operands it stays in a core's L2 cache, so
// the patches are written and read back without a trip to memory.
constexpr int64_t kTileBytes = int64_t{512} << 10;

// Rows per tile of the tiled schedule (one task per tile: its patches, one single-threaded
// GEMM), or 0 when a tile of patches too long to fit kTileBytes would be too short for it.
inline int64_t tile_rows(const ConvGeometry& g, size_t item) {
  const int64_t by_work = kSingleThreadGemm / (g.og * g.kcg);
  const int64_t by_cache = kTileBytes / (g.kc * static_cast<int64_t>(item));
  const int64_t rows = std::max(by_work, by_cache);
  return rows >= kMinTileRows ? rows : 0;
}

// A patch buffer for `rows` rows (uninitialized, from the caching allocator).
template <typename F>
Array patch_buffer(CpuBackend& be, const ConvGeometry& g, int64_t rows) {
  return scratch(be, dtype_of<F>(), Shape{rows, g.kc});
}

// Walks the taps of output position p one window line (k0, k1 fixed, k2 running) at a time:
// fn(tap of k2 = 0, inside, offset of (i0, i1) in the image, first i2). `inside` is false when
// the line lies in the padding of dimension 0 or 1.
template <typename Fn>
inline void for_each_tap_line(const WindowGeometry& g, int64_t p, const int64_t (&strides)[3],
                              Fn fn) {
  const int64_t o2 = p % g.out[2], o1 = (p / g.out[2]) % g.out[1], o0 = p / (g.out[1] * g.out[2]);
  const int64_t i2 = o2 * g.stride[2] - g.pad[2];
  int64_t tap = 0;
  for (int64_t k0 = 0; k0 < g.window[0]; ++k0) {
    const int64_t i0 = o0 * g.stride[0] - g.pad[0] + k0 * g.dilation[0];
    const bool ok0 = i0 >= 0 && i0 < g.in[0];
    for (int64_t k1 = 0; k1 < g.window[1]; ++k1, tap += g.window[2]) {
      const int64_t i1 = o1 * g.stride[1] - g.pad[1] + k1 * g.dilation[1];
      const bool ok = ok0 && i1 >= 0 && i1 < g.in[1];
      fn(tap, ok, ok ? i0 * strides[0] + i1 * strides[1] : 0, i2);
    }
  }
}

// True when a window line of one group is a single contiguous run of the input (or of an
// accumulator with strides `s`): channels innermost and adjacent taps adjacent in memory.
inline bool lines_are_runs(const ConvGeometry& g, int64_t channel_stride, const int64_t (&s)[3]) {
  return g.groups == 1 && channel_stride == 1 && g.dilation[2] == 1 && s[2] == g.c;
}

// True when each output position's patch is its own input position's channels: a 1x1 window
// of stride 1 without padding. Over a contiguous channels-last x the patches are then x's rows,
// and the product reads them in place.
inline bool patches_are_positions(const ConvGeometry& g) {
  for (int i = 0; i < 3; ++i)
    if (g.window[i] != 1 || g.stride[i] != 1 || g.pad[i] != 0 || g.out[i] != g.in[i]) return false;
  return true;
}

// Patches of rows [r0, r1) into col (r1 - r0, kc), laid out [group][tap][channel].
template <typename T, typename F>
void im2col(const ConvGeometry& g, const T* x, int64_t r0, int64_t r1, F* col) {
  const int64_t p_count = g.positions(), w2 = g.window[2];
  const bool runs = lines_are_runs(g, g.xs_c, g.xs);
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / g.kc);
  parallel_for(r1 - r0, grain, [&](int64_t b, int64_t e) {
    for (int64_t r = r0 + b; r < r0 + e; ++r) {
      F* dst = col + (r - r0) * g.kc;
      const T* xn = x + (r / p_count) * g.xs_n;
      for_each_tap_line(g, r % p_count, g.xs,
                        [&](int64_t tap, bool inside, int64_t off, int64_t i2) {
                          if (!inside) {
                            for (int64_t gi = 0; gi < g.groups; ++gi) {
                              F* d = dst + gi * g.kcg + tap * g.cg;
                              std::fill(d, d + w2 * g.cg, F(0));
                            }
                            return;
                          }
                          if (runs && i2 >= 0 && i2 + w2 <= g.in[2]) {  // the whole line at once
                            const T* src = xn + off + i2 * g.xs[2];
                            F* d = dst + tap * g.cg;
                            for (int64_t j = 0; j < w2 * g.cg; ++j) d[j] = convert<F>(src[j]);
                            return;
                          }
                          for (int64_t k2 = 0; k2 < w2; ++k2) {
                            const int64_t i = i2 + k2 * g.dilation[2];
                            const bool ok = i >= 0 && i < g.in[2];
                            for (int64_t gi = 0; gi < g.groups; ++gi) {
                              F* d = dst + gi * g.kcg + (tap + k2) * g.cg;
                              if (!ok) {
                                std::fill(d, d + g.cg, F(0));
                                continue;
                              }
                              const T* src = xn + off + i * g.xs[2] + gi * g.cg * g.xs_c;
                              for (int64_t c = 0; c < g.cg; ++c) d[c] = convert<F>(src[c * g.xs_c]);
                            }
                          }
                        });
    }
  });
}

// Operands as F-typed matrices: the array itself when it already is one, else a converted
// contiguous copy (kept alive by `holder`).
template <typename T, typename F>
const F* kernel_matrix(CpuBackend& be, const Array& kernel, Array& holder) {
  if (std::is_same_v<T, F> && kernel.is_contiguous()) return static_cast<const F*>(kernel.data());
  holder = scratch(be, dtype_of<F>(), kernel.shape);
  be.copy(holder, kernel, backend::CopyMode::Assign);
  return static_cast<const F*>(holder.data());
}

// y rows [r0, r1) = patches @ kernel, per group.
template <typename F>
void multiply_kernel(const ConvGeometry& g, int64_t r0, int64_t r1, const F* col, const F* w,
                     F* y) {
  for (int64_t gi = 0; gi < g.groups; ++gi)
    gemm(false, false, r1 - r0, g.og, g.kcg, col + gi * g.kcg, g.kc, w + gi * g.og, g.o, F(0),
         y + r0 * g.o + gi * g.og, g.o);
}

}  // namespace keras::cpu::conv_detail
