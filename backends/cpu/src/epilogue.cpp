#include "epilogue.h"

namespace keras::cpu {

__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"))) void
bias_relu_rows_f32(float* rows, int64_t count, int64_t n, const float* bias) {
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

}  // namespace keras::cpu
