#pragma once
// What the cuda backend's kernels share (kernels.cu, fused_kernels.cu): the grid-stride loop,
// the address of element i of a strided operand, loads and stores with cpu's conversions
// between dtypes, and the unary and binary element functions in each compute type (float,
// double, int64_t, bool), which are cpu's own (src/backend/elementwise_math.h). CUDA only.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "backend/elementwise_math.h"
#include "device_layout.h"
#include "keras/core/errors.h"

namespace keras::cuda {
namespace {

using backend::BinaryOp;
using backend::UnaryOp;

inline void check_launch(const char* kernel) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    throw RuntimeError(std::string("cuda backend: kernel ") + kernel +
                       " failed: " + cudaGetErrorString(e));
}

inline bool is_float(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}

#define KERAS_GRID_STRIDE(i, n)                                                          \
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)

inline __device__ char* address(const Operand& op, const Dims& dims, int64_t i) {
  return op.base + element_offset(dims, op, i) * element_bytes(op.dtype);
}

// ---- loads and stores with cpu's conversions --------------------------------------------------

inline __device__ double load_double(const char* p, DType t) {
  switch (t) {
    case DType::Bool:
      return *reinterpret_cast<const bool*>(p) ? 1.0 : 0.0;
    case DType::Int8:
      return *reinterpret_cast<const int8_t*>(p);
    case DType::Int16:
      return *reinterpret_cast<const int16_t*>(p);
    case DType::Int32:
      return *reinterpret_cast<const int32_t*>(p);
    case DType::Int64:
      return static_cast<double>(*reinterpret_cast<const int64_t*>(p));
    case DType::UInt8:
      return *reinterpret_cast<const uint8_t*>(p);
    case DType::Float16:
      return __half2float(*reinterpret_cast<const __half*>(p));
    case DType::BFloat16:
      return __bfloat162float(*reinterpret_cast<const __nv_bfloat16*>(p));
    case DType::Float32:
      return *reinterpret_cast<const float*>(p);
    case DType::Float64:
      return *reinterpret_cast<const double*>(p);
  }
  return 0;
}

inline __device__ int64_t load_int(const char* p, DType t) {
  switch (t) {
    case DType::Bool:
      return *reinterpret_cast<const bool*>(p) ? 1 : 0;
    case DType::Int8:
      return *reinterpret_cast<const int8_t*>(p);
    case DType::Int16:
      return *reinterpret_cast<const int16_t*>(p);
    case DType::Int32:
      return *reinterpret_cast<const int32_t*>(p);
    case DType::Int64:
      return *reinterpret_cast<const int64_t*>(p);
    case DType::UInt8:
      return *reinterpret_cast<const uint8_t*>(p);
    default:
      return static_cast<int64_t>(load_double(p, t));
  }
}

// A value in compute type C: float, double, int64_t or bool.
template <typename C>
inline __device__ C load(const char* p, DType t) {
  if constexpr (std::is_same_v<C, int64_t>)
    return load_int(p, t);
  else if constexpr (std::is_same_v<C, bool>)
    return load_int(p, t) != 0;
  else if constexpr (std::is_same_v<C, float>) {
    if (t == DType::Float32) return *reinterpret_cast<const float*>(p);
    if (t == DType::Int64) return static_cast<float>(*reinterpret_cast<const int64_t*>(p));
    return static_cast<float>(load_double(p, t));
  } else {
    if (t == DType::Int64) return static_cast<double>(*reinterpret_cast<const int64_t*>(p));
    return load_double(p, t);
  }
}

// Floats to integers narrower than 32 bits go through int32 (NumPy on x86 keeps the low bits).
template <typename I, typename C>
inline __device__ I to_integer(C v) {
  if constexpr (std::is_floating_point_v<C>) {
    if constexpr (sizeof(I) < 4) return static_cast<I>(static_cast<int32_t>(v));
    return static_cast<I>(v);
  } else {
    return static_cast<I>(v);
  }
}

template <typename C>
inline __device__ void store(char* p, DType t, C v) {
  switch (t) {
    case DType::Bool:
      *reinterpret_cast<bool*>(p) = v != C(0);
      return;
    case DType::Int8:
      *reinterpret_cast<int8_t*>(p) = to_integer<int8_t>(v);
      return;
    case DType::Int16:
      *reinterpret_cast<int16_t*>(p) = to_integer<int16_t>(v);
      return;
    case DType::Int32:
      *reinterpret_cast<int32_t*>(p) = to_integer<int32_t>(v);
      return;
    case DType::Int64:
      *reinterpret_cast<int64_t*>(p) = to_integer<int64_t>(v);
      return;
    case DType::UInt8:
      *reinterpret_cast<uint8_t*>(p) = to_integer<uint8_t>(v);
      return;
    case DType::Float16:
      *reinterpret_cast<__half*>(p) = __float2half_rn(static_cast<float>(v));
      return;
    case DType::BFloat16:
      *reinterpret_cast<__nv_bfloat16*>(p) = __float2bfloat16_rn(static_cast<float>(v));
      return;
    case DType::Float32:
      *reinterpret_cast<float*>(p) = static_cast<float>(v);
      return;
    case DType::Float64:
      *reinterpret_cast<double*>(p) = static_cast<double>(v);
      return;
  }
}

template <UnaryOp Op, typename C>
inline __device__ auto unary_value(C x, C a, C b) {
  if constexpr (std::is_same_v<C, bool>)
    return backend::math::unary_bool<Op>(x);
  else if constexpr (std::is_same_v<C, int64_t>)
    return backend::math::unary_integer<Op>(x, a, b);
  else
    return backend::math::unary_float<Op>(x, a, b);
}

template <BinaryOp Op, typename C>
inline __device__ auto binary_value(C x, C y) {
  if constexpr (std::is_same_v<C, bool>)
    return backend::math::binary_bool<Op>(x, y);
  else if constexpr (std::is_same_v<C, int64_t>)
    return backend::math::binary_integer<Op>(x, y);
  else
    return backend::math::binary_float<Op>(x, y);
}

// The compute type a kernel uses for dtype t: 0 float, 1 double, 2 int64, 3 bool.
enum class Mode { Float, Double, Integer, Bool };
inline Mode mode_of(DType t) {
  if (t == DType::Float64) return Mode::Double;
  if (is_float(t)) return Mode::Float;
  if (t == DType::Bool) return Mode::Bool;
  return Mode::Integer;
}

// The compute type of comparisons and accumulations (reductions, arg max/min, sorts): bool is
// read as 0/1 in int64 there, as cpu orders and sums it.
inline Mode ordering_mode(DType t) {
  return mode_of(t) == Mode::Bool ? Mode::Integer : mode_of(t);
}

// Calls f(C{}) for the compute type of `mode`.
template <typename F>
void with_compute_type(Mode mode, F&& f) {
  switch (mode) {
    case Mode::Float:
      return f(float{});
    case Mode::Double:
      return f(double{});
    case Mode::Integer:
      return f(int64_t{});
    case Mode::Bool:
      return f(bool{});
  }
}

}  // namespace
}  // namespace keras::cuda
