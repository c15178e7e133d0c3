// Fused dense layer: one GEMM, then bias and activation in the same pass over the output.

#include <algorithm>
#include <cmath>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "scalar_math.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

template <typename C>
inline C activate(C v, backend::Activation act) {
  switch (act) {
    case backend::Activation::Relu:
      return v <= C(0) ? C(0) : v;  // NaN propagates, as max(x, 0)
    case backend::Activation::Sigmoid:
      return math::sigmoid(v);
    case backend::Activation::Tanh:
      return std::tanh(v);
    case backend::Activation::Gelu:
      return math::gelu(v);
    case backend::Activation::Silu:
      return v * math::sigmoid(v);
    case backend::Activation::None:
      break;
  }
  return v;
}

// Bias and activation over one row. ACT is a template argument so the loop has no branch
// per element and vectorizes for None and Relu.
template <typename T, backend::Activation ACT>
void epilogue_row(T* row, const char* bias, int64_t bias_stride, int64_t n) {
  using C = compute_t<T>;
  for (int64_t j = 0; j < n; ++j) {
    C v = convert<C>(row[j]);
    if (bias) v += convert<C>(*reinterpret_cast<const T*>(bias + j * bias_stride));
    row[j] = convert<T>(activate(v, ACT));
  }
}

template <typename T, backend::Activation ACT>
void epilogue_rows(const Array& out, const Array& bias) {
  const int64_t M = out.shape[0], N = out.shape[1];
  T* o = out.data_as<T>();
  const char* bb = bias.storage ? static_cast<const char*>(bias.data()) : nullptr;
  const int64_t bs = bb ? bias.strides[0] * static_cast<int64_t>(sizeof(T)) : 0;
  parallel_for(M, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(N, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t i = b; i < e; ++i) epilogue_row<T, ACT>(o + i * N, bb, bs, N);
               });
}

template <typename T>
void epilogue(const Array& out, const Array& bias, backend::Activation act) {
  using backend::Activation;
  if (!bias.storage && act == Activation::None) return;
  switch (act) {
    case Activation::None:
      return epilogue_rows<T, Activation::None>(out, bias);
    case Activation::Relu:
      return epilogue_rows<T, Activation::Relu>(out, bias);
    case Activation::Sigmoid:
      return epilogue_rows<T, Activation::Sigmoid>(out, bias);
    case Activation::Tanh:
      return epilogue_rows<T, Activation::Tanh>(out, bias);
    case Activation::Gelu:
      return epilogue_rows<T, Activation::Gelu>(out, bias);
    case Activation::Silu:
      return epilogue_rows<T, Activation::Silu>(out, bias);
  }
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
