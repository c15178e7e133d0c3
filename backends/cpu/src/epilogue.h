#pragma once
// The bias-and-activation epilogue shared by the fused dense (linear.cpp) and convolution
// (conv.cpp) kernels: each output row gets + bias and the activation, with the same scalar
// functions as the unary primitives, so a fused layer gives the same numbers as its ops.

#include <algorithm>
#include <cmath>

#include "backend/scalar_math.h"
#include "dtype_traits.h"
#include "float_unary.h"
#include "keras/backend/backend.h"
#include "thread_pool.h"

namespace keras::cpu {

template <typename C>
inline C activate(C v, backend::Activation act) {
  switch (act) {
    case backend::Activation::Relu:
      return v <= C(0) ? C(0) : v;  // NaN propagates, as max(x, 0)
    case backend::Activation::Sigmoid:
      return backend::math::sigmoid(v);
    case backend::Activation::Tanh:
      return std::tanh(v);
    case backend::Activation::Gelu:
      return backend::math::gelu(v);
    case backend::Activation::Silu:
      return v * backend::math::sigmoid(v);
    case backend::Activation::Relu6: {  // clip's selects: NaN propagates
      const C y = v <= C(0) ? C(0) : v;
      return y >= C(6) ? C(6) : y;
    }
    case backend::Activation::None:
      break;
  }
  return v;
}

/// The bias of an epilogue: `data` (type T, `stride` bytes apart), or none.
struct EpilogueBias {
  const char* data = nullptr;
  int64_t stride = 0;

  static EpilogueBias of(const backend::Array& bias) {
    if (!bias.storage) return {};
    return {static_cast<const char*>(bias.data()),
            bias.strides[0] * static_cast<int64_t>(itemsize(bias.dtype))};
  }
};

/// The unary op of float_unary_rows that computes activation `act` (sigmoid, tanh, silu; relu6
/// as clip from kRelu6Low to kRelu6High), or UnaryOp::kCount (none: ReLU has its own loops, GELU
/// is erfc's).
constexpr backend::UnaryOp float_rows_op(backend::Activation act) {
  switch (act) {
    case backend::Activation::Relu6:
      return backend::UnaryOp::Clip;
    case backend::Activation::Sigmoid:
      return backend::UnaryOp::Sigmoid;
    case backend::Activation::Tanh:
      return backend::UnaryOp::Tanh;
    case backend::Activation::Silu:
      return backend::UnaryOp::Silu;
    default:
      return backend::UnaryOp::kCount;
  }
}

/// Clip's bounds for Relu6 (float_unary_rows' a and b; unused by the other ops).
inline constexpr float kRelu6Low = 0, kRelu6High = 6;

// Bias and activation over one row of n values. ACT is a template argument so the loop has no
// branch per element and vectorizes for None and Relu. Types computed in float take sigmoid,
// tanh, silu and relu6 from float_unary_rows, as the unary primitives do.
template <typename T, backend::Activation ACT>
void epilogue_row(T* row, EpilogueBias bias, int64_t n) {
  using C = compute_t<T>;
  constexpr backend::UnaryOp kRowsOp = float_rows_op(ACT);
  if constexpr (std::is_same_v<C, float> && has_float_unary_rows(kRowsOp, kRelu6Low, kRelu6High)) {
    constexpr int64_t kChunk = 256;
    float buf[kChunk];
    for (int64_t j0 = 0; j0 < n; j0 += kChunk) {
      const int64_t m = std::min(kChunk, n - j0);
      for (int64_t k = 0; k < m; ++k) {
        buf[k] = convert<float>(row[j0 + k]);
        if (bias.data)
          buf[k] += convert<float>(*reinterpret_cast<const T*>(bias.data + (j0 + k) * bias.stride));
      }
      float_unary_rows(kRowsOp, buf, buf, m, kRelu6Low, kRelu6High);
      for (int64_t k = 0; k < m; ++k) row[j0 + k] = convert<T>(buf[k]);
    }
    return;
  }
  for (int64_t j = 0; j < n; ++j) {
    C v = convert<C>(row[j]);
    if (bias.data) v += convert<C>(*reinterpret_cast<const T*>(bias.data + j * bias.stride));
    row[j] = convert<T>(activate(v, ACT));
  }
}

/// The common case, ReLU after a contiguous float32 bias (or none), compiled for AVX-512 and
/// AVX2 as well (epilogue.cpp); the same arithmetic as epilogue_row.
void bias_relu_rows_f32(float* rows, int64_t count, int64_t n, const float* bias);

template <typename T, backend::Activation ACT>
void epilogue_rows(T* rows, int64_t count, int64_t n, EpilogueBias bias, bool parallel) {
  auto run = [&](int64_t b, int64_t e) {
    if constexpr (std::is_same_v<T, float> && ACT == backend::Activation::Relu) {
      if (!bias.data || bias.stride == sizeof(float))
        return bias_relu_rows_f32(rows + b * n, e - b, n,
                                  reinterpret_cast<const float*>(bias.data));
    }
    if constexpr (std::is_same_v<T, float> &&
                  has_float_unary_rows(float_rows_op(ACT), kRelu6Low, kRelu6High)) {
      // The rows are contiguous: the bias row by row, then the activation over all of them in
      // one call (rows of a few channels each would be short vector loops).
      float* first = rows + b * n;
      if (bias.data)
        for (int64_t i = b; i < e; ++i) {
          float* row = rows + i * n;
          for (int64_t j = 0; j < n; ++j)
            row[j] += *reinterpret_cast<const float*>(bias.data + j * bias.stride);
        }
      return float_unary_rows(float_rows_op(ACT), first, first, (e - b) * n, kRelu6Low, kRelu6High);
    }
    for (int64_t i = b; i < e; ++i) epilogue_row<T, ACT>(rows + i * n, bias, n);
  };
  if (parallel)
    parallel_for(count, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n, 1)), run);
  else
    run(0, count);
}

/// rows (count, n), contiguous, = activation(rows + bias) in place; over the thread pool when
/// `parallel` (callers already inside a pool task pass false).
template <typename T>
void apply_epilogue(T* rows, int64_t count, int64_t n, EpilogueBias bias,
                    backend::Activation act, bool parallel = true) {
  using backend::Activation;
  if (!bias.data && act == Activation::None) return;
  switch (act) {
    case Activation::None:
      return epilogue_rows<T, Activation::None>(rows, count, n, bias, parallel);
    case Activation::Relu:
      return epilogue_rows<T, Activation::Relu>(rows, count, n, bias, parallel);
    case Activation::Sigmoid:
      return epilogue_rows<T, Activation::Sigmoid>(rows, count, n, bias, parallel);
    case Activation::Tanh:
      return epilogue_rows<T, Activation::Tanh>(rows, count, n, bias, parallel);
    case Activation::Gelu:
      return epilogue_rows<T, Activation::Gelu>(rows, count, n, bias, parallel);
    case Activation::Silu:
      return epilogue_rows<T, Activation::Silu>(rows, count, n, bias, parallel);
    case Activation::Relu6:
      return epilogue_rows<T, Activation::Relu6>(rows, count, n, bias, parallel);
  }
}

}  // namespace keras::cpu
