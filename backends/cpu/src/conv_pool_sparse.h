#pragma once
// The gradients of a convolution followed by 2x2 max pooling, read straight from the pooled
// gradient. Each pooled value came from one conv output position (its window's argmax), so
// only those positions' windows take part: the input gradient under such a window gets
// v * kernel, the kernel gradient gets v * input. That is at most a quarter of the products of
// the dense backward pass (fewer after ReLU, whose zeros add nothing), with no patch matrix and
// no col2im; every array an image touches stays in L1/L2.

#include <cstdint>

#include "conv_im2col.h"

namespace keras::cpu {

/// For one group, float32, contiguous channels_last arrays: x (N, H, W, C), kernel
/// (kh, kw, C, O), gz and argmax (N, PH, PW, O) as conv_bias_activation_max_pool left them
/// (gz: the pooled gradient times the activation's derivative). Writes dx (N, H, W, C) and
/// dkernel (kh, kw, C, O), each unless null. The kernel gradient sums fixed slices of images
/// in order, so it depends neither on the number of threads nor on timing. A zero of gz adds
/// nothing (the dense products would turn it into NaN only against an infinite weight or
/// input).
void conv_pool_sparse_backward(const conv_detail::ConvGeometry& g, int64_t ph, int64_t pw,
                               const float* x, const float* kernel, const float* gz,
                               const uint8_t* argmax, float* dx, float* dkernel);

}  // namespace keras::cpu
