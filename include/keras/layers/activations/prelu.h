#pragma once
// keras.layers.PReLU: x for x >= 0, alpha * x otherwise, with a learned alpha of the input's
// shape without the batch axis (size 1 along shared_axes).
//
//   auto prelu = layers::PReLU({.shared_axes = {1, 2}});   // one alpha per channel of NHWC maps

#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.PReLU.
struct PReLUOptions {
  /// Keras's `alpha_initializer`: how the learned slopes start (zeros: the layer starts as ReLU).
  initializers::InitializerArg alpha_initializer = "Zeros";
  /// Keras's `alpha_regularizer`: a penalty on the slopes added to the layer's losses; none by
  /// default.
  regularizers::RegularizerArg alpha_regularizer;
  /// Keras's `alpha_constraint`: applied to the slopes after each optimizer update; none by
  /// default.
  constraints::ConstraintArg alpha_constraint;
  /// Axes (1 .. rank-1, counting the batch axis as 0) along which alpha is shared; empty for
  /// none (Keras's None).
  std::vector<int> shared_axes;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The PReLU layer (Keras's "PReLU").
class PReLULayer : public Layer {
 public:
  /// A PReLU layer; ValueError when a shared axis is below 1 (axis 0 is the batch axis).
  explicit PReLULayer(PReLUOptions options = {});
  std::string class_name() const override { return "PReLU"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The learned slopes of the negative part (Keras's `alpha` weight), created by build().
  const Variable& alpha() const { return alpha_; }

 private:
  PReLUOptions options_;
  Shape input_shape_;
  Variable alpha_;
};

/// A parametric rectified linear unit layer.
LayerPtr<PReLULayer> PReLU(PReLUOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
