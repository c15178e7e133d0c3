#pragma once
// cuBLAS called directly: the peer of the cuda backend's products in the GEMM workload of
// bench_keras_gpu (issue 22's "GEMM >= 90% of cuBLAS called directly").

#include <cstdint>

namespace bench {

/// C (m, n) = A (m, k) B (k, n), row-major float32 operands copied once to `device`, computed
/// by cublasSgemm in its default math (FP32, no TF32: what the cuda backend asks for).
class CublasSgemm {
 public:
  CublasSgemm(int device, int64_t m, int64_t k, int64_t n, const float* a, const float* b);
  ~CublasSgemm();
  CublasSgemm(const CublasSgemm&) = delete;
  CublasSgemm& operator=(const CublasSgemm&) = delete;

  /// One product, waiting for the device to finish it.
  void run();

 private:
  int device_;
  int64_t m_, k_, n_;
  float *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
  void* handle_ = nullptr;  // cublasHandle_t, kept out of this header
};

}  // namespace bench
