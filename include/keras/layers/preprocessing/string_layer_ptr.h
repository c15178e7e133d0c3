#pragma once
// A LayerPtr for the layers that take strings (StringLookup, TextVectorization, Hashing,
// HashedCrossing): `layer(strings)` as in Keras, besides the usual `layer(tensor)`.

#include "keras/layers/layer.h"
#include "keras/tensor/string_tensor.h"

#pragma GCC visibility push(default)
namespace keras::layers {

template <typename T>
/// A LayerPtr to a layer that also takes strings: `layer(strings)` calls T::call_strings.
class StringLayerPtr : public LayerPtr<T> {
 public:
  using LayerPtr<T>::LayerPtr;
  using LayerPtr<T>::operator();
  /// Wraps a plain LayerPtr to the same layer.
  StringLayerPtr(LayerPtr<T> p) : LayerPtr<T>(std::move(p)) {}  // NOLINT

  /// layer(strings): T::call_strings.
  Tensor operator()(const StringTensor& strings) const { return (*this)->call_strings(strings); }
};

}  // namespace keras::layers

#pragma GCC visibility pop
