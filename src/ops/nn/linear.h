#pragma once
// activation(x @ w + bias), the op Dense and the attention projections call: one backend call
// where the backend has the Linear capability (a matmul whose epilogue adds the bias and
// applies the activation, with the gradient of that epilogue in one pass), else matmul then
// bias_activation with ops. Layers stay plain `build` + `call`; the choice lives here.

#include "keras/activations/activation.h"
#include "keras/backend/primitives.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// x (..., K) @ w (K, N) + bias (N), then `activation` (None, Relu, Sigmoid, Tanh: those
/// whose derivative the backward pass writes from the output). bias may be undefined.
Tensor linear_bias_activation(const Tensor& x, const Tensor& w, const Tensor& bias,
                              backend::Activation activation);
/// The same for any activation: the above when a fused kernel can apply `activation`, else
/// matmul, the bias and `activation` itself with ops.
Tensor linear_bias_activation(const Tensor& x, const Tensor& w, const Tensor& bias,
                              const activations::Activation& activation);

}  // namespace keras::ops::detail
