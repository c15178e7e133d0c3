#include "conv_short_patch.h"

#include <algorithm>
#include <vector>

#include "isa.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

constexpr int64_t kKernelGradSliceRows = 4096;  // rows per partial sum of the kernel gradient
constexpr int64_t kEpilogueRows = 64;  // rows computed before their epilogue (in L1)

// The kernels below take W, the floats per register of the version they are compiled into
// (isa.h): outputs go in blocks of W, one register each. The AVX-512 versions finish with a
// block of 8 where one fits, as the AVX2 ones compute it, so that both levels give the same
// bits (the sums of the one-at-a-time tails are rounded differently from the vector ones).
constexpr int kNarrow = kLanesAvx2;

// The patch of output row r (image r / P, position r % P) into `patch`, zeros in the padding;
// laid out [tap][channel] like the kernel's rows.
inline void gather_patch(const WindowGeometry& g, const float* x, int64_t r, float* patch) {
  const int64_t positions = g.positions();
  const float* xn = x + (r / positions) * g.xs_n;
  for_each_tap_index(g, r % positions,
                     [&](int64_t tap, bool inside, int64_t i0, int64_t i1, int64_t i2) {
                       float* d = patch + tap * g.c;
                       const float* s = xn + i0 * g.xs[0] + i1 * g.xs[1] + i2 * g.xs[2];
                       if (g.c == 1) {  // (a plain loop here becomes a call to memcpy)
                         d[0] = inside ? s[0] : 0.0f;
                         return;
                       }
                       for (int64_t c = 0; c < g.c; ++c) d[c] = inside ? s[c] : 0.0f;
                     });
}

// Walks output rows r, r + 1, ... gathering each one's patch. The windows of 1-d and 2-d
// convolutions that lie inside the input (all but a border) are read through precomputed tap
// offsets, with no division and no bounds check per tap; the rest go through gather_patch.
class PatchWalker {
 public:
  PatchWalker(const WindowGeometry& g, const float* x, int64_t r)
      : g_(g), x_(x), positions_(g.positions()), r_(r) {
    n_ = r / positions_;
    const int64_t p = r % positions_;
    o2_ = p % g.out[2];
    o1_ = p / g.out[2] % g.out[1];
    planar_ = g.window[0] == 1 && g.out[0] == 1 && g.pad[0] == 0;
    int64_t t = 0;
    for (int64_t k1 = 0; k1 < g.window[1]; ++k1)
      for (int64_t k2 = 0; k2 < g.window[2]; ++k2)
        for (int64_t c = 0; c < g.c; ++c)
          offset_[t++] = k1 * g.dilation[1] * g.xs[1] + k2 * g.dilation[2] * g.xs[2] + c;
    length_ = t;
    reach1_ = (g.window[1] - 1) * g.dilation[1];
    reach2_ = (g.window[2] - 1) * g.dilation[2];
  }

  // K: the patch length when known at compile time (the loop then unrolls), else 0.
  template <int K = 0>
  void gather(float* __restrict patch) const {
    if (const float* base = interior_window()) {
      const int64_t* offset = offset_;
      const int64_t n = K ? K : length_;
      for (int64_t k = 0; k < n; ++k) patch[k] = base[offset[k]];
      return;
    }
    gather_patch(g_, x_, r_, patch);
  }

  // The first input value of the current window when it lies inside the input (planar
  // geometries), else null.
  const float* interior_window() const {
    if (!planar_) return nullptr;
    const int64_t i1 = o1_ * g_.stride[1] - g_.pad[1], i2 = o2_ * g_.stride[2] - g_.pad[2];
    if (i1 < 0 || i1 + reach1_ >= g_.in[1] || i2 < 0 || i2 + reach2_ >= g_.in[2]) return nullptr;
    return x_ + n_ * g_.xs_n + i1 * g_.xs[1] + i2 * g_.xs[2];
  }

  void next() {
    ++r_;
    if (++o2_ < g_.out[2]) return;
    o2_ = 0;
    if (++o1_ < g_.out[1]) return;
    o1_ = 0;
    ++n_;  // (planar: one position along dimension 0)
  }

 private:
  const WindowGeometry& g_;
  const float* x_;
  int64_t positions_, r_, n_ = 0, o1_ = 0, o2_ = 0;
  bool planar_ = false;
  int64_t offset_[kShortPatch] = {};
  int64_t length_ = 0, reach1_ = 0, reach2_ = 0;
};

// Four rows against NB W-wide blocks of outputs [ob, ob + W * NB): 4 * NB independent
// accumulators (8 registers), so the multiply-adds overlap instead of waiting on each other's
// latency, and each kernel block is loaded once per four rows.
template <int W, int NB>
[[gnu::always_inline]] inline void four_rows(const float (&patch)[4][kShortPatch], int64_t k_len,
                                             const float* w, int64_t o, int64_t ob, float* y) {
  using Lanes = FloatLanes<W>;
  Lanes acc[4][NB] = {};
  for (int64_t k = 0; k < k_len; ++k) {
    Lanes wk[NB];
    for (int j = 0; j < NB; ++j) wk[j] = *reinterpret_cast<const Lanes*>(w + k * o + ob + j * W);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < NB; ++j) acc[i][j] += patch[i][k] * wk[j];
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < NB; ++j) *reinterpret_cast<Lanes*>(y + i * o + ob + j * W) = acc[i][j];
}

// One row, outputs [ob, o): in W-wide blocks, then one at a time.
template <int W>
[[gnu::always_inline]] inline void one_row(const float* patch, int64_t k_len, const float* w,
                                           int64_t o, float* y, int64_t ob = 0) {
  using Lanes = FloatLanes<W>;
  for (; ob + W <= o; ob += W) {
    Lanes acc = {};
    for (int64_t k = 0; k < k_len; ++k)
      acc += patch[k] * *reinterpret_cast<const Lanes*>(w + k * o + ob);
    *reinterpret_cast<Lanes*>(y + ob) = acc;
  }
  if constexpr (W > kNarrow)
    if (ob + kNarrow <= o) return one_row<kNarrow>(patch, k_len, w, o, y, ob);
  for (; ob < o; ++ob) {
    float acc = 0.0f;
    for (int64_t k = 0; k < k_len; ++k) acc += patch[k] * w[k * o + ob];
    y[ob] = acc;
  }
}

// Rows [r0, r1) into y (row r0 first). The sums run over k in the same order in every path and
// at every width, so a row's values do not depend on which path or version computed it. Always
// inlined into a version per instruction set (forward_rows_f32 and the others below, isa.h).
template <int W>
[[gnu::always_inline]] inline void forward_rows(const WindowGeometry& g, int64_t o, const float* x,
                                                const float* w, float* y, int64_t r0, int64_t r1) {
  const int64_t k_len = g.taps() * g.c;
  float patch[4][kShortPatch];
  PatchWalker walk(g, x, r0);
  int64_t r = r0;
  for (; r + 4 <= r1; r += 4) {
    for (int i = 0; i < 4; ++i, walk.next()) walk.gather(patch[i]);
    float* yr = y + (r - r0) * o;
    int64_t ob = 0;
    for (; ob + 2 * W <= o; ob += 2 * W) four_rows<W, 2>(patch, k_len, w, o, ob, yr);
    for (; ob + W <= o; ob += W) four_rows<W, 1>(patch, k_len, w, o, ob, yr);
    if constexpr (W > kNarrow)
      for (; ob + kNarrow <= o; ob += kNarrow) four_rows<kNarrow, 1>(patch, k_len, w, o, ob, yr);
    for (; ob < o; ++ob)
      for (int i = 0; i < 4; ++i) {
        float acc = 0.0f;
        for (int64_t k = 0; k < k_len; ++k) acc += patch[i][k] * w[k * o + ob];
        yr[i * o + ob] = acc;
      }
  }
  for (; r < r1; ++r, walk.next()) {
    walk.gather(patch[0]);
    one_row<W>(patch[0], k_len, w, o, y + (r - r0) * o);
  }
}

// One W-wide block of dw (K rows, stride o) += patches^T @ d over `rows` rows whose patches
// (K values each) were gathered once: the K accumulators stay in registers. kChunkRows is a
// multiple of 4, so the sums are those of the general loop to the last bit.
template <int W, int K>
[[gnu::always_inline]] inline void grad_block(const float* patches, const float* d, int64_t rows,
                                              int64_t o, float* dw) {
  using Lanes = FloatLanes<W>;
  Lanes acc[K];
  for (int k = 0; k < K; ++k) acc[k] = *reinterpret_cast<const Lanes*>(dw + k * o);
  // Four rows at a time, summed as the general loop below sums them (the same rounding).
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const Lanes d0 = *reinterpret_cast<const Lanes*>(d + r * o);
    const Lanes d1 = *reinterpret_cast<const Lanes*>(d + (r + 1) * o);
    const Lanes d2 = *reinterpret_cast<const Lanes*>(d + (r + 2) * o);
    const Lanes d3 = *reinterpret_cast<const Lanes*>(d + (r + 3) * o);
    const float* p = patches + r * K;
    for (int k = 0; k < K; ++k)
      acc[k] += p[k] * d0 + p[K + k] * d1 + p[2 * K + k] * d2 + p[3 * K + k] * d3;
  }
  for (; r < rows; ++r) {
    const Lanes dv = *reinterpret_cast<const Lanes*>(d + r * o);
    const float* p = patches + r * K;
    for (int k = 0; k < K; ++k) acc[k] += p[k] * dv;
  }
  for (int k = 0; k < K; ++k) *reinterpret_cast<Lanes*>(dw + k * o) = acc[k];
}

// kernel_grad_rows for a patch length K known at compile time (9: 3x3 over one channel; 27:
// over three) and o a multiple of W: chunks of rows whose patches are gathered into L1 once,
// then grad_block per output block. Always inlined: it must be compiled inside each of
// kernel_grad_rows's versions (AVX-512, AVX2), not once for the baseline.
template <int W, int K>
[[gnu::always_inline]] inline void kernel_grad_fixed(const WindowGeometry& g, int64_t o,
                                                     const float* x, const float* dy, int64_t r0,
                                                     int64_t r1, float* dw) {
  constexpr int64_t kChunkRows = 64;
  float patches[kChunkRows * K];
  PatchWalker walk(g, x, r0);
  for (int64_t c0 = r0; c0 < r1; c0 += kChunkRows) {
    const int64_t rows = std::min(kChunkRows, r1 - c0);
    for (int64_t i = 0; i < rows; ++i, walk.next()) walk.template gather<K>(patches + i * K);
    const float* d = dy + (c0 - r0) * o;
    for (int64_t ob = 0; ob < o; ob += W) grad_block<W, K>(patches, d + ob, rows, o, dw + ob);
  }
}

// One W-wide block of dw (outputs [ob, ob + W)) += four rows' patches^T @ their d.
template <int W>
[[gnu::always_inline]] inline void grad_four_rows(const float (&patch)[4][kShortPatch],
                                                  int64_t k_len, const float* d, int64_t o,
                                                  int64_t ob, float* dw) {
  using Lanes = FloatLanes<W>;
  const Lanes d0 = *reinterpret_cast<const Lanes*>(d + ob);
  const Lanes d1 = *reinterpret_cast<const Lanes*>(d + o + ob);
  const Lanes d2 = *reinterpret_cast<const Lanes*>(d + 2 * o + ob);
  const Lanes d3 = *reinterpret_cast<const Lanes*>(d + 3 * o + ob);
  for (int64_t k = 0; k < k_len; ++k) {
    Lanes& acc = *reinterpret_cast<Lanes*>(dw + k * o + ob);
    acc += patch[0][k] * d0 + patch[1][k] * d1 + patch[2][k] * d2 + patch[3][k] * d3;
  }
}

// dw += patches^T @ dy over rows [r0, r1) (dy: row r0 first). Without a fixed patch length,
// rows go in groups of kGradRows, so that each W-wide block of dw is loaded and stored once
// per group rather than once per row. Always inlined, as forward_rows.
template <int W>
[[gnu::always_inline]] inline void kernel_grad_rows(const WindowGeometry& g, int64_t o,
                                                    const float* x, const float* dy, int64_t r0,
                                                    int64_t r1, float* dw) {
  constexpr int64_t kGradRows = 4;
  const int64_t k_len = g.taps() * g.c;
  if (o % W == 0) {
    if (k_len == 9) return kernel_grad_fixed<W, 9>(g, o, x, dy, r0, r1, dw);
    if (k_len == 27) return kernel_grad_fixed<W, 27>(g, o, x, dy, r0, r1, dw);
  }
  if constexpr (W > kNarrow)
    if (o % kNarrow == 0 && (k_len == 9 || k_len == 27))
      return kernel_grad_rows<kNarrow>(g, o, x, dy, r0, r1, dw);
  float patch[kGradRows][kShortPatch];
  PatchWalker walk(g, x, r0);
  int64_t r = r0;
  for (; r + kGradRows <= r1; r += kGradRows) {
    for (int64_t i = 0; i < kGradRows; ++i, walk.next()) walk.gather(patch[i]);
    const float* d = dy + (r - r0) * o;
    int64_t ob = 0;
    for (; ob + W <= o; ob += W) grad_four_rows<W>(patch, k_len, d, o, ob, dw);
    if constexpr (W > kNarrow)
      for (; ob + kNarrow <= o; ob += kNarrow) grad_four_rows<kNarrow>(patch, k_len, d, o, ob, dw);
    for (; ob < o; ++ob)
      for (int64_t i = 0; i < kGradRows; ++i)
        for (int64_t k = 0; k < k_len; ++k) dw[k * o + ob] += patch[i][k] * d[i * o + ob];
  }
  for (; r < r1; ++r, walk.next()) {
    walk.gather(patch[0]);
    const float* d = dy + (r - r0) * o;
    for (int64_t ob = 0; ob < o; ++ob)
      for (int64_t k = 0; k < k_len; ++k) dw[k * o + ob] += patch[0][k] * d[ob];
  }
}

// The versions and their dispatchers.
KERAS_TARGET_AVX512 void forward_rows_avx512(const WindowGeometry& g, int64_t o, const float* x,
                                             const float* w, float* y, int64_t r0, int64_t r1) {
  forward_rows<kLanesAvx512>(g, o, x, w, y, r0, r1);
}
KERAS_TARGET_AVX2 void forward_rows_avx2(const WindowGeometry& g, int64_t o, const float* x,
                                         const float* w, float* y, int64_t r0, int64_t r1) {
  forward_rows<kLanesAvx2>(g, o, x, w, y, r0, r1);
}
void forward_rows_baseline(const WindowGeometry& g, int64_t o, const float* x, const float* w,
                           float* y, int64_t r0, int64_t r1) {
  forward_rows<kLanesBaseline>(g, o, x, w, y, r0, r1);
}
void forward_rows_f32(const WindowGeometry& g, int64_t o, const float* x, const float* w, float* y,
                      int64_t r0, int64_t r1) {
  by_isa(forward_rows_avx512, forward_rows_avx2, forward_rows_baseline, g, o, x, w, y, r0, r1);
}

KERAS_TARGET_AVX512 void kernel_grad_rows_avx512(const WindowGeometry& g, int64_t o, const float* x,
                                                 const float* dy, int64_t r0, int64_t r1,
                                                 float* dw) {
  kernel_grad_rows<kLanesAvx512>(g, o, x, dy, r0, r1, dw);
}
KERAS_TARGET_AVX2 void kernel_grad_rows_avx2(const WindowGeometry& g, int64_t o, const float* x,
                                             const float* dy, int64_t r0, int64_t r1, float* dw) {
  kernel_grad_rows<kLanesAvx2>(g, o, x, dy, r0, r1, dw);
}
void kernel_grad_rows_baseline(const WindowGeometry& g, int64_t o, const float* x, const float* dy,
                               int64_t r0, int64_t r1, float* dw) {
  kernel_grad_rows<kLanesBaseline>(g, o, x, dy, r0, r1, dw);
}
void kernel_grad_rows_f32(const WindowGeometry& g, int64_t o, const float* x, const float* dy,
                          int64_t r0, int64_t r1, float* dw) {
  by_isa(kernel_grad_rows_avx512, kernel_grad_rows_avx2, kernel_grad_rows_baseline, g, o, x, dy, r0,
         r1, dw);
}

}  // namespace

bool short_patch_conv(const WindowGeometry& g, int64_t groups) {
  return groups == 1 && g.xs_c == 1 && g.taps() * g.c <= kShortPatch;
}

void short_patch_forward(const WindowGeometry& g, int64_t o, const float* x, const float* w,
                         float* y, EpilogueBias bias, backend::Activation act) {
  const int64_t rows = g.n * g.positions();
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / (g.taps() * g.c * o));
  parallel_for(rows, grain, [&](int64_t b, int64_t e) {
    for (int64_t r0 = b; r0 < e; r0 += kEpilogueRows) {
      const int64_t r1 = std::min(e, r0 + kEpilogueRows);
      forward_rows_f32(g, o, x, w, y + r0 * o, r0, r1);
      apply_epilogue<float>(y + r0 * o, r1 - r0, o, bias, act, false);
    }
  });
}

void short_patch_rows(const WindowGeometry& g, int64_t o, const float* x, const float* w,
                      int64_t r0, int64_t r1, float* y_rows) {
  forward_rows_f32(g, o, x, w, y_rows, r0, r1);
}

void short_patch_kernel_grad_rows(const WindowGeometry& g, int64_t o, const float* x,
                                  const float* dy_rows, int64_t r0, int64_t r1, float* dw) {
  kernel_grad_rows_f32(g, o, x, dy_rows, r0, r1, dw);
}

void short_patch_backward_kernel(const WindowGeometry& g, int64_t o, const float* x,
                                 const float* dy, float* dw) {
  const int64_t rows = g.n * g.positions(), size = g.taps() * g.c * o;
  const int64_t slices =
      std::max<int64_t>(1, (rows + kKernelGradSliceRows - 1) / kKernelGradSliceRows);
  std::vector<float> partial(static_cast<size_t>(slices * size), 0.0f);
  parallel_for(slices, 1, [&](int64_t b, int64_t e) {
    for (int64_t s = b; s < e; ++s)
      kernel_grad_rows_f32(g, o, x, dy + s * kKernelGradSliceRows * o, s * kKernelGradSliceRows,
                           std::min(rows, (s + 1) * kKernelGradSliceRows),
                           partial.data() + s * size);
  });
  std::copy(partial.begin(), partial.begin() + size, dw);
  for (int64_t s = 1; s < slices; ++s)
    for (int64_t i = 0; i < size; ++i) dw[i] += partial[s * size + i];
}

}  // namespace keras::cpu
