#pragma once
// keras.layers.Average and keras.layers.average: Elementwise mean of the inputs.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The Average layer (Keras's "Average").
class AverageLayer : public MergeLayer {
 public:
  /// An Average layer with these options (Average() wraps one in a LayerPtr).
  explicit AverageLayer(MergeOptions options = {});
  std::string class_name() const override { return "Average"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;
};

/// A Average layer; call it with a list of tensors.
LayerPtr<AverageLayer> Average(MergeOptions options = {});

/// Average(options)(inputs): the elementwise mean of the inputs (Keras's keras.layers.average).
KerasTensor average(const std::vector<KerasTensor>& inputs, MergeOptions options = {});
/// The eager form: the elementwise mean of concrete tensors.
Tensor average(const TensorList& inputs, MergeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
