#pragma once
// keras.layers.Multiply and keras.layers.multiply: Elementwise product of the inputs; masked entries count as 1 and the result is 0 where every input is masked.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The Multiply layer (Keras's "Multiply").
class MultiplyLayer : public MergeLayer {
 public:
  explicit MultiplyLayer(MergeOptions options = {});
  std::string class_name() const override { return "Multiply"; }
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;
};

/// A Multiply layer; call it with a list of tensors.
LayerPtr<MultiplyLayer> Multiply(MergeOptions options = {});

/// Multiply(options)(inputs): the elementwise product of the inputs (Keras's keras.layers.multiply).
KerasTensor multiply(const std::vector<KerasTensor>& inputs, MergeOptions options = {});
Tensor multiply(const TensorList& inputs, MergeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
