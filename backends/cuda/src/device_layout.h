#pragma once
// How a kernel of the cuda backend finds element i of each strided operand: the output's shape
// (row-major flat index i) and each operand's strides, passed by value to the kernel. Plain
// structs, no CUDA types: the host code that fills them and the tests compile with g++.

#include <cstdint>

#include "keras/core/dtype.h"
#include "keras/core/host_device.h"

namespace keras::cuda {

/// The most axes a kernel walks; arrays of higher rank are a NotImplementedError.
inline constexpr int kMaxDims = 8;

/// The extents of the index space (the output's shape; trailing unit axes may be dropped).
struct Dims {
  int rank = 0;
  int64_t size[kMaxDims] = {};
  int64_t numel = 1;
};

/// One array as a kernel reads or writes it: the address of its first element and its strides
/// in elements along Dims's axes (0 broadcasts, negative flips).
struct Operand {
  char* base = nullptr;
  DType dtype = DType::Float32;
  int64_t stride[kMaxDims] = {};
};

/// The element offset (in elements, from base) of flat index i of `dims` in `op`.
KERAS_HOST_DEVICE inline int64_t element_offset(const Dims& dims, const Operand& op, int64_t i) {
  if (dims.rank == 1) return i * op.stride[0];  // contiguous after coalesce(): no division
  int64_t off = 0;
  for (int d = dims.rank - 1; d >= 0; --d) {
    const int64_t k = i % dims.size[d];
    i /= dims.size[d];
    off += k * op.stride[d];
  }
  return off;
}

/// Merges neighbouring axes that every operand steps through as one (the outer axis's stride is
/// the inner's times the inner's extent) and drops unit axes, so that a kernel indexes arrays
/// that are contiguous, or broadcast along whole blocks, with few divisions per element (none
/// for one axis) instead of one per axis per operand. Flat index i then addresses the same
/// element of every operand as before.
inline void coalesce(Dims& dims, Operand* ops, int count) {
  Dims merged;
  merged.numel = dims.numel;
  for (int d = 0; d < dims.rank; ++d) {
    if (dims.size[d] == 1) continue;  // its index is always 0
    bool joins = merged.rank > 0;
    for (int k = 0; k < count && joins; ++k)
      joins = ops[k].stride[merged.rank - 1] == ops[k].stride[d] * dims.size[d];
    const int to = joins ? merged.rank - 1 : merged.rank++;
    merged.size[to] = joins ? merged.size[to] * dims.size[d] : dims.size[d];
    for (int k = 0; k < count; ++k) ops[k].stride[to] = ops[k].stride[d];
  }
  dims = merged;
}

/// Bytes per element of `dtype` (itemsize, usable on the device).
KERAS_HOST_DEVICE inline int64_t element_bytes(DType dtype) {
  switch (dtype) {
    case DType::Bool: case DType::Int8: case DType::UInt8: return 1;
    case DType::Int16: case DType::Float16: case DType::BFloat16: return 2;
    case DType::Int32: case DType::Float32: return 4;
    default: return 8;
  }
}

}  // namespace keras::cuda
