#pragma once
// A mark for layers that compute on the host from their inputs' values (the lookup and
// hashing layers), as Keras's `supports_jit = False`: a model holding one runs its default
// steps eagerly under jit_compile "auto" (Keras resolves "auto" to False then), without the
// warning keras::jit prints for a step that falls back.

#include "keras/layers/layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// A mark a layer inherits when it computes on the host from its inputs' values (Keras's
/// `supports_jit = False`).
class HostComputedLayer {
 public:
  /// Virtual, so the mark is polymorphic (contains_host_computed_layer finds it by dynamic_cast).
  virtual ~HostComputedLayer() = default;
};

/// True when `layer` or any layer inside it is a HostComputedLayer.
bool contains_host_computed_layer(const Layer& layer);

}  // namespace keras::layers

#pragma GCC visibility pop
