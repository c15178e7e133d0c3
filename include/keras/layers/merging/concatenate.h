#pragma once
// keras.layers.Concatenate and keras.layers.concatenate: the inputs joined along `axis`; every
// other axis must match.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// Concatenate's keyword arguments besides `axis`.
struct ConcatenateOptions {
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The Concatenate layer (Keras's "Concatenate").
class ConcatenateLayer : public MergeLayer {
 public:
  /// A layer joining its inputs along `axis` (negative counts from the last axis).
  explicit ConcatenateLayer(int axis = -1, ConcatenateOptions options = {});
  std::string class_name() const override { return "Concatenate"; }
  /// The inputs' masks (all true for an input without one, broadcast over an input's last
  /// axis when the mask has fewer axes) joined along `axis`, then any() over the last axis.
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The axis the inputs are joined along (Keras's `axis`; negative counts from the last).
  int axis() const { return axis_; }

 protected:
  /// Checks that the inputs have one rank and match outside `axis` (unknown sizes match any).
  void check_shapes(const std::vector<Shape>& input_shapes) const override;
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;

 private:
  int axis_;
};

/// A Concatenate layer joining along `axis`; call it with a list of tensors.
LayerPtr<ConcatenateLayer> Concatenate(int axis = -1, ConcatenateOptions options = {});

/// Concatenate(axis, options)(inputs) (Keras's keras.layers.concatenate).
KerasTensor concatenate(const std::vector<KerasTensor>& inputs, int axis = -1,
                        ConcatenateOptions options = {});
/// The eager form: concrete tensors joined along `axis`.
Tensor concatenate(const TensorList& inputs, int axis = -1, ConcatenateOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
