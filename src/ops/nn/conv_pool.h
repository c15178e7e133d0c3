#pragma once
// A 2-d convolution with its bias and activation followed by 2x2 max pooling with stride 2
// (a Conv2D -> MaxPooling2D() pair) as one op: one backend call (Capability::ConvPool) that
// never writes the convolution's output, keeping each window's argmax for the backward pass;
// else conv_bias_activation_nd then max_pool. Layers do not call it: a compiled step gets the
// same backend call from the compiler pass compiler/fuse_conv_pool.h.

#include "keras/backend/primitives.h"
#include "keras/ops/nn/conv.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// max_pool_2x2(activation(conv_nd(x, kernel) + bias)) for a 2-d channels_last spec (bias
/// undefined: none). Fused for float32/float64 inputs on one backend with ConvPool, when the
/// convolution's output is at least 2x2; its gradient scatters to the argmax and runs the
/// convolution's gradients (with gradients being recorded, it recomputes the unfused ops, so it
/// is differentiable in turn).
Tensor conv_bias_activation_max_pool_nd(const Tensor& x, const Tensor& kernel, const Tensor& bias,
                                        backend::Activation activation,
                                        const backend::ConvSpec& spec);

/// ops::conv's checks, padding and dtype (as conv_bias_activation), then
/// conv_bias_activation_max_pool_nd.
Tensor conv_bias_activation_max_pool(const Tensor& inputs, const Tensor& kernel, const Tensor& bias,
                                     backend::Activation activation, const ConvOptions& options);

}  // namespace keras::ops::detail
