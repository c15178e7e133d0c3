#pragma once
// keras.layers.Subtract and keras.layers.subtract: inputs[0] - inputs[1]; exactly two inputs.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The Subtract layer (Keras's "Subtract").
class SubtractLayer : public MergeLayer {
 public:
  /// A Subtract layer with these options (Subtract() wraps one in a LayerPtr).
  explicit SubtractLayer(MergeOptions options = {});
  std::string class_name() const override { return "Subtract"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

 protected:
  /// Merge's checks, and exactly two inputs.
  void check_shapes(const std::vector<Shape>& input_shapes) const override;
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;
};

/// A Subtract layer; call it with a list of tensors.
LayerPtr<SubtractLayer> Subtract(MergeOptions options = {});

/// Subtract(options)(inputs): inputs[0] - inputs[1] (Keras's keras.layers.subtract).
KerasTensor subtract(const std::vector<KerasTensor>& inputs, MergeOptions options = {});
/// The eager form: inputs[0] - inputs[1] of two concrete tensors.
Tensor subtract(const TensorList& inputs, MergeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
