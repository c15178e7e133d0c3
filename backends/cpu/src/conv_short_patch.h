#pragma once
// Convolutions whose patches are short (taps * channels <= kShortPatch: a 3x3 kernel over one
// or three channels, the first layer of an image model), computed directly instead of by im2col
// and GEMM. A GEMM with K = 9 runs at a small fraction of its speed, and building its patch
// matrix (nine floats per output position) costs more than the products; here each output
// position gathers its patch into registers and adds K multiples of kernel rows into its O
// outputs, 16 at a time (one AVX-512 or two AVX2 registers, chosen at run time).

#include <cstdint>

#include "epilogue.h"
#include "spatial.h"

namespace keras::cpu {

/// Longest patch (taps * channels) the direct kernels take.
inline constexpr int64_t kShortPatch = 32;

/// True when the direct kernels apply: one group, patches of at most kShortPatch values,
/// channels innermost in the input (any other strides).
bool short_patch_conv(const WindowGeometry& g, int64_t groups);

/// y (N * P, o) = activation(patches(x) @ w + bias), with w (taps * C, o) and y contiguous
/// rows; the bias and activation are applied to small blocks of rows while they are in cache.
void short_patch_forward(const WindowGeometry& g, int64_t o, const float* x, const float* w,
                         float* y, EpilogueBias bias = {},
                         backend::Activation act = backend::Activation::None);

/// Rows [r0, r1) of patches(x) @ w into y_rows (row r0 first), on the calling thread, with the
/// same arithmetic as short_patch_forward (no bias or activation).
void short_patch_rows(const WindowGeometry& g, int64_t o, const float* x, const float* w,
                      int64_t r0, int64_t r1, float* y_rows);

/// dw (taps * C, o) += patches(x)^T @ dy for rows [r0, r1), dy_rows holding row r0 first, on
/// the calling thread: what short_patch_backward_kernel runs on each of its slices.
void short_patch_kernel_grad_rows(const WindowGeometry& g, int64_t o, const float* x,
                                  const float* dy_rows, int64_t r0, int64_t r1, float* dw);

/// dw (taps * C, o) = patches(x)^T @ dy, dy contiguous rows (N * P, o). Rows are summed in
/// fixed slices whose partial sums are added in order, so the result depends neither on the
/// number of threads nor on timing.
void short_patch_backward_kernel(const WindowGeometry& g, int64_t o, const float* x,
                                 const float* dy, float* dw);

}  // namespace keras::cpu
