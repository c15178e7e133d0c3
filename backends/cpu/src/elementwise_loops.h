#pragma once
// The elementwise primitives on a loop that is already built (loops.h): CpuBackend's unary,
// binary, where and copy are make_loop followed by these, and a fused chain
// (elementwise_chain.cpp) calls them on its registers' blocks directly, without array views or
// make_loop, so that both compute every value with the same code.

#include <cstdint>

#include "keras/backend/primitives.h"
#include "loops.h"

namespace keras::cpu {

/// out = op(x, p0, p1): operand 0 the output, 1 the input of dtype `x_dtype`.
void unary_on_loop(backend::UnaryOp op, DType x_dtype, const StridedLoop<2>& loop, double p0,
                   double p1);
/// out = op(a, b): operands out, a, b; a and b of `dtype` (comparisons write bool).
void binary_on_loop(backend::BinaryOp op, DType dtype, const StridedLoop<3>& loop);
/// out = cond ? a : b: operands out, cond (bool), a, b; out, a and b of `dtype`.
void where_on_loop(DType dtype, const StridedLoop<4>& loop);
/// dst = src converted (or dst += src for `accumulate`): operands dst, src. `grain` is the
/// elements per task (INT64_MAX: one thread, for a destination that overlaps itself).
void copy_on_loop(DType to, DType from, const StridedLoop<2>& loop, bool accumulate, int64_t grain);

}  // namespace keras::cpu
