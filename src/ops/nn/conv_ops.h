#pragma once
// The three linear maps of a convolution as differentiable ops, each running the backend's
// fused kernel (Capability::Conv) or a decomposition into window views and matmuls:
//   conv_nd          y  = conv(x, k)
//   conv_input_grad  dx = the adjoint of conv(., k) applied to dy (also conv_transpose)
//   conv_kernel_grad dk = the adjoint of conv(x, .) applied to dy
// Their gradient rules are written with each other, so every order of derivative works.
// conv_bias_activation_nd adds the Conv layers' bias and activation to conv_nd.
// Inputs share one floating dtype and backend; the spec is valid for the shapes (the public
// ops check); padding amounts are non-negative.

#include "keras/backend/primitives.h"
#include "keras/ops/nn/conv.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// Cross-correlation of x (layout per spec) with kernel (*k, C / groups, O).
Tensor conv_nd(const Tensor& x, const Tensor& kernel, const backend::ConvSpec& spec);
/// The gradient of conv_nd with respect to x, for an input of shape x_shape.
Tensor conv_input_grad(const Tensor& dy, const Tensor& kernel, const backend::ConvSpec& spec,
                       const Shape& x_shape);
/// The gradient of conv_nd with respect to the kernel, for a kernel of shape kernel_shape.
Tensor conv_kernel_grad(const Tensor& x, const Tensor& dy, const backend::ConvSpec& spec,
                        const Shape& kernel_shape);
/// activation(conv_nd(x, kernel) + bias) (bias undefined: none): one backend call with the
/// epilogue fused (Capability::Epilogue) for a channels_last float32/float64 output whose bias
/// shares x's dtype and backend, else conv_nd and ops. The gradient of the fused call goes
/// through bias_activation_grad (ops/nn/epilogue.h).
Tensor conv_bias_activation_nd(const Tensor& x, const Tensor& kernel, const Tensor& bias,
                               backend::Activation activation, const backend::ConvSpec& spec);
/// The Conv layers' call: ops::conv(inputs, kernel, options) (its checks, padding and dtype),
/// then conv_bias_activation_nd.
Tensor conv_bias_activation(const Tensor& inputs, const Tensor& kernel, const Tensor& bias,
                            backend::Activation activation, const ConvOptions& options);

}  // namespace keras::ops::detail
