#pragma once
// keras.layers.Maximum and keras.layers.maximum: Elementwise maximum of the inputs; masked entries defer to the other operand.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The Maximum layer (Keras's "Maximum").
class MaximumLayer : public MergeLayer {
 public:
  /// A Maximum layer with these options (Maximum() wraps one in a LayerPtr).
  explicit MaximumLayer(MergeOptions options = {});
  std::string class_name() const override { return "Maximum"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;
};

/// A Maximum layer; call it with a list of tensors.
LayerPtr<MaximumLayer> Maximum(MergeOptions options = {});

/// Maximum(options)(inputs): the elementwise maximum of the inputs (Keras's keras.layers.maximum).
KerasTensor maximum(const std::vector<KerasTensor>& inputs, MergeOptions options = {});
/// The eager form: the elementwise maximum of concrete tensors.
Tensor maximum(const TensorList& inputs, MergeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
