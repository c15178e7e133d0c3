// Fused dense layer: one GEMM, then bias and activation in the same pass over the output.

#include "cpu_backend.h"
#include "epilogue.h"

namespace keras::cpu {

void CpuBackend::linear(const Array& out, const Array& x, const Array& w, const Array& bias,
                        backend::Activation activation) {
  matmul(out, x, w);
  visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_float_v<T>) {
      // out is a fresh contiguous (M, N) array.
      apply_epilogue<T>(out.data_as<T>(), out.shape[0], out.shape[1], EpilogueBias::of(bias),
                        activation);
    } else {
      unsupported("linear on integer tensors (the front end casts to float)");
    }
  });
}

}  // namespace keras::cpu
