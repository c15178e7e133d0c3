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

/// One output row of 2x2 max pooling with its argmax, from two contiguous input rows a, b
/// (2 * out_w or more positions of c values): out (out_w, c) and argmax (out_w, c), the window
/// index of the first maximum (0, 1 in a; 2, 3 in b; a NaN wins). float32 and float64.
template <typename T>
void max_pool_2x2_argmax_row(const T* a, const T* b, T* out, uint8_t* argmax, int64_t out_w,
                             int64_t c);

/// The same row without the argmax (where no gradient will read it): forward_row's values, as
/// max_pool_2x2 computes them, so a fused layer pools as the separate one does.
template <typename T>
void max_pool_2x2_row(const T* a, const T* b, T* out, int64_t out_w, int64_t c);

/// One row of windows of max_pool_2x2_scatter (float32): rows d0, d1 (w positions of c values)
/// from gz and argmax (out_w, c).
void max_pool_2x2_scatter_row(const float* gz, const uint8_t* argmax, float* d0, float* d1,
                              int64_t out_w, int64_t w, int64_t c);

/// dz (N, H, W, C) from gz and argmax (N, H / 2, W / 2, C): gz at each window's argmax, 0
/// everywhere else (also under no window when H or W is odd).
template <typename T>
void max_pool_2x2_scatter(int64_t n, int64_t h, int64_t w, int64_t c, const T* gz,
                          const uint8_t* argmax, T* dz);

}  // namespace keras::cpu
