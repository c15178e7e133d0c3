#pragma once
// Max pooling with 2x2 windows and stride 2 over (N, H, W, C) float32 arrays with channels
// innermost and no padding: MaxPooling2D()'s defaults, the pooling of most image models. Plain
// loops over whole window rows, vectorized over the channels (AVX-512, AVX2 or SSE chosen at
// run time), with the same taps in the same order as the general kernels in pool.cpp, so the
// same results (NaN wins; the first maximum of a window takes the gradient).

#include <cstdint>

#include "spatial.h"

namespace keras::cpu {

/// True when g (from pool.cpp's geometry) is such a pooling of contiguous arrays.
bool is_max_pool_2x2(const WindowGeometry& g, bool x_contiguous, bool y_contiguous);

/// y (N, H / 2, W / 2, C) from x (N, H, W, C).
void max_pool_2x2(const WindowGeometry& g, const float* x, float* y);

/// dx (N, H, W, C), every element written: dy where a window's first maximum is, else 0.
void max_pool_2x2_backward(const WindowGeometry& g, const float* x, const float* y,
                           const float* dy, float* dx);

}  // namespace keras::cpu
