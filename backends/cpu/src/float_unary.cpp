#include "float_unary.h"

#include <cmath>

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

// The loop per op, compiled into each version below (for its instruction set). relu,
// leaky_relu and clip as backend/elementwise_math.h writes them, selects arranged so that a NaN
// input comes out as NaN: clip's nan_max(x, a) is x <= a ? a : x, its nan_min(y, b) is
// y >= b ? b : y, the same values for every non-NaN x.
[[gnu::always_inline]] inline void rows(UnaryOp op, float* out, const float* in, int64_t n, float a,
                                        float b) {
  namespace m = backend::fmath;
  switch (op) {
    case UnaryOp::Relu:
      return map_rows(out, in, n, [](float x) { return x <= 0 ? 0.0f : x; });
    case UnaryOp::LeakyRelu:
      return map_rows(out, in, n, [a](float x) { return x > 0 ? x : a * x; });
    case UnaryOp::Clip:
      return map_rows(out, in, n, [a, b](float x) {
        const float y = x <= a ? a : x;
        return y >= b ? b : y;
      });
    case UnaryOp::Sigmoid:
      return map_rows(out, in, n, [](float x) { return m::sigmoid(x); });
    case UnaryOp::Tanh:
      return map_rows(out, in, n, [](float x) { return m::tanh(x); });
    case UnaryOp::Silu:
      return map_rows(out, in, n, [](float x) { return m::silu(x); });
    case UnaryOp::GeluTanh:
      return map_rows(out, in, n, [](float x) { return m::gelu_tanh(x); });
    case UnaryOp::Neg:
      return map_rows(out, in, n, [](float x) { return -x; });
    case UnaryOp::Abs:
      return map_rows(out, in, n, [](float x) { return std::abs(x); });
    case UnaryOp::Square:
      return map_rows(out, in, n, [](float x) { return x * x; });
    case UnaryOp::Sqrt:
      return map_rows(out, in, n, [](float x) { return std::sqrt(x); });
    case UnaryOp::Reciprocal:
      return map_rows(out, in, n, [](float x) { return 1.0f / x; });
    default:
      break;
  }
}

KERAS_TARGET_AVX512 void rows_avx512(UnaryOp op, float* out, const float* in, int64_t n, float a,
                                     float b) {
  rows(op, out, in, n, a, b);
}

KERAS_TARGET_AVX2 void rows_avx2(UnaryOp op, float* out, const float* in, int64_t n, float a,
                                 float b) {
  rows(op, out, in, n, a, b);
}

void rows_baseline(UnaryOp op, float* out, const float* in, int64_t n, float a, float b) {
  rows(op, out, in, n, a, b);
}

}  // namespace

void float_unary_rows(UnaryOp op, float* out, const float* in, int64_t n, float a, float b) {
  by_isa(rows_avx512, rows_avx2, rows_baseline, op, out, in, n, a, b);
}

}  // namespace keras::cpu
