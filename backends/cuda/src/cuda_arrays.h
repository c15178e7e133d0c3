#pragma once
// Arrays of the contract as the cuda backend's kernels take them (device_layout.h): index
// spaces, operands and CUDA errors. Internal to keras_cuda.

#include <cuda_runtime.h>

#include <array>
#include <string>

#include "device_layout.h"
#include "keras/backend/storage.h"
#include "keras/core/errors.h"

namespace keras::cuda {

using backend::Array;

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw RuntimeError(std::string("cuda backend: ") + what + ": " + cudaGetErrorString(e));
}

inline Dims dims_of(const Shape& shape) {
  if (shape.rank() > kMaxDims)
    throw NotImplementedError("cuda backend: arrays of rank " + std::to_string(shape.rank()) +
                              " (at most " + std::to_string(kMaxDims) + ")");
  Dims d;
  d.rank = shape.rank();
  for (int i = 0; i < d.rank; ++i) {
    d.size[i] = shape[i];
    d.numel *= shape[i];
  }
  return d;
}

// An Array as a kernel operand: its first element's device address and its strides.
inline Operand operand(const Array& a) {
  Operand op;
  if (a.storage)  // (an empty Array has none)
    op.base =
        static_cast<char*>(a.storage->data()) + a.offset * static_cast<int64_t>(itemsize(a.dtype));
  op.dtype = a.dtype;
  for (int i = 0; i < a.rank(); ++i) op.stride[i] = a.strides[i];
  return op;
}

// The index space of `shape` and the arrays indexed by it, neighbouring axes merged (coalesce).
template <size_t N>
struct Space {
  Dims dims;
  std::array<Operand, N> ops;
};
template <typename... A>
Space<sizeof...(A)> space(const Shape& shape, const A&... arrays) {
  Space<sizeof...(A)> s{dims_of(shape), {operand(arrays)...}};
  coalesce(s.dims, s.ops.data(), static_cast<int>(s.ops.size()));
  return s;
}

// The axes of `shape` but `axis` as a kernel's index space (the lines along `axis`).
inline Dims dims_without(const Shape& shape, int axis) {
  Dims d;
  for (int i = 0; i < shape.rank(); ++i) {
    if (i == axis) continue;
    d.size[d.rank++] = shape[i];
    d.numel *= shape[i];
  }
  return d;
}

// `a` as an operand over the same axes (its strides but along `axis`).
inline Operand operand_without(const Array& a, int axis) {
  Operand op = operand(a);
  int k = 0;
  for (int i = 0; i < a.rank(); ++i)
    if (i != axis) op.stride[k++] = a.strides[i];
  return op;
}

}  // namespace keras::cuda
