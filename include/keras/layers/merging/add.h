#pragma once
// keras.layers.Add and keras.layers.add: Elementwise sum of the inputs.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The Add layer (Keras's "Add").
class AddLayer : public MergeLayer {
 public:
  /// An Add layer with these options (Add() wraps one in a LayerPtr).
  explicit AddLayer(MergeOptions options = {});
  std::string class_name() const override { return "Add"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;
};

/// A Add layer; call it with a list of tensors.
LayerPtr<AddLayer> Add(MergeOptions options = {});

/// Add(options)(inputs): the sum of the inputs (Keras's keras.layers.add).
KerasTensor add(const std::vector<KerasTensor>& inputs, MergeOptions options = {});
/// The eager form: the elementwise sum of concrete tensors.
Tensor add(const TensorList& inputs, MergeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
