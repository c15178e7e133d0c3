#pragma once
// The binary float32 ops that this backend runs as explicit vector loops, one version per
// instruction set: add, subtract, multiply, divide (each one correctly rounded IEEE operation,
// so every instruction set gives the same bits as the scalar loop) and maximum/minimum (NaN
// propagating selects, which GCC leaves as branches elsewhere). The generic binary loops are
// compiled for the baseline (SSE2) only; these carry the float32 binary primitives on dense or
// scalar operands, and the steps of fused elementwise chains (an optimizer's update), at the
// machine's vector width.

#include <cstdint>

#include "keras/backend/primitives.h"

namespace keras::cpu {

/// True for the ops float_binary_rows computes.
constexpr bool has_float_binary_rows(backend::BinaryOp op) {
  using B = backend::BinaryOp;
  return op == B::Add || op == B::Sub || op == B::Mul || op == B::Div || op == B::Maximum ||
         op == B::Minimum;
}

/// out[i] = op(a[i * a_step], b[i * b_step]) for i < n, where each step is 1 (contiguous) or 0
/// (a broadcast scalar); vectorized for isa(). `out` may be `a` or `b` (the same address) but
/// must not otherwise overlap them. `op` must satisfy has_float_binary_rows.
void float_binary_rows(backend::BinaryOp op, float* out, const float* a, int64_t a_step,
                       const float* b, int64_t b_step, int64_t n);

}  // namespace keras::cpu
