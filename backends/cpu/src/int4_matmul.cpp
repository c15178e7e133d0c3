// The product of a weight-only int4 Dense (dense_int4.cpp): float32 inputs times a kernel kept
// packed, two int4 values per byte along its columns. The kernel is never unpacked whole: each
// pool task unpacks one panel of columns into per-thread float32 scratch and multiplies it with
// one single-threaded GEMM into its columns of the output. The front end's form (unpack_int4's
// eight elementwise ops, a cast, then the product) allocated and wrote the whole kernel several
// times per call, which made int4 2-5x slower than float32 (docs/quantization.md).
//
// The panel holds the values Keras multiplies by: per channel the integers themselves (the
// division by kernel_scale follows the product, as in Keras's _int4_call); per group
// (q - zero) * scale, the float32 operations of Keras's dequantize_with_sz_map.

#include <algorithm>
#include <string>
#include <vector>

#include "cpu_backend.h"
#include "gemm.h"
#include "keras/core/errors.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

// Columns per panel: even, so a panel starts on a byte; 64 columns of a 1024-row kernel are
// 256 KB of float32, about a core's L2.
constexpr int64_t kPanelColumns = 64;

// Keras's nibble split (unpack_int4): the low nibble is the even column, the high one the odd
// column, each made signed by (v ^ 8) - 8.
inline float low_nibble(int8_t b) { return static_cast<float>(((b & 0x0F) ^ 8) - 8); }
inline float high_nibble(int8_t b) { return static_cast<float>((((b >> 4) & 0x0F) ^ 8) - 8); }

// Columns [j0, j0 + w) of one packed kernel row as float32 values (j0 even).
void unpack_row(const int8_t* packed_row, int64_t j0, int64_t w, float* out) {
  const int8_t* p = packed_row + j0 / 2;
  const int64_t pairs = w / 2;
  for (int64_t t = 0; t < pairs; ++t) {
    out[2 * t] = low_nibble(p[t]);
    out[2 * t + 1] = high_nibble(p[t]);
  }
  if (w % 2) out[w - 1] = low_nibble(p[pairs]);
}

// Every g_idx entry must name one of the scale's groups (Keras's take would fail otherwise).
void check_groups(const float* g_idx, int64_t k, int64_t groups) {
  for (int64_t r = 0; r < k; ++r) {
    const float g = g_idx[r];
    if (!(g >= 0 && g < static_cast<float>(groups)))
      throw IndexError("int4_matmul: g_idx[" + std::to_string(r) + "] is " + std::to_string(g) +
                       " but the kernel has " + std::to_string(groups) +
                       " groups; g_idx must hold group numbers in [0, " +
                       std::to_string(groups) + ").");
  }
}

}  // namespace

void CpuBackend::int4_matmul(const Array& out, const Array& x, const Array& packed,
                             const Array& scale, const Array& zero, const Array& g_idx) {
  const int64_t m = x.shape[0], k = x.shape[1], n = out.shape[1];
  const int64_t row_bytes = packed.shape[1];
  const float* xd = x.data_as<float>();
  const int8_t* pd = packed.data_as<int8_t>();
  const float* sd = scale.data_as<float>();
  float* od = out.data_as<float>();
  const bool grouped = static_cast<bool>(zero.storage);
  const int8_t* zd = grouped ? zero.data_as<int8_t>() : nullptr;
  const float* gd = grouped ? g_idx.data_as<float>() : nullptr;
  if (grouped) check_groups(gd, k, scale.shape[0]);
  if (m == 0 || n == 0) return;
  const int64_t panels = (n + kPanelColumns - 1) / kPanelColumns;
  parallel_tasks(panels, [&](int64_t p) {
    const int64_t j0 = p * kPanelColumns, w = std::min(kPanelColumns, n - j0);
    thread_local std::vector<float> panel;
    if (panel.size() < static_cast<size_t>(k * w)) panel.resize(static_cast<size_t>(k * w));
    for (int64_t r = 0; r < k; ++r) {
      float* row = panel.data() + r * w;
      unpack_row(pd + r * row_bytes, j0, w, row);
      if (!grouped) continue;
      const int64_t g = static_cast<int64_t>(gd[r]);
      const int8_t* z = zd + g * n + j0;
      const float* s = sd + g * n + j0;
      for (int64_t j = 0; j < w; ++j) row[j] = (row[j] - static_cast<float>(z[j])) * s[j];
    }
    gemm(false, false, m, w, k, xd, k, panel.data(), w, 0.0f, od + j0, n);
    if (grouped) return;
    for (int64_t i = 0; i < m; ++i) {
      float* o = od + i * n + j0;
      for (int64_t j = 0; j < w; ++j) o[j] /= sd[j0 + j];
    }
  });
}

}  // namespace keras::cpu
