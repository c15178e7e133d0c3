#pragma once
// Adjacent layers a model can run as one fused op with the same result (as XLA fuses them for
// Keras on JAX): today a Conv2D followed by MaxPooling2D(2), whose convolution output is then
// never written to memory (ops/nn/conv_pool.h). Sequential and Functional models ask here for
// every pair of consecutive layers whose intermediate output nothing else reads.

#include "keras/layers/layer.h"

namespace keras::detail {

/// True when `first` then `second` can run as one op: both are built; first is a Conv2D (exactly
/// that class) with channels_last data, a bias/activation a fused kernel applies (none, relu,
/// sigmoid, tanh), no activity regularizer and float32/float64 compute and variables; second
/// is MaxPooling2D (exactly) with 2x2 windows, strides 2, "valid" padding, channels_last and
/// the same compute dtype, and no activity regularizer.
bool can_fuse(const Layer& first, const Layer& second);

/// second(first(x)) as one op, for a pair can_fuse accepts; an undefined Tensor when x itself
/// does not fit (not a 4-d floating input with the kernel's channels, or a mask attached), and
/// the caller then calls the layers one by one (which raise the usual errors).
Tensor call_fused(Layer& first, Layer& second, const Tensor& x);

}  // namespace keras::detail
