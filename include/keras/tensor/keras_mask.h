#pragma once
// The mask a tensor carries (Keras's backend.get_keras_mask / set_keras_mask): Embedding(
// mask_zero) and Masking attach one to their outputs; layers that support masking and losses
// read it.

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras {

/// The boolean mask attached to `x`, or an undefined tensor when there is none.
Tensor get_keras_mask(const Tensor& x);
/// Attaches `mask` to `x` (an undefined mask removes it).
void set_keras_mask(const Tensor& x, const Tensor& mask);

}  // namespace keras

#pragma GCC visibility pop
