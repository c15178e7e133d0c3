// Which fused kernels the cpu backend has, and the factory the registry calls.

#include <memory>

#include "cpu_backend.h"

namespace keras::cpu {

bool CpuBackend::supports(backend::Capability cap) const {
  switch (cap) {
    case backend::Capability::Conv:
    case backend::Capability::Pool:
    case backend::Capability::Softmax:
    case backend::Capability::Linear:
    case backend::Capability::Linalg:
    case backend::Capability::Epilogue:
    case backend::Capability::ConvPool:
    case backend::Capability::Elementwise:
    case backend::Capability::QuantizedMatmul:
    case backend::Capability::Int4Matmul:
      return true;
    default:
      return false;
  }
}

}  // namespace keras::cpu

namespace keras::backend::detail {

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<cpu::CpuBackend>(); }

}  // namespace keras::backend::detail
