// Elementwise functions of two inputs, and where().

#include <cmath>
#include <cstdint>
#include <string>

#include "backend/elementwise_math.h"
#include "cpu_backend.h"
#include "dtype_traits.h"
#include "elementwise_loops.h"
#include "float_binary.h"
#include "keras/core/errors.h"
#include "loops.h"

namespace keras::cpu {
namespace {

using backend::BinaryOp;

// out[i] = f(a[i], b[i]) over one run of a strided loop; fast paths for dense operands and for
// a broadcast scalar operand.
template <typename O, typename T, typename F>
void map_binary_run(F f, char** p, const int64_t* s, int64_t n) {
  using C = compute_t<T>;
  O* o = reinterpret_cast<O*>(p[0]);
  const T* a = reinterpret_cast<const T*>(p[1]);
  const T* b = reinterpret_cast<const T*>(p[2]);
  if (s[0] == sizeof(O)) {
    if (s[1] == sizeof(T) && s[2] == sizeof(T)) {
      for (int64_t i = 0; i < n; ++i) o[i] = convert<O>(f(convert<C>(a[i]), convert<C>(b[i])));
      return;
    }
    if (s[1] == sizeof(T) && s[2] == 0) {
      const C bv = convert<C>(*b);
      for (int64_t i = 0; i < n; ++i) o[i] = convert<O>(f(convert<C>(a[i]), bv));
      return;
    }
    if (s[1] == 0 && s[2] == sizeof(T)) {
      const C av = convert<C>(*a);
      for (int64_t i = 0; i < n; ++i) o[i] = convert<O>(f(av, convert<C>(b[i])));
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<O*>(p[0] + i * s[0]) =
        convert<O>(f(convert<C>(*reinterpret_cast<const T*>(p[1] + i * s[1])),
                     convert<C>(*reinterpret_cast<const T*>(p[2] + i * s[2]))));
}

template <typename O, typename T, typename F>
void map_binary(const StridedLoop<3>& loop, F f) {
  run_loop(loop, [f](char** p, const int64_t* s, int64_t n) { map_binary_run<O, T>(f, p, s, n); });
}

// True when a row of n floats at `out` and the operand at `in` (n floats, or one with step 0)
// are the same memory or apart: float_binary_rows' condition.
bool same_or_apart(const char* out, const char* in, int64_t step, int64_t n) {
  const auto o = reinterpret_cast<uintptr_t>(out), i = reinterpret_cast<uintptr_t>(in);
  const auto out_bytes = sizeof(float) * static_cast<uintptr_t>(n);
  const auto in_bytes = sizeof(float) * static_cast<uintptr_t>(step ? n : 1);
  return o == i || o + out_bytes <= i || i + in_bytes <= o;
}

// The float32 ops of float_binary_rows, whose vector loops run rows with dense or broadcast
// operands; other layouts take map_binary's loops (the same values).
void map_float_binary_rows(BinaryOp op, const StridedLoop<3>& loop) {
  run_loop(loop, [op](char** p, const int64_t* s, int64_t n) {
    constexpr int64_t f = sizeof(float);
    if (s[0] == f && (s[1] == f || s[1] == 0) && (s[2] == f || s[2] == 0) &&
        same_or_apart(p[0], p[1], s[1], n) && same_or_apart(p[0], p[2], s[2], n))
      return float_binary_rows(op, reinterpret_cast<float*>(p[0]),
                               reinterpret_cast<const float*>(p[1]), s[1] / f,
                               reinterpret_cast<const float*>(p[2]), s[2] / f, n);
    backend::math::visit(op, [&](auto tag) {
      constexpr BinaryOp kOp = decltype(tag)::value;
      if constexpr (has_float_binary_rows(kOp))
        map_binary_run<float, float>(
            [](float x, float y) { return backend::math::binary_float<kOp>(x, y); }, p, s, n);
    });
  });
}

[[noreturn]] void bad_dtype(BinaryOp op, DType t) {
  throw NotImplementedError("cpu backend: binary " + std::string(backend::name_of(op)) +
                            " is not defined for " + std::string(dtype_name(t)));
}

// Each op's value comes from backend/elementwise_math.h, instantiated per op inside the loop;
// comparisons and the logical ops write bool.
template <typename T>
void binary_float(BinaryOp op, const StridedLoop<3>& loop) {
  using C = compute_t<T>;
  if (!backend::math::defined_for_floats(op)) bad_dtype(op, dtype_v<T>);
  if constexpr (is_half_v<T>) {
    if (op == BinaryOp::NextAfter) {
      // In the storage precision: float16 steps by float16 ulps.
      return map_binary<T, T>(loop, [](C x, C y) {
        T h(x);
        if (std::isnan(x) || std::isnan(y)) return x + y;
        if (x == y) return y;
        uint16_t bits = h.bits;
        if (x == 0) return std::copysign(static_cast<C>(T::from_bits(1)), y);
        bool up = (y > x) == (x > 0);
        bits = static_cast<uint16_t>(up ? bits + 1 : bits - 1);
        return static_cast<C>(T::from_bits(bits));
      });
    }
  }
  if constexpr (std::is_same_v<T, float>) {
    if (has_float_binary_rows(op)) return map_float_binary_rows(op, loop);
  }
  backend::math::visit(op, [&](auto tag) {
    constexpr BinaryOp kOp = decltype(tag)::value;
    using O = std::conditional_t<backend::is_predicate(kOp), bool, T>;
    if constexpr (backend::math::defined_for_floats(kOp))
      map_binary<O, T>(loop, [](C x, C y) { return backend::math::binary_float<kOp>(x, y); });
  });
}

template <typename T>
void binary_integer(BinaryOp op, const StridedLoop<3>& loop) {
  if (!backend::math::defined_for_integers(op)) bad_dtype(op, dtype_v<T>);
  backend::math::visit(op, [&](auto tag) {
    constexpr BinaryOp kOp = decltype(tag)::value;
    using O = std::conditional_t<backend::is_predicate(kOp), bool, T>;
    if constexpr (backend::math::defined_for_integers(kOp))
      map_binary<O, T>(loop, [](T x, T y) { return backend::math::binary_integer<kOp>(x, y); });
  });
}

void binary_bool(BinaryOp op, const StridedLoop<3>& loop) {
  if (!backend::math::defined_for_bool(op)) bad_dtype(op, DType::Bool);
  backend::math::visit(op, [&](auto tag) {
    constexpr BinaryOp kOp = decltype(tag)::value;
    if constexpr (backend::math::defined_for_bool(kOp))
      map_binary<bool, bool>(loop, [](bool x, bool y) { return backend::math::binary_bool<kOp>(x, y); });
  });
}

}  // namespace

void binary_on_loop(BinaryOp op, DType dtype, const StridedLoop<3>& loop) {
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      binary_bool(op, loop);
    } else if constexpr (std::is_integral_v<T>) {
      binary_integer<T>(op, loop);
    } else {
      binary_float<T>(op, loop);
    }
  });
}

void CpuBackend::binary(BinaryOp op, const Array& out, const Array& a, const Array& b) {
  binary_on_loop(op, a.dtype, make_loop<3>(out.shape, {&out, &a, &b}));
}

void where_on_loop(DType dtype, const StridedLoop<4>& loop) {
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    run_loop(loop, [](char** p, const int64_t* s, int64_t n) {
      // Fast paths for a dense output and mask with each value operand dense or a broadcast
      // scalar (where(mask, x, 0) is the common gradient form). Both values are loaded before
      // the select and the mask is read as bytes: a conditional load (c ? x[i] : y) stays a
      // branch, mispredicted on every other element of a relu mask (20 ms instead of 1.3 ms
      // for 2.8M floats), and GCC finds no vector type for bool.
      constexpr int64_t t = sizeof(T);
      if (s[0] == t && s[1] == 1 && (s[2] == t || s[2] == 0) && (s[3] == t || s[3] == 0)) {
        T* o = reinterpret_cast<T*>(p[0]);
        const uint8_t* c = reinterpret_cast<const uint8_t*>(p[1]);
        const T* x = reinterpret_cast<const T*>(p[2]);
        const T* y = reinterpret_cast<const T*>(p[3]);
        if (s[2] == t && s[3] == t) {
          for (int64_t i = 0; i < n; ++i) {
            const T xi = x[i], yi = y[i];
            o[i] = c[i] ? xi : yi;
          }
        } else if (s[2] == t) {
          const T yv = *y;
          for (int64_t i = 0; i < n; ++i) {
            const T xi = x[i];
            o[i] = c[i] ? xi : yv;
          }
        } else if (s[3] == t) {
          const T xv = *x;
          for (int64_t i = 0; i < n; ++i) {
            const T yi = y[i];
            o[i] = c[i] ? xv : yi;
          }
        } else {
          const T xv = *x, yv = *y;
          for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? xv : yv;
        }
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        bool c = *reinterpret_cast<const bool*>(p[1] + i * s[1]);
        *reinterpret_cast<T*>(p[0] + i * s[0]) =
            *reinterpret_cast<const T*>(c ? p[2] + i * s[2] : p[3] + i * s[3]);
      }
    });
  });
}

void CpuBackend::where(const Array& out, const Array& cond, const Array& a, const Array& b) {
  where_on_loop(out.dtype, make_loop<4>(out.shape, {&out, &cond, &a, &b}));
}

}  // namespace keras::cpu
