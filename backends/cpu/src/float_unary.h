#pragma once
// The unary float ops whose float32 values come from the branchless functions of
// backend/float_math.h instead of libm: sigmoid, tanh, silu and gelu_tanh, the activations
// (EfficientNet's swish, LSTM's gates) that libm would run one element at a time. exp itself
// keeps libm's correctly rounded values: formulas written on ops::exp (Gaussian kernels, say)
// stay as close to NumPy's as they were (the elastic transform's Keras oracle: twice as close).
// Every float32, float16 and bfloat16 value of these ops on this backend comes from
// float_unary_rows (the unary primitives, the fused chains and the bias-and-activation
// epilogues of dense and convolution layers), so a fused layer gives the same bits as its ops,
// on every instruction set (the file is compiled without FMA contraction).

#include <cstdint>

#include "keras/backend/primitives.h"

namespace keras::cpu {

/// True for the ops float_unary_rows computes.
constexpr bool has_float_unary_rows(backend::UnaryOp op) {
  using U = backend::UnaryOp;
  return op == U::Sigmoid || op == U::Tanh || op == U::Silu || op == U::GeluTanh;
}

/// out[i] = op(in[i]) for i < n, contiguous floats (out may be in); vectorized for isa().
/// `op` must satisfy has_float_unary_rows.
void float_unary_rows(backend::UnaryOp op, float* out, const float* in, int64_t n);

}  // namespace keras::cpu
