#include "float_binary.h"

#include "isa.h"

namespace keras::cpu {
namespace {

using backend::BinaryOp;

// One loop per operand form, so that each vectorizes without a stride test inside it.
template <typename F>
[[gnu::always_inline]] inline void map_rows(float* out, const float* a, int64_t a_step,
                                            const float* b, int64_t b_step, int64_t n, F f) {
  // out == a or out == b is the only overlap callers pass (distance 0: no dependence).
  if (a_step && b_step) {
#pragma GCC ivdep
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
  } else if (a_step) {
    const float y = *b;
#pragma GCC ivdep
    for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], y);
  } else if (b_step) {
    const float x = *a;
#pragma GCC ivdep
    for (int64_t i = 0; i < n; ++i) out[i] = f(x, b[i]);
  } else {
    const float v = f(*a, *b);
    for (int64_t i = 0; i < n; ++i) out[i] = v;
  }
}

// maximum and minimum as backend/scalar_math.h's nan_max/nan_min (a NaN operand wins, x first),
// written as selects so that they vectorize: a comparison with a NaN y is false, which picks y.
[[gnu::always_inline]] inline float nan_max(float x, float y) {
  const float m = x > y ? x : y;
  return x != x ? x : m;
}
[[gnu::always_inline]] inline float nan_min(float x, float y) {
  const float m = x < y ? x : y;
  return x != x ? x : m;
}

[[gnu::always_inline]] inline void rows(BinaryOp op, float* out, const float* a, int64_t sa,
                                        const float* b, int64_t sb, int64_t n) {
  switch (op) {
    case BinaryOp::Add:
      return map_rows(out, a, sa, b, sb, n, [](float x, float y) { return x + y; });
    case BinaryOp::Sub:
      return map_rows(out, a, sa, b, sb, n, [](float x, float y) { return x - y; });
    case BinaryOp::Mul:
      return map_rows(out, a, sa, b, sb, n, [](float x, float y) { return x * y; });
    case BinaryOp::Div:
      return map_rows(out, a, sa, b, sb, n, [](float x, float y) { return x / y; });
    case BinaryOp::Maximum:
      return map_rows(out, a, sa, b, sb, n, nan_max);
    case BinaryOp::Minimum:
      return map_rows(out, a, sa, b, sb, n, nan_min);
    default:
      break;
  }
}

KERAS_TARGET_AVX512 void rows_avx512(BinaryOp op, float* out, const float* a, int64_t sa,
                                     const float* b, int64_t sb, int64_t n) {
  rows(op, out, a, sa, b, sb, n);
}

KERAS_TARGET_AVX2 void rows_avx2(BinaryOp op, float* out, const float* a, int64_t sa,
                                 const float* b, int64_t sb, int64_t n) {
  rows(op, out, a, sa, b, sb, n);
}

void rows_baseline(BinaryOp op, float* out, const float* a, int64_t sa, const float* b, int64_t sb,
                   int64_t n) {
  rows(op, out, a, sa, b, sb, n);
}

}  // namespace

void float_binary_rows(BinaryOp op, float* out, const float* a, int64_t a_step, const float* b,
                       int64_t b_step, int64_t n) {
  by_isa(rows_avx512, rows_avx2, rows_baseline, op, out, a, a_step, b, b_step, n);
}

}  // namespace keras::cpu
