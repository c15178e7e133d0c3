#pragma once
// keras.layers.PReLU: x for x >= 0, alpha * x otherwise, with a learned alpha of the input's
// shape without the batch axis (size 1 along shared_axes).
//
//   auto prelu = layers::PReLU({.shared_axes = {1, 2}});   // one alpha per channel of NHWC maps

#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct PReLUOptions {
  initializers::InitializerArg alpha_initializer = "Zeros";
  regularizers::RegularizerArg alpha_regularizer;
  constraints::ConstraintArg alpha_constraint;
  /// Axes (1 .. rank-1, counting the batch axis as 0) along which alpha is shared; empty for
  /// none (Keras's None).
  std::vector<int> shared_axes;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The PReLU layer (Keras's "PReLU").
class PReLULayer : public Layer {
 public:
  explicit PReLULayer(PReLUOptions options = {});
  std::string class_name() const override { return "PReLU"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

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
