#pragma once
// The torch backend on GPUs. LibTorch's CUDA kernels live in libtorch_cuda.so, which keras_torch
// does not link: a CUDA build of LibTorch (a PyTorch wheel's) needs libraries for it (cuSPARSELt,
// cuFile, NVSHMEM) that a machine without a GPU usually lacks, and the same program must run
// there. Where the library sits beside libtorch_cpu.so and loads, and the machine has GPUs,
// "torch:cuda" (alias "torch:cuda:0"), "torch:cuda:1", ... are registered.

#include <string>

namespace keras::torch_backend {

/// Loads LibTorch's CUDA library if there is one and registers a torch backend per GPU.
void register_cuda_backends();

/// Why no torch backend runs on a GPU in this program, or "" when one does.
std::string cuda_unavailable_reason();

}  // namespace keras::torch_backend
