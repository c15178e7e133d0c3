// The two halves of a quantized Dense around the int8 GEMM (int8_gemm.h), each one pass over
// its rows instead of the 8 + 5 elementwise ops Keras's formulas take:
//   quantize_rows_int8: Keras's abs_max_quantize along the last axis (max |x|, the scale, then
//     round, clip and cast), with the same float32 roundings as those ops.
//   int8_linear: the GEMM (int8_gemm.h), then each row
//     divided by Keras's output scale (kernel_scale * inputs_scale), the bias and the
//     activation while the row is in cache.

#include <vector>

#include "cpu_backend.h"
#include "epilogue.h"
#include "int8_gemm.h"
#include "int8_quantize_row.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

// Rows per pool task: at least kElementwiseGrain elements each.
int64_t row_grain(int64_t row_length) {
  return std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(row_length, 1));
}

}  // namespace

void CpuBackend::quantize_rows_int8(const Array& q, const Array& scale, const Array& x, float lo,
                                    float hi, float epsilon) {
  const int64_t m = x.shape[0], k = x.shape[1];
  const float* xd = x.data_as<float>();
  int8_t* qd = q.data_as<int8_t>();
  float* sd = scale.data_as<float>();
  parallel_for(m, row_grain(k), [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      quantize_row_int8(xd + i * k, k, lo, hi, epsilon, qd + i * k, sd + i);
  });
}

void CpuBackend::int8_linear(const Array& out, const Array& a, const Array& b,
                             const Array& a_scale, const Array& b_scale, const Array& bias,
                             backend::Activation activation) {
  const int64_t m = a.shape[0], n = b.shape[1];
  std::vector<int32_t> acc(static_cast<size_t>(m * n));
  int8_gemm(m, n, a.shape[1], a.data_as<int8_t>(), b.data_as<int8_t>(), acc.data());
  const float* as = a_scale.data_as<float>();
  const float* bs = b_scale.data_as<float>();
  float* o = out.data_as<float>();
  const EpilogueBias epilogue_bias = EpilogueBias::of(bias);
  parallel_for(m, row_grain(n), [&](int64_t rb, int64_t re) {
    for (int64_t i = rb; i < re; ++i) {
      float* row = o + i * n;
      const int32_t* acc_row = acc.data() + i * n;
      for (int64_t j = 0; j < n; ++j) row[j] = static_cast<float>(acc_row[j]) / (bs[j] * as[i]);
      apply_epilogue(row, 1, n, epilogue_bias, activation, /*parallel=*/false);
    }
  });
}

}  // namespace keras::cpu
