#include "float_unary.h"

#include "backend/float_math.h"
#include "isa.h"

namespace keras::cpu {
namespace {

using backend::UnaryOp;

template <typename F>
[[gnu::always_inline]] inline void map_rows(float* out, const float* in, int64_t n, F f) {
  // out == in is the only overlap callers pass (distance 0: no dependence between iterations).
#pragma GCC ivdep
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
}

// The loop per op, compiled into each version below (for its instruction set).
[[gnu::always_inline]] inline void rows(UnaryOp op, float* out, const float* in, int64_t n) {
  namespace m = backend::fmath;
  switch (op) {
    case UnaryOp::Sigmoid:
      return map_rows(out, in, n, [](float x) { return m::sigmoid(x); });
    case UnaryOp::Tanh:
      return map_rows(out, in, n, [](float x) { return m::tanh(x); });
    case UnaryOp::Silu:
      return map_rows(out, in, n, [](float x) { return m::silu(x); });
    case UnaryOp::GeluTanh:
      return map_rows(out, in, n, [](float x) { return m::gelu_tanh(x); });
    default:
      break;
  }
}

KERAS_TARGET_AVX512 void rows_avx512(UnaryOp op, float* out, const float* in, int64_t n) {
  rows(op, out, in, n);
}

KERAS_TARGET_AVX2 void rows_avx2(UnaryOp op, float* out, const float* in, int64_t n) {
  rows(op, out, in, n);
}

void rows_baseline(UnaryOp op, float* out, const float* in, int64_t n) {
  rows(op, out, in, n);
}

}  // namespace

void float_unary_rows(UnaryOp op, float* out, const float* in, int64_t n) {
  by_isa(rows_avx512, rows_avx2, rows_baseline, op, out, in, n);
}

}  // namespace keras::cpu
