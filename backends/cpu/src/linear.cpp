// Fused dense layer: one GEMM, then bias and activation in the same pass over the output.

#include <cmath>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "scalar_math.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

template <typename T>
void epilogue(const Array& out, const Array& bias, backend::Activation act) {
  using C = compute_t<T>;
  const int64_t M = out.shape[0], N = out.shape[1];
  T* o = out.data_as<T>();
  const bool has_bias = static_cast<bool>(bias.storage);
  const char* bb = has_bias ? static_cast<const char*>(bias.data()) : nullptr;
  const int64_t bs = has_bias ? bias.strides[0] * static_cast<int64_t>(sizeof(T)) : 0;
  parallel_for(M, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(N, 1)),
               [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      T* row = o + i * N;
      for (int64_t j = 0; j < N; ++j) {
        C v = convert<C>(row[j]);
        if (has_bias) v += convert<C>(*reinterpret_cast<const T*>(bb + j * bs));
        switch (act) {
          case backend::Activation::Relu: v = v > 0 ? v : C(0); break;
          case backend::Activation::Sigmoid: v = math::sigmoid(v); break;
          case backend::Activation::Tanh: v = std::tanh(v); break;
          case backend::Activation::Gelu: v = math::gelu(v); break;
          case backend::Activation::Silu: v = v * math::sigmoid(v); break;
          case backend::Activation::None: break;
        }
        row[j] = convert<T>(v);
      }
    }
  });
}

}  // namespace

void CpuBackend::linear(const Array& out, const Array& x, const Array& w, const Array& bias,
                        backend::Activation activation) {
  matmul(out, x, w);
  visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_float_v<T>) {
      epilogue<T>(out, bias, activation);
    } else {
      unsupported("linear on integer tensors (the front end casts to float)");
    }
  });
}

}  // namespace keras::cpu
