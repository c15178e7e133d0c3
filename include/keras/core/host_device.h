#pragma once
// KERAS_HOST_DEVICE marks the small scalar functions every backend shares (the Philox generator,
// erfinv's first guess, the elementwise semantics of src/backend/scalar_math.h) as callable from
// CUDA device code too, so the cuda backend computes them with the same arithmetic as cpu. It
// is empty for a host compiler.

#if defined(__CUDACC__)
#define KERAS_HOST_DEVICE __host__ __device__
#else
#define KERAS_HOST_DEVICE
#endif
