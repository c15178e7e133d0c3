#include "epilogue.h"

#include "isa.h"

namespace keras::cpu {
namespace {

// The loop, compiled into each version below (for its instruction set).
[[gnu::always_inline]] inline void bias_relu_rows(float* rows, int64_t count, int64_t n,
                                                  const float* bias) {
  for (int64_t i = 0; i < count; ++i) {
    float* __restrict row = rows + i * n;
    if (bias) {
      for (int64_t j = 0; j < n; ++j) {
        const float v = row[j] + bias[j];
        row[j] = v <= 0.0f ? 0.0f : v;  // NaN propagates, as activate()
      }
    } else {
      for (int64_t j = 0; j < n; ++j) row[j] = row[j] <= 0.0f ? 0.0f : row[j];
    }
  }
}

KERAS_TARGET_AVX512 void bias_relu_rows_avx512(float* rows, int64_t count, int64_t n,
                                               const float* bias) {
  bias_relu_rows(rows, count, n, bias);
}

KERAS_TARGET_AVX2 void bias_relu_rows_avx2(float* rows, int64_t count, int64_t n,
                                           const float* bias) {
  bias_relu_rows(rows, count, n, bias);
}

void bias_relu_rows_baseline(float* rows, int64_t count, int64_t n, const float* bias) {
  bias_relu_rows(rows, count, n, bias);
}

}  // namespace

void bias_relu_rows_f32(float* rows, int64_t count, int64_t n, const float* bias) {
  by_isa(bias_relu_rows_avx512, bias_relu_rows_avx2, bias_relu_rows_baseline, rows, count, n, bias);
}

}  // namespace keras::cpu
