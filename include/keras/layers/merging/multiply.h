#pragma once
// keras.layers.Multiply and keras.layers.multiply: Elementwise product of the inputs; masked entries count as 1 and the result is 0 where every input is masked.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The Multiply layer (Keras's "Multiply").
class MultiplyLayer : public MergeLayer {
 public:
  /// A Multiply layer with these options (Multiply() wraps one in a LayerPtr).
  explicit MultiplyLayer(MergeOptions options = {});
  std::string class_name() const override { return "Multiply"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;
};

/// A Multiply layer; call it with a list of tensors.
LayerPtr<MultiplyLayer> Multiply(MergeOptions options = {});

/// Multiply(options)(inputs): the elementwise product of the inputs (Keras's keras.layers.multiply).
KerasTensor multiply(const std::vector<KerasTensor>& inputs, MergeOptions options = {});
/// The eager form: the elementwise product of concrete tensors.
Tensor multiply(const TensorList& inputs, MergeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
