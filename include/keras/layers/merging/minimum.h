#pragma once
// keras.layers.Minimum and keras.layers.minimum: Elementwise minimum of the inputs; masked entries defer to the other operand.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The Minimum layer (Keras's "Minimum").
class MinimumLayer : public MergeLayer {
 public:
  /// A Minimum layer with these options (Minimum() wraps one in a LayerPtr).
  explicit MinimumLayer(MergeOptions options = {});
  std::string class_name() const override { return "Minimum"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;
};

/// A Minimum layer; call it with a list of tensors.
LayerPtr<MinimumLayer> Minimum(MergeOptions options = {});

/// Minimum(options)(inputs): the elementwise minimum of the inputs (Keras's keras.layers.minimum).
KerasTensor minimum(const std::vector<KerasTensor>& inputs, MergeOptions options = {});
/// The eager form: the elementwise minimum of concrete tensors.
Tensor minimum(const TensorList& inputs, MergeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
