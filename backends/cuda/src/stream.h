#pragma once
// The stream each thread's kernels and library calls go to. The cuda backend sets it at the
// start of every primitive (CudaBackend::select_device): its device's main stream, or its
// capture stream while the calling thread records a CUDA graph (keras/backend/capture.h).
// Unset (a thread that never entered the backend), it is the legacy default stream.

#include <cuda_runtime.h>

namespace keras::cuda {

cudaStream_t launch_stream();
void set_launch_stream(cudaStream_t stream);

}  // namespace keras::cuda
