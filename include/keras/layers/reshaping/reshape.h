#pragma once
// keras.layers.Reshape: (batch, ...) -> (batch, *target_shape); one entry of target_shape may
// be -1 (inferred from the size).

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Reshape's keyword arguments.
struct ReshapeOptions {
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Reshape layer (Keras's "Reshape").
class ReshapeLayer : public Layer {
 public:
  /// `target_shape` leaves out the batch axis; entries >= 0, or a single -1.
  explicit ReshapeLayer(Shape target_shape, ReshapeOptions options = {});
  std::string class_name() const override { return "Reshape"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The output shape without the batch axis, as given (Keras's `target_shape`; -1 inferred).
  const Shape& target_shape() const { return target_shape_; }

 private:
  /// target_shape with -1 resolved for inputs of this shape (Keras's
  /// compute_reshape_output_shape); -1 stays where an input axis is unknown.
  Shape resolve(const Shape& input_shape) const;
  Shape target_shape_;
};

/// A Reshape layer to `target_shape` (without the batch axis).
LayerPtr<ReshapeLayer> Reshape(Shape target_shape, ReshapeOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
