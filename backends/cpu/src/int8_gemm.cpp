#include "int8_gemm.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu_backend.h"
#include "isa.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

// The calling thread's buffer for one packed panel of b: reused across calls, so packing needs
// no allocation and the panel stays in L1/L2 while every row block of a reads it.
template <typename T>
T* panel_scratch(int64_t count) {
  thread_local std::vector<T> buffer;
  if (static_cast<int64_t>(buffer.size()) < count) buffer.resize(static_cast<size_t>(count));
  return buffer.data();
}

bool has_avx512_vnni() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}


// Work per pool task below which the product runs on the calling thread.
constexpr int64_t kSingleThreadMacs = int64_t{1} << 18;

// Runs panel(p) for every column panel p of c, on the pool when the product is large.
template <typename Panel>
void for_each_panel(int64_t m, int64_t n, int64_t k, int64_t width, const Panel& panel) {
  const int64_t panels = (n + width - 1) / width;
  if (m * n * k < kSingleThreadMacs || panels == 1) {
    for (int64_t p = 0; p < panels; ++p) panel(p);
    return;
  }
  parallel_tasks(panels, [&](int64_t p) { panel(p); });
}

// dst = src + 128 as unsigned bytes (a flipped sign bit); restrict lets the loop vectorize.
void offset_row(const int8_t* __restrict src, int64_t k, uint8_t* __restrict dst) {
  for (int64_t kk = 0; kk < k; ++kk) dst[kk] = static_cast<uint8_t>(src[kk] ^ 0x80);
}

void widen_row(const int8_t* __restrict src, int64_t k, int16_t* __restrict dst) {
  for (int64_t kk = 0; kk < k; ++kk) dst[kk] = src[kk];
}

// ---- AVX-512 VNNI -------------------------------------------------------------------------
// Panels of 32 columns (two zmm of 16 int32), 6 rows at a time: 12 accumulators.
constexpr int64_t kVnniCols = 32, kVnniRows = 6;

// Four rows of 16 columns interleaved into 16 groups of 4 bytes (column j: the 4 rows' bytes),
// the layout vpdpbusd reads: two rounds of byte and word unpacks.
inline void interleave_4x16(const int8_t* r0, const int8_t* r1, const int8_t* r2,
                            const int8_t* r3, int8_t* dst) {
  auto load = [](const int8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
  const __m128i a = load(r0), b = load(r1), c = load(r2), d = load(r3);
  const __m128i ab_lo = _mm_unpacklo_epi8(a, b), ab_hi = _mm_unpackhi_epi8(a, b);
  const __m128i cd_lo = _mm_unpacklo_epi8(c, d), cd_hi = _mm_unpackhi_epi8(c, d);
  auto store = [dst](int i, __m128i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 16 * i), v);
  };
  store(0, _mm_unpacklo_epi16(ab_lo, cd_lo));
  store(1, _mm_unpackhi_epi16(ab_lo, cd_lo));
  store(2, _mm_unpacklo_epi16(ab_hi, cd_hi));
  store(3, _mm_unpackhi_epi16(ab_hi, cd_hi));
}

// packed[k4][j][t] = b[4 k4 + t][j0 + j] (0 past k or n).
void pack_vnni(const int8_t* b, int64_t n, int64_t k, int64_t j0, int8_t* packed) {
  const int64_t kp = round_up(k, 4), cols = std::min(kVnniCols, n - j0);
  const int64_t full_k = cols == kVnniCols ? k / 4 * 4 : 0;  // the vectorized rows
  for (int64_t kk = 0; kk < full_k; kk += 4) {
    const int8_t* row = b + kk * n + j0;
    for (int64_t half = 0; half < kVnniCols; half += 16)
      interleave_4x16(row + half, row + n + half, row + 2 * n + half, row + 3 * n + half,
                      packed + kk * kVnniCols + half * 4);
  }
  std::memset(packed + full_k * kVnniCols, 0, static_cast<size_t>((kp - full_k) * kVnniCols));
  for (int64_t kk = full_k; kk < k; ++kk) {
    const int8_t* row = b + kk * n + j0;
    int8_t* dst = packed + (kk / 4) * kVnniCols * 4 + (kk % 4);
    for (int64_t j = 0; j < cols; ++j) dst[j * 4] = row[j];
  }
}

// colsum[j] = the sum of column j of a packed panel (vpdpbusd with all-ones bytes).
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void vnni_column_sums(
    const int8_t* packed, int64_t kp, int32_t* colsum) {
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
  for (int64_t k4 = 0; k4 < kp / 4; ++k4) {
    s0 = _mm512_dpbusd_epi32(s0, ones, _mm512_loadu_si512(packed + k4 * kVnniCols * 4));
    s1 = _mm512_dpbusd_epi32(s1, ones, _mm512_loadu_si512(packed + k4 * kVnniCols * 4 + 64));
  }
  _mm512_storeu_si512(colsum, s0);
  _mm512_storeu_si512(colsum + 16, s1);
}

// ROWS rows of a (as a + 128, rows of kp bytes) times one packed panel: the accumulators stay
// in registers because ROWS is a constant.
template <int ROWS>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"), always_inline)) inline void
vnni_rows(const uint8_t* a, int64_t kp, const int8_t* packed, const int32_t* colsum,
          int32_t* c, int64_t ldc, int64_t cols) {
  __m512i acc[ROWS][2];
  for (int r = 0; r < ROWS; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_si512();
  for (int64_t k4 = 0; k4 < kp / 4; ++k4) {
    const __m512i b0 = _mm512_loadu_si512(packed + k4 * kVnniCols * 4);
    const __m512i b1 = _mm512_loadu_si512(packed + k4 * kVnniCols * 4 + 64);
    for (int r = 0; r < ROWS; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + r * kp + k4 * 4, 4);
      const __m512i av = _mm512_set1_epi32(quad);
      acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], av, b0);
      acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], av, b1);
    }
  }
  // a was stored as a + 128: subtract 128 * colsum.
  const __m512i s0 = _mm512_mullo_epi32(_mm512_loadu_si512(colsum), _mm512_set1_epi32(128));
  const __m512i s1 =
      _mm512_mullo_epi32(_mm512_loadu_si512(colsum + 16), _mm512_set1_epi32(128));
  const __mmask16 m0 = cols >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << cols) - 1);
  const __mmask16 m1 =
      cols >= 32 ? 0xFFFF : cols <= 16 ? 0 : static_cast<__mmask16>((1u << (cols - 16)) - 1);
  for (int r = 0; r < ROWS; ++r) {
    _mm512_mask_storeu_epi32(c + r * ldc, m0, _mm512_sub_epi32(acc[r][0], s0));
    _mm512_mask_storeu_epi32(c + r * ldc + 16, m1, _mm512_sub_epi32(acc[r][1], s1));
  }
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void vnni_block(
    const uint8_t* a, int64_t kp, int64_t rows, const int8_t* packed, const int32_t* colsum,
    int32_t* c, int64_t ldc, int64_t cols) {
  switch (rows) {
    case 6: return vnni_rows<6>(a, kp, packed, colsum, c, ldc, cols);
    case 5: return vnni_rows<5>(a, kp, packed, colsum, c, ldc, cols);
    case 4: return vnni_rows<4>(a, kp, packed, colsum, c, ldc, cols);
    case 3: return vnni_rows<3>(a, kp, packed, colsum, c, ldc, cols);
    case 2: return vnni_rows<2>(a, kp, packed, colsum, c, ldc, cols);
    default: return vnni_rows<1>(a, kp, packed, colsum, c, ldc, cols);
  }
}

void gemm_vnni(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* c) {
  const int64_t kp = round_up(k, 4);
  // a + 128 as unsigned bytes, rows padded to kp (the padding meets zero rows of b's panels).
  std::vector<uint8_t> au(static_cast<size_t>(m * kp), 128);
  for (int64_t i = 0; i < m; ++i) offset_row(a + i * k, k, au.data() + i * kp);
  for_each_panel(m, n, k, kVnniCols, [&](int64_t p) {
    const int64_t j0 = p * kVnniCols, cols = std::min(kVnniCols, n - j0);
    int8_t* panel = panel_scratch<int8_t>(kp * kVnniCols);
    alignas(64) int32_t colsum[kVnniCols];
    pack_vnni(b, n, k, j0, panel);
    vnni_column_sums(panel, kp, colsum);
    for (int64_t i = 0; i < m; i += kVnniRows)
      vnni_block(au.data() + i * kp, kp, std::min(kVnniRows, m - i), panel, colsum,
                 c + i * n + j0, n, cols);
  });
}

// ---- AVX2 vpmaddwd ------------------------------------------------------------------------
// Panels of 16 columns (two ymm of 8 int32), 4 rows at a time: 8 accumulators.
constexpr int64_t kMaddCols = 16, kMaddRows = 4;

// packed[k2][j][t] = b[2 k2 + t][j0 + j] as int16 (0 past k or n).
KERAS_TARGET_AVX2 void pack_madd(const int8_t* b, int64_t n, int64_t k, int64_t j0,
                                 int16_t* packed) {
  const int64_t kp = round_up(k, 2), cols = std::min(kMaddCols, n - j0);
  const int64_t full_k = cols == kMaddCols ? k / 2 * 2 : 0;  // the vectorized rows
  for (int64_t kk = 0; kk < full_k; kk += 2) {
    // Two rows of 8 columns, widened to int16 and interleaved into (row 0, row 1) pairs.
    for (int64_t half = 0; half < kMaddCols; half += 8) {
      const int8_t* r0 = b + kk * n + j0 + half;
      const __m128i x0 = _mm_cvtepi8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(r0)));
      const __m128i x1 =
          _mm_cvtepi8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(r0 + n)));
      int16_t* dst = packed + kk * kMaddCols + half * 2;
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_unpacklo_epi16(x0, x1));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 8), _mm_unpackhi_epi16(x0, x1));
    }
  }
  std::fill(packed + full_k * kMaddCols, packed + kp * kMaddCols, int16_t{0});
  for (int64_t kk = full_k; kk < k; ++kk) {
    const int8_t* row = b + kk * n + j0;
    int16_t* dst = packed + (kk / 2) * kMaddCols * 2 + (kk % 2);
    for (int64_t j = 0; j < cols; ++j) dst[j * 2] = row[j];
  }
}

template <int ROWS>
KERAS_TARGET_AVX2 [[gnu::always_inline]] inline void madd_rows(const int16_t* a, int64_t kp,
                                                              const int16_t* packed, int32_t* c,
                                                              int64_t ldc, int64_t cols) {
  __m256i acc[ROWS][2];
  for (int r = 0; r < ROWS; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
  for (int64_t k2 = 0; k2 < kp / 2; ++k2) {
    const __m256i b0 = _mm256_loadu_si256(
        reinterpret_cast<const __m256i*>(packed + k2 * kMaddCols * 2));
    const __m256i b1 = _mm256_loadu_si256(
        reinterpret_cast<const __m256i*>(packed + k2 * kMaddCols * 2 + 16));
    for (int r = 0; r < ROWS; ++r) {
      int32_t pair;
      std::memcpy(&pair, a + r * kp + k2 * 2, 4);
      const __m256i av = _mm256_set1_epi32(pair);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(av, b0));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(av, b1));
    }
  }
  for (int r = 0; r < ROWS; ++r) {
    alignas(32) int32_t row[kMaddCols];
    _mm256_store_si256(reinterpret_cast<__m256i*>(row), acc[r][0]);
    _mm256_store_si256(reinterpret_cast<__m256i*>(row + 8), acc[r][1]);
    std::memcpy(c + r * ldc, row, static_cast<size_t>(cols) * sizeof(int32_t));
  }
}

KERAS_TARGET_AVX2 void madd_block(const int16_t* a, int64_t kp, int64_t rows,
                                  const int16_t* packed, int32_t* c, int64_t ldc, int64_t cols) {
  switch (rows) {
    case 4: return madd_rows<4>(a, kp, packed, c, ldc, cols);
    case 3: return madd_rows<3>(a, kp, packed, c, ldc, cols);
    case 2: return madd_rows<2>(a, kp, packed, c, ldc, cols);
    default: return madd_rows<1>(a, kp, packed, c, ldc, cols);
  }
}

void gemm_madd(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* c) {
  const int64_t kp = round_up(k, 2);
  std::vector<int16_t> a16(static_cast<size_t>(m * kp), 0);
  for (int64_t i = 0; i < m; ++i) widen_row(a + i * k, k, a16.data() + i * kp);
  for_each_panel(m, n, k, kMaddCols, [&](int64_t p) {
    const int64_t j0 = p * kMaddCols, cols = std::min(kMaddCols, n - j0);
    int16_t* panel = panel_scratch<int16_t>(kp * kMaddCols);
    pack_madd(b, n, k, j0, panel);
    for (int64_t i = 0; i < m; i += kMaddRows)
      madd_block(a16.data() + i * kp, kp, std::min(kMaddRows, m - i), panel, c + i * n + j0, n,
                 cols);
  });
}

// ---- baseline -----------------------------------------------------------------------------

void gemm_baseline(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b,
                   int32_t* c) {
  for (int64_t i = 0; i < m; ++i) {
    int32_t* row = c + i * n;
    std::fill(row, row + n, 0);
    for (int64_t kk = 0; kk < k; ++kk) {
      const int32_t av = a[i * k + kk];
      const int8_t* brow = b + kk * n;
      for (int64_t j = 0; j < n; ++j) row[j] += av * brow[j];
    }
  }
}

enum class Int8Kernel : uint8_t { Vnni, Madd, Baseline };

Int8Kernel int8_kernel_for_isa() {
  static const bool vnni = has_avx512_vnni();
  switch (isa()) {
    case Isa::Avx512:
      return vnni ? Int8Kernel::Vnni : Int8Kernel::Madd;
    case Isa::Avx2:
      return Int8Kernel::Madd;
    case Isa::Baseline:
      break;
  }
  return Int8Kernel::Baseline;
}

}  // namespace

void int8_gemm(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* c) {
  if (m == 0 || n == 0) return;
  switch (int8_kernel_for_isa()) {
    case Int8Kernel::Vnni:
      return gemm_vnni(m, n, k, a, b, c);
    case Int8Kernel::Madd:
      return gemm_madd(m, n, k, a, b, c);
    case Int8Kernel::Baseline:
      break;
  }
  gemm_baseline(m, n, k, a, b, c);
}

const char* int8_gemm_kernel() {
  switch (int8_kernel_for_isa()) {
    case Int8Kernel::Vnni:
      return "avx512_vnni";
    case Int8Kernel::Madd:
      return "avx2";
    case Int8Kernel::Baseline:
      break;
  }
  return "baseline";
}

void CpuBackend::int8_matmul(const Array& out, const Array& a, const Array& b) {
  int8_gemm(a.shape[0], b.shape[1], a.shape[1], a.data_as<int8_t>(), b.data_as<int8_t>(),
            out.data_as<int32_t>());
}

}  // namespace keras::cpu
