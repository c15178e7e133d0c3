#pragma once
// keras.layers.Dot and keras.layers.dot: the batchwise dot product of two tensors along one
// axis of each (Keras's batch_dot), optionally of L2-normalized inputs (cosine proximity).

#include "keras/layers/merging/base_merge.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// Dot's keyword arguments besides `axes`.
struct DotOptions {
  /// L2-normalize both inputs along the dot axes first.
  bool normalize = false;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The Dot layer (Keras's "Dot").
class DotLayer : public MergeLayer {
 public:
  /// `axes`: one axis for both inputs or one per input (`1`, `{1, 2}`); never the batch axis.
  explicit DotLayer(ops::IntOrTuple axes, DotOptions options = {});
  std::string class_name() const override { return "Dot"; }
  /// Dot outputs no mask.
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  /// ValueError when `axes` is neither an integer nor a list of two.
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The dot axis of both inputs, or one per input (Keras's `axes`).
  const ops::IntOrTuple& axes() const { return axes_; }
  /// Whether the inputs are L2-normalized along the dot axes first (Keras's `normalize`).
  bool normalize() const { return options_.normalize; }

 protected:
  /// Checks that there are two inputs whose dot axes have equal sizes.
  void check_shapes(const std::vector<Shape>& input_shapes) const override;
  Tensor merge_function(const TensorList& inputs, const TensorList& masks) override;

 private:
  /// The two axes, non-negative, for inputs of these ranks.
  std::pair<int, int> resolve_axes(int rank1, int rank2) const;
  ops::IntOrTuple axes_;
  DotOptions options_;
};

/// A Dot layer; call it with a list of two tensors.
LayerPtr<DotLayer> Dot(ops::IntOrTuple axes, DotOptions options = {});

/// Dot(axes, options)(inputs) (Keras's keras.layers.dot).
KerasTensor dot(const std::vector<KerasTensor>& inputs, ops::IntOrTuple axes = -1,
                DotOptions options = {});
/// The eager form: the batchwise dot product of two concrete tensors.
Tensor dot(const TensorList& inputs, ops::IntOrTuple axes = -1, DotOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
