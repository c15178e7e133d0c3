#pragma once
// The unary float ops that this backend runs as explicit vector loops, one version per
// instruction set: sigmoid, tanh, silu and gelu_tanh through the branchless functions of
// backend/float_math.h (libm would run them one element at a time), relu, leaky_relu and
// clip, whose NaN-propagating selects GCC leaves as branches elsewhere (MobileNet's ReLU6 was a
// quarter of its inference), and the exact ones (negative, abs, square, sqrt, reciprocal: one
// correctly rounded operation each), which the generic loops run at the baseline's width only. exp
// itself keeps libm's correctly rounded values: formulas written on ops::exp (Gaussian kernels,
// say) stay as close to NumPy's as they were (the elastic transform's Keras oracle: twice as
// close). Every float32, float16 and bfloat16 value of these ops on this backend comes from
// float_unary_rows (the unary primitives, the fused chains and the bias-and-activation
// epilogues of dense and convolution layers), with the values of backend/elementwise_math.h,
// so a fused layer gives the same bits as its ops, on every instruction set (the file is
// compiled without FMA contraction).

#include <cstdint>

#include "keras/backend/primitives.h"

namespace keras::cpu {

/// True for the ops float_unary_rows computes with parameters a and b (leaky_relu's slope,
/// clip's bounds, which must not be NaN).
constexpr bool has_float_unary_rows(backend::UnaryOp op, float a = 0, float b = 0) {
  using U = backend::UnaryOp;
  if (op == U::Clip) return a == a && b == b;
  return op == U::Sigmoid || op == U::Tanh || op == U::Silu || op == U::GeluTanh || op == U::Relu ||
         op == U::LeakyRelu || op == U::Neg || op == U::Abs || op == U::Square || op == U::Sqrt ||
         op == U::Reciprocal;
}

/// out[i] = op(in[i]) for i < n, contiguous floats (out may be in); vectorized for isa().
/// `op` with a and b must satisfy has_float_unary_rows.
void float_unary_rows(backend::UnaryOp op, float* out, const float* in, int64_t n, float a = 0,
                      float b = 0);

}  // namespace keras::cpu
