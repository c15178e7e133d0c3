#pragma once
// What a Tensor handle points to: a strided Array plus what autograd needs. Users never touch
// this type; it is public only so that inline accessors stay inline.

#include <cstdint>

#include "keras/backend/storage.h"
#include "keras/core/ref.h"
#include "keras/core/scalar.h"

#pragma GCC visibility push(default)
namespace keras {

namespace autograd {
class Node;
}

namespace detail {

/// The shared state behind a keras::Tensor handle.
class TensorImpl : public RefCounted {
 public:
  explicit TensorImpl(backend::Array array);
  ~TensorImpl() override;

  backend::Array array;
  /// The node that produced this tensor (or the leaf node of a watched tensor or variable);
  /// null when no gradient flows through it. Set once, when the tensor is made.
  Ref<autograd::Node> grad_fn;
  /// Which output of grad_fn this tensor is.
  uint32_t output_nr = 0;
  /// True for a 0-d tensor made from a C++ literal: it adapts to the other operand's dtype
  /// and backend, as a Python scalar does in Keras.
  bool weak = false;
  /// The exact literal of a weak tensor (so 0.1 meets a float64 tensor as 0.1, not as the
  /// float32 its own array holds).
  Scalar weak_value;
  /// The Keras mask a layer attached to this output (Embedding(mask_zero), Masking), which the
  /// next layers that support masking receive (Keras's `_keras_mask`).
  Ref<TensorImpl> keras_mask;
};

}  // namespace detail
}  // namespace keras

#pragma GCC visibility pop
