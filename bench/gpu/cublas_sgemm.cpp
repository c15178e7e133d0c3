#include "gpu/cublas_sgemm.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace bench {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(s));
}

float* device_copy(const float* host, int64_t count) {
  float* p = nullptr;
  const size_t bytes = static_cast<size_t>(count) * sizeof(float);
  check(cudaMalloc(reinterpret_cast<void**>(&p), bytes), "cudaMalloc");
  if (host) check(cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  return p;
}

}  // namespace

CublasSgemm::CublasSgemm(int device, int64_t m, int64_t k, int64_t n, const float* a,
                         const float* b)
    : device_(device), m_(m), k_(k), n_(n) {
  check(cudaSetDevice(device_), "cudaSetDevice");
  a_ = device_copy(a, m * k);
  b_ = device_copy(b, k * n);
  c_ = device_copy(nullptr, m * n);
  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  handle_ = h;
  check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
}

CublasSgemm::~CublasSgemm() {
  cudaSetDevice(device_);
  if (handle_) cublasDestroy(static_cast<cublasHandle_t>(handle_));
  cudaFree(a_);
  cudaFree(b_);
  cudaFree(c_);
}

void CublasSgemm::run() {
  check(cudaSetDevice(device_), "cudaSetDevice");
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A B is column-major C^T = B^T A^T: the operands swap, no transposes.
  check(
      cublasSgemm(static_cast<cublasHandle_t>(handle_), CUBLAS_OP_N, CUBLAS_OP_N,
                  static_cast<int>(n_), static_cast<int>(m_), static_cast<int>(k_), &one, b_,
                  static_cast<int>(n_), a_, static_cast<int>(k_), &zero, c_, static_cast<int>(n_)),
      "cublasSgemm");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

}  // namespace bench
