#include "int8_quantize_row.h"

#include <immintrin.h>

#include <cmath>
#include <limits>

#include "dtype_traits.h"
#include "isa.h"
#include "backend/scalar_math.h"

namespace keras::cpu {
namespace {

// The scale from max |x| (NaN when the row has one, as ops::max propagates it).
float row_scale(float amax, bool nan, float hi, float epsilon) {
  if (nan) amax = std::numeric_limits<float>::quiet_NaN();
  return hi / (amax + epsilon);
}

// clip(r, lo, hi) keeping a NaN (as ops::clip), then the cast: the scalar reference.
int8_t clip_and_cast(float r, float lo, float hi) {
  r = r < lo ? lo : r;
  r = r > hi ? hi : r;
  return convert<int8_t>(r);
}

void quantize_row_baseline(const float* x, int64_t k, float lo, float hi, float epsilon,
                           int8_t* q, float* scale) {
  float amax = 0.0f;
  bool nan = false;
  for (int64_t j = 0; j < k; ++j) {
    const float a = std::fabs(x[j]);
    amax = a > amax ? a : amax;
    nan |= a != a;
  }
  const float s = *scale = row_scale(amax, nan, hi, epsilon);
  for (int64_t j = 0; j < k; ++j) q[j] = clip_and_cast(backend::math::round_half_even(x[j] * s), lo, hi);
}

// max_ps(bound, r) and min_ps(bound, r) return r when r is NaN: the scalar clip's NaN rule.
// cvttps gives 0x80000000 for NaN, whose low byte is the 0 the scalar cast gives. The masked
// forms with a full mask and a defined pass-through stand in for the plain intrinsics, whose
// GCC 12 definitions start from an undefined register and warn (-Wmaybe-uninitialized).
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void quantize_row_avx512(
    const float* x, int64_t k, float lo, float hi, float epsilon, int8_t* q, float* scale) {
  const __m512 sign = _mm512_set1_ps(-0.0f);
  __m512 vmax = _mm512_setzero_ps();
  __mmask16 nan = 0;
  for (int64_t j = 0; j < k; j += 16) {
    const __mmask16 m = k - j >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << (k - j)) - 1);
    const __m512 a = _mm512_andnot_ps(sign, _mm512_maskz_loadu_ps(m, x + j));
    vmax = _mm512_mask_max_ps(vmax, 0xFFFF, a, vmax);  // (a > max) ? a : max: NaN a ignored
    nan |= _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q);
  }
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, vmax);
  float amax = 0.0f;
  for (float v : lanes) amax = v > amax ? v : amax;
  const float s = *scale = row_scale(amax, nan != 0, hi, epsilon);
  const __m512 vs = _mm512_set1_ps(s), vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (int64_t j = 0; j < k; j += 16) {
    const __mmask16 m = k - j >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << (k - j)) - 1);
    const __m512 y = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + j), vs);
    __m512 r =
        _mm512_mask_roundscale_ps(y, 0xFFFF, y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    r = _mm512_mask_max_ps(r, 0xFFFF, vlo, r);
    r = _mm512_mask_min_ps(r, 0xFFFF, vhi, r);
    const __m512i ints = _mm512_mask_cvttps_epi32(_mm512_setzero_si512(), 0xFFFF, r);
    _mm_mask_storeu_epi8(q + j, m, _mm512_mask_cvtepi32_epi8(_mm_setzero_si128(), 0xFFFF, ints));
  }
}

KERAS_TARGET_AVX2 void quantize_row_avx2(const float* x, int64_t k, float lo, float hi,
                                         float epsilon, int8_t* q, float* scale) {
  const int64_t full = k / 8 * 8;
  const __m256 sign = _mm256_set1_ps(-0.0f);
  __m256 vmax = _mm256_setzero_ps(), nan = _mm256_setzero_ps();
  for (int64_t j = 0; j < full; j += 8) {
    const __m256 a = _mm256_andnot_ps(sign, _mm256_loadu_ps(x + j));
    vmax = _mm256_max_ps(a, vmax);
    nan = _mm256_or_ps(nan, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, vmax);
  float amax = 0.0f;
  for (float v : lanes) amax = v > amax ? v : amax;
  bool has_nan = _mm256_movemask_ps(nan) != 0;
  for (int64_t j = full; j < k; ++j) {
    const float a = std::fabs(x[j]);
    amax = a > amax ? a : amax;
    has_nan |= a != a;
  }
  const float s = *scale = row_scale(amax, has_nan, hi, epsilon);
  const __m256 vs = _mm256_set1_ps(s), vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  // Byte 0 of each int32 lane to the front of its 128-bit half, then the two halves together.
  const __m256i low_bytes = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                             -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1,
                                             -1, -1, -1, -1, -1, -1);
  const __m256i halves = _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1);
  for (int64_t j = 0; j < full; j += 8) {
    __m256 r = _mm256_round_ps(_mm256_mul_ps(_mm256_loadu_ps(x + j), vs),
                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    r = _mm256_min_ps(vhi, _mm256_max_ps(vlo, r));
    const __m256i bytes = _mm256_permutevar8x32_epi32(
        _mm256_shuffle_epi8(_mm256_cvttps_epi32(r), low_bytes), halves);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(q + j), _mm256_castsi256_si128(bytes));
  }
  for (int64_t j = full; j < k; ++j) q[j] = clip_and_cast(backend::math::round_half_even(x[j] * s), lo, hi);
}

}  // namespace

void quantize_row_int8(const float* x, int64_t k, float lo, float hi, float epsilon, int8_t* q,
                       float* scale) {
  by_isa(&quantize_row_avx512, &quantize_row_avx2, &quantize_row_baseline, x, k, lo, hi, epsilon,
         q, scale);
}

}  // namespace keras::cpu
