#pragma once
// keras.layers.RMSNormalization: x * rsqrt(mean(x^2 over axis) + epsilon) * scale, with a
// trainable `scale` spanning the normalized axes (Zhang and Sennrich, 2019).

#include "keras/layers/normalization/axes_arg.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The constructor arguments of keras.layers.RMSNormalization.
struct RMSNormalizationOptions {
  /// Keras's `axis`: the axis or axes to normalize over (each sample separately); negative ones
  /// count from the end.
  AxesArg axis = -1;
  /// Keras's `epsilon`: added to the mean square to avoid dividing by zero.
  double epsilon = 1e-6;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The RMSNormalization layer (Keras's "RMSNormalization"). Once built, `axis` is a sorted
/// list (as Keras stores it). Axes other than the trailing ones are normalized over as given,
/// with `scale` broadcast along them.
class RMSNormalizationLayer : public Layer {
 public:
  /// Makes the layer; ValueError for a negative or non-finite epsilon or an empty axis list.
  explicit RMSNormalizationLayer(RMSNormalizationOptions options = {});
  std::string class_name() const override { return "RMSNormalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The constructor arguments (`axis` as the class describes once built).
  const RMSNormalizationOptions& options() const { return options_; }
  /// The trainable "scale" weight spanning the normalized axes (undefined before build).
  const Variable& scale() const { return scale_; }

 private:
  RMSNormalizationOptions options_;
  std::vector<int> axes_;  // canonical, sorted, once built
  Shape built_shape_;
  Variable scale_;
};

/// Root-mean-square normalization over `options.axis` (the last axis by default).
LayerPtr<RMSNormalizationLayer> RMSNormalization(RMSNormalizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
