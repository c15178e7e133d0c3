#pragma once
// 3x3 convolutions of stride 1 by Winograd's minimal filtering F(2x2, 3x3) (Lavin and Gray,
// "Fast Algorithms for Convolutional Neural Networks", 2016): each 2x2 block of outputs (a
// tile) is A^T [(G w G^T) * (B^T d B)] A of its 4x4 input patch d, 16 products per channel
// pair instead of 36. Over a band of tiles the 16 elementwise products are 16 GEMMs
// (tiles, C) @ (C, O), so the convolution takes 2.25 times fewer multiply-adds than im2col +
// GEMM; the transforms are additions vectorized over channels (the kernel's also halvings,
// exact in binary). The rounding differs from the direct sum by a few units in the last place
// (tests/backend/winograd_conv_test.cpp measures it); cuDNN and oneDNN make the same trade.
//
// A tile is a 2x2 pooling window too, so conv_pool.cpp pools the tiles of a band at once.

#include <functional>

#include "conv_im2col.h"
#include "cpu_backend.h"

namespace keras::cpu::conv_detail {

/// Whether the float32 convolution g runs by F(2x2, 3x3): 2-D, a 3x3 window, stride and
/// dilation 1, one group, channels innermost in x, at least 8 channels in and out (a shorter
/// GEMM gains nothing), and enough tiles per image (not per batch: the choice must not depend on
/// the batch) to pay for transforming the kernel.
bool winograd_applies(const ConvGeometry& g);

/// Output positions per task: the band whose transformed tiles stay in a core's L2 cache.
int64_t winograd_band_positions(const ConvGeometry& g);

/// Floats of the transformed kernel (16 matrices (C, O), a little apart).
int64_t winograd_kernel_floats(const ConvGeometry& g);

/// The kernel w (3, 3, C, O) transformed into u: 16 matrices (C, O), G w G^T at each point of
/// the 4x4 tile. u holds winograd_kernel_floats(g). Splits the channels over the pool.
void winograd_kernel(const ConvGeometry& g, const float* w, float* u);

/// Output rows [y0, y1) (y0 even) of images [n0, n1) into z, image after image, each image's
/// (y1 - y0) * out-width positions as rows of O, from the transformed kernel u. Runs on the
/// calling thread (a pool task); its buffers come from be's allocator.
void winograd_rows(CpuBackend& be, const ConvGeometry& g, const float* x, const float* u,
                   int64_t n0, int64_t n1, int64_t y0, int64_t y1, float* z);

/// The whole convolution into y (N * P rows of O), spread over the pool a band at a time;
/// finish(r0, r1) runs on each band's rows as soon as they are done (in the band's task).
void winograd_conv(CpuBackend& be, const ConvGeometry& g, const float* x, const float* w, float* y,
                   const std::function<void(int64_t, int64_t)>& finish);

}  // namespace keras::cpu::conv_detail
