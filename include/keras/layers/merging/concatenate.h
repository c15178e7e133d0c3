#pragma once
// keras.layers.Concatenate and keras.layers.concatenate: the inputs joined along `axis`; every
// other axis must match.

#include "keras/layers/merging/base_merge.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// Concatenate's keyword arguments besides `axis`.
struct ConcatenateOptions {
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Concatenate layer (Keras's "Concatenate").
class ConcatenateLayer : public MergeLayer {
 public:
  explicit ConcatenateLayer(int axis = -1, ConcatenateOptions options = {});
  std::string class_name() const override { return "Concatenate"; }
  /// The inputs' masks (all true for an input without one, broadcast over an input's last
  /// axis when the mask has fewer axes) joined along `axis`, then any() over the last axis.
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

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
Tensor concatenate(const TensorList& inputs, int axis = -1, ConcatenateOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
