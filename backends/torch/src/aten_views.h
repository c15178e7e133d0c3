#pragma once
// Arrays seen as at::Tensors without copying, and results written back into Arrays, on the CPU
// or on the GPU of a torch backend on CUDA (its memory is then device memory, which ATen's CUDA
// kernels read and write through the same views).
//
// ATen has no negative strides: an axis that runs backwards is presented forwards and flipped
// (a copy) when read, and flipped before it is written. Float16 and bfloat16 are computed in
// float32 (ATen's CPU kernels lack many of them) and rounded once when written, as the cpu
// backend does.

#include <ATen/ATen.h>

#include "keras/backend/storage.h"

namespace keras::torch_backend {

using backend::Array;

/// ATen's name for a keras-cpp dtype.
at::ScalarType scalar_type(DType dtype);

/// The ATen device of an Array's memory: its torch backend's device (CPU for host memory).
at::Device device_of(const Array& a);

/// Options for a new tensor of `type` beside `a` (on a's device).
at::TensorOptions options_beside(const Array& a, at::ScalarType type);

/// The Array as an at::Tensor over the same memory (a copy only for negative strides).
at::Tensor view(const Array& a);

/// view(a), converted to the dtype the computation runs in (float32 for 16-bit floats).
at::Tensor compute_view(const Array& a);

/// The dtype computations on `dtype` run in.
at::ScalarType compute_type(DType dtype);

/// Writes `value` into `out` (same shape; converting dtype).
void assign(const Array& out, const at::Tensor& value);

/// A view of `out` that in-place ATen ops may write into, when out has no negative strides and
/// needs no dtype conversion; an undefined tensor otherwise (use assign()).
at::Tensor writable_view(const Array& out);

/// A view of `out` that ATen's `_out` forms may compute into, so that the result needs no copy:
/// defined when writable_view(out) is, no two elements of out share memory, and out shares no
/// memory with any of `inputs` (ATen refuses an output that partly overlaps an input); an
/// undefined tensor otherwise (compute, then assign()).
at::Tensor out_view(const Array& out, std::initializer_list<const Array*> inputs);

/// out_view() for one elementwise ATen kernel: an input may also be `out` itself (the same
/// memory through the same view), which ATen computes in place, each element read before it is
/// written (the compiler assigns `m + d` into m that way).
at::Tensor elementwise_out_view(const Array& out, std::initializer_list<const Array*> inputs);

/// True when two elements of `a` may share a storage position (a zero stride, or strides that
/// interleave).
bool may_overlap(const Array& a);

/// The sizes of an Array as ATen wants them.
std::vector<int64_t> sizes_of(const Array& a);

}  // namespace keras::torch_backend
