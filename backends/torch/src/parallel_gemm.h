#pragma once
// Matrix products over ATen's intra-op pool, with the BLAS single-threaded inside each part.
//
// Debian's LibTorch calls a multi-threaded OpenBLAS, whose threads spin beside ATen's OpenMP
// threads: with two pools on cores enough for one, they take turns and every op slows down
// (LibTorch's own MLP trains 2.6-3.9x faster on 2 cores with OPENBLAS_NUM_THREADS=1; see
// bench/README.md). As the cpu backend does with its pool, the torch backend keeps one pool:
// OpenBLAS runs single-threaded, and a large product is split into blocks of rows (or of
// columns, or of batch entries) that ATen's threads compute side by side. Products on a GPU
// (the torch backend on CUDA) go to ATen whole.

#include <ATen/ATen.h>

namespace keras::torch_backend {

/// Sets OpenBLAS to one thread unless it is already (every product and convolution calls it:
/// a program may change the count between ops).
void single_threaded_blas();

/// dst = a @ b with at::matmul's semantics (2-D, or batched with broadcasting). dst has the
/// result's shape and dtype, and shares no memory with a or b.
void matmul_into(at::Tensor& dst, const at::Tensor& a, const at::Tensor& b);

/// dst = bias + a @ b for 2-D a and b and a bias broadcast over dst's rows (at::addmm).
void addmm_into(at::Tensor& dst, const at::Tensor& bias, const at::Tensor& a, const at::Tensor& b);

}  // namespace keras::torch_backend
