// Elementwise functions of one input.

#include <algorithm>
#include <cmath>
#include <string>

#include "backend/elementwise_math.h"
#include "cpu_backend.h"
#include "dtype_traits.h"
#include "elementwise_loops.h"
#include "float_unary.h"
#include "keras/core/errors.h"
#include "loops.h"

namespace keras::cpu {
namespace {

using backend::UnaryOp;

// out[i] = f(x[i]) with storage types O and T; f works on compute types.
template <typename O, typename T, typename F>
void map_unary(const StridedLoop<2>& loop, F f) {
  using C = compute_t<T>;
  run_loop(loop, [f](char** p, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(O) && s[1] == sizeof(T)) {
      O* o = reinterpret_cast<O*>(p[0]);
      const T* x = reinterpret_cast<const T*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = convert<O>(f(convert<C>(x[i])));
    } else {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<O*>(p[0] + i * s[0]) =
            convert<O>(f(convert<C>(*reinterpret_cast<const T*>(p[1] + i * s[1]))));
    }
  });
}

[[noreturn]] void bad_dtype(UnaryOp op, DType t) {
  throw NotImplementedError("cpu backend: unary " + std::string(backend::name_of(op)) +
                            " is not defined for " + std::string(dtype_name(t)));
}

// The ops of float_unary_rows on a float storage type T: contiguous float32 directly, other
// layouts and types through a float buffer, so that every value comes from the same function.
template <typename T>
void map_float_unary_rows(UnaryOp op, const StridedLoop<2>& loop, float a, float b) {
  run_loop(loop, [op, a, b](char** p, const int64_t* s, int64_t n) {
    if constexpr (std::is_same_v<T, float>) {
      if (s[0] == sizeof(float) && s[1] == sizeof(float))
        return float_unary_rows(op, reinterpret_cast<float*>(p[0]),
                                reinterpret_cast<const float*>(p[1]), n, a, b);
    }
    constexpr int64_t kChunk = 256;
    float buf[kChunk];
    for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
      const int64_t m = std::min(kChunk, n - i0);
      for (int64_t k = 0; k < m; ++k)
        buf[k] = convert<float>(*reinterpret_cast<const T*>(p[1] + (i0 + k) * s[1]));
      float_unary_rows(op, buf, buf, m, a, b);
      for (int64_t k = 0; k < m; ++k)
        *reinterpret_cast<T*>(p[0] + (i0 + k) * s[0]) = convert<T>(buf[k]);
    }
  });
}

// Each op's value comes from backend/elementwise_math.h, instantiated per op inside the loop
// (float_unary_rows' ops on types computed in float excepted).
template <typename T>
void unary_float(UnaryOp op, const StridedLoop<2>& loop, double p0, double p1) {
  using C = compute_t<T>;
  const C a = static_cast<C>(p0), b = static_cast<C>(p1);
  if constexpr (std::is_same_v<C, float>) {
    if (has_float_unary_rows(op, a, b)) return map_float_unary_rows<T>(op, loop, a, b);
  }
  if (!backend::math::defined_for_floats(op)) bad_dtype(op, dtype_v<T>);
  backend::math::visit(op, [&](auto tag) {
    constexpr UnaryOp kOp = decltype(tag)::value;
    if constexpr (backend::math::defined_for_floats(kOp)) {
      using R = decltype(backend::math::unary_float<kOp>(C{}, C{}, C{}));
      using O = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
      map_unary<O, T>(loop, [a, b](C x) { return backend::math::unary_float<kOp>(x, a, b); });
    }
  });
}

template <typename T>
void unary_integer(UnaryOp op, const StridedLoop<2>& loop, double p0, double p1) {
  if (!backend::math::defined_for_integers(op)) bad_dtype(op, dtype_v<T>);
  // Clip's bounds were checked to fit T by the front end.
  const T lo = static_cast<T>(p0), hi = static_cast<T>(p1);
  backend::math::visit(op, [&](auto tag) {
    constexpr UnaryOp kOp = decltype(tag)::value;
    if constexpr (backend::math::defined_for_integers(kOp)) {
      using R = decltype(backend::math::unary_integer<kOp>(T{}, T{}, T{}));
      using O = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
      map_unary<O, T>(loop, [lo, hi](T x) { return backend::math::unary_integer<kOp>(x, lo, hi); });
    }
  });
}

void unary_bool(UnaryOp op, const StridedLoop<2>& loop) {
  if (!backend::math::defined_for_bool(op)) bad_dtype(op, DType::Bool);
  backend::math::visit(op, [&](auto tag) {
    constexpr UnaryOp kOp = decltype(tag)::value;
    if constexpr (backend::math::defined_for_bool(kOp))
      map_unary<bool, bool>(loop, [](bool x) { return backend::math::unary_bool<kOp>(x); });
  });
}

}  // namespace

void unary_on_loop(UnaryOp op, DType x_dtype, const StridedLoop<2>& loop, double p0, double p1) {
  visit_dtype(x_dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      unary_bool(op, loop);
    } else if constexpr (std::is_integral_v<T>) {
      unary_integer<T>(op, loop, p0, p1);
    } else {
      unary_float<T>(op, loop, p0, p1);
    }
  });
}

void CpuBackend::unary(UnaryOp op, const Array& out, const Array& x, double p0, double p1) {
  unary_on_loop(op, x.dtype, make_loop<2>(out.shape, {&out, &x}), p0, p1);
}

}  // namespace keras::cpu
