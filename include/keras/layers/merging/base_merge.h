#pragma once
// The base of keras.layers' merge layers (Keras's Merge): they take a list of tensors, check that
// the shapes broadcast (the batch axis aside), give lower-rank inputs new axes after the batch
// axis, merge, and OR the inputs' masks.

#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of Add, Subtract, Multiply, Average, Maximum and Minimum (Keras's
/// **kwargs: only the arguments every layer takes).
struct MergeOptions {
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// Keras's Merge: the shared behaviour of the merge layers. Call it with a list of tensors.
class MergeLayer : public Layer {
 public:
  /// For subclasses: the base options and the prefix of generated names ("add": add, add_1, ...).
  MergeLayer(LayerOptions options, std::string default_name);
  /// ValueError: merge layers take a list of inputs.
  void build(const Shape& input_shape) override;
  /// Validates the shapes (check_shapes).
  void build_list(const std::vector<Shape>& input_shapes) override;
  /// ValueError: merge layers take a list of inputs.
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  /// The OR of the inputs' masks when every input has one, else none.
  TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const override;

  /// The output shape of merging inputs of these shapes (-1 unknown), as Keras's
  /// Merge.compute_output_shape; ValueError when they do not broadcast.
  Shape compute_output_shape(const std::vector<Shape>& input_shapes) const;

 protected:
  /// Validates input shapes at build and at every call (Keras's Merge.build): equal known batch
  /// sizes and non-batch axes that broadcast. ValueError naming the layer and the shapes.
  virtual void check_shapes(const std::vector<Shape>& input_shapes) const;
  /// Merges inputs of equal rank. `masks` holds the mask of each input (undefined for none)
  /// when any input has one, else it is empty.
  virtual Tensor merge_function(const TensorList& inputs, const TensorList& masks) = 0;
  /// Keras's _apply_merge_op_and_or_mask: a binary op over the inputs that, where an input is
  /// masked, takes the other operand (Maximum, Minimum).
  Tensor apply_merge_op_and_or_mask(const TensorList& inputs, const TensorList& masks,
                                    Tensor (*op)(const Tensor&, const Tensor&)) const;
  /// Floating inputs cast to the compute dtype (Keras's autocast of layer inputs).
  TensorList autocast(const TensorList& inputs) const;
  /// Raises Keras's error for a call or build on a single tensor.
  [[noreturn]] void not_a_list(const Shape& shape) const;

  /// Whether inputs of lower rank get axes of extent 1 after the batch axis before merging
  /// (false for Concatenate and Dot, as Keras).
  bool expand_ranks_ = true;
};

}  // namespace keras::layers

#pragma GCC visibility pop
