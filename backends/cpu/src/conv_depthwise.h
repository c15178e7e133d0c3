#pragma once
// Depthwise convolutions (one group per input channel: DepthwiseConv and the first step of
// SeparableConv) computed directly. As grouped im2col + GEMM they cost one tiny matrix-vector
// product per channel and row block (MobileNetV2 at batch 32: 0.1 of ONNX Runtime's speed);
// directly, each output row is a sum over the window's taps of input rows times kernel rows,
// vectorized along the channels.

#include "conv_im2col.h"

namespace keras::cpu::conv_detail {

/// True when `g` is a depthwise convolution whose input channels are contiguous (channels
/// last), which depthwise_forward computes. One input channel (groups 1) is left to the
/// ordinary paths: that is a first layer over grayscale images, which conv_short_patch.h runs.
inline bool is_depthwise(const ConvGeometry& g) {
  return g.groups > 1 && g.groups == g.c && g.cg == 1 && g.xs_c == 1;
}

/// y rows (N * positions, C * multiplier) of a depthwise convolution of x (strides of `g`)
/// with the grouped kernel w (taps, C * multiplier), split over the thread pool.
void depthwise_forward(const ConvGeometry& g, const float* x, const float* w, float* y);

}  // namespace keras::cpu::conv_detail
