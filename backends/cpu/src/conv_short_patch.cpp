#include "conv_short_patch.h"

#include <algorithm>
#include <vector>

#include "thread_pool.h"

namespace keras::cpu {
namespace {

constexpr int64_t kLanes = 16;        // outputs per accumulator block
constexpr int64_t kSliceRows = 4096;  // rows per partial sum of the kernel gradient
constexpr int64_t kEpilogueRows = 64;  // rows computed before their epilogue (in L1)

// 16 floats as one value: one AVX-512 register, two AVX2 registers, four SSE registers (GCC
// splits it for the target of each clone); aligned(4) makes loads and stores unaligned ones.
typedef float Lanes __attribute__((vector_size(kLanes * sizeof(float)), aligned(4)));

// The patch of output row r (image r / P, position r % P) into `patch`, zeros in the padding;
// laid out [tap][channel] like the kernel's rows.
inline void gather_patch(const WindowGeometry& g, const float* x, int64_t r, float* patch) {
  const int64_t positions = g.positions();
  const float* xn = x + (r / positions) * g.xs_n;
  for_each_tap_index(g, r % positions, [&](int64_t tap, bool inside, int64_t i0, int64_t i1,
                                           int64_t i2) {
    float* d = patch + tap * g.c;
    const float* s = xn + i0 * g.xs[0] + i1 * g.xs[1] + i2 * g.xs[2];
    if (g.c == 1) {  // (a plain loop here becomes a call to memcpy)
      d[0] = inside ? s[0] : 0.0f;
      return;
    }
    for (int64_t c = 0; c < g.c; ++c) d[c] = inside ? s[c] : 0.0f;
  });
}

__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"))) void forward_rows(
    const WindowGeometry& g, int64_t o, const float* x, const float* w, float* y, int64_t r0,
    int64_t r1) {
  const int64_t k_len = g.taps() * g.c;
  float patch[kShortPatch];
  for (int64_t r = r0; r < r1; ++r) {
    gather_patch(g, x, r, patch);
    float* yr = y + r * o;
    int64_t ob = 0;
    for (; ob + kLanes <= o; ob += kLanes) {
      Lanes acc = {};
      for (int64_t k = 0; k < k_len; ++k)
        acc += patch[k] * *reinterpret_cast<const Lanes*>(w + k * o + ob);
      *reinterpret_cast<Lanes*>(yr + ob) = acc;
    }
    for (; ob < o; ++ob) {
      float acc = 0.0f;
      for (int64_t k = 0; k < k_len; ++k) acc += patch[k] * w[k * o + ob];
      yr[ob] = acc;
    }
  }
}

__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"))) void
kernel_grad_rows(const WindowGeometry& g, int64_t o, const float* x, const float* dy, int64_t r0,
                 int64_t r1, float* dw) {
  const int64_t k_len = g.taps() * g.c;
  float patch[kShortPatch];
  for (int64_t r = r0; r < r1; ++r) {
    gather_patch(g, x, r, patch);
    const float* d = dy + r * o;
    int64_t ob = 0;
    for (; ob + kLanes <= o; ob += kLanes) {
      const Lanes dv = *reinterpret_cast<const Lanes*>(d + ob);
      for (int64_t k = 0; k < k_len; ++k)
        *reinterpret_cast<Lanes*>(dw + k * o + ob) += patch[k] * dv;
    }
    for (; ob < o; ++ob)
      for (int64_t k = 0; k < k_len; ++k) dw[k * o + ob] += patch[k] * d[ob];
  }
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
      forward_rows(g, o, x, w, y, r0, r1);
      apply_epilogue<float>(y + r0 * o, r1 - r0, o, bias, act, false);
    }
  });
}

void short_patch_backward_kernel(const WindowGeometry& g, int64_t o, const float* x,
                                 const float* dy, float* dw) {
  const int64_t rows = g.n * g.positions(), size = g.taps() * g.c * o;
  const int64_t slices = std::max<int64_t>(1, (rows + kSliceRows - 1) / kSliceRows);
  std::vector<float> partial(static_cast<size_t>(slices * size), 0.0f);
  parallel_for(slices, 1, [&](int64_t b, int64_t e) {
    for (int64_t s = b; s < e; ++s)
      kernel_grad_rows(g, o, x, dy, s * kSliceRows, std::min(rows, (s + 1) * kSliceRows),
                       partial.data() + s * size);
  });
  std::copy(partial.begin(), partial.begin() + size, dw);
  for (int64_t s = 1; s < slices; ++s)
    for (int64_t i = 0; i < size; ++i) dw[i] += partial[s * size + i];
}

}  // namespace keras::cpu
