#pragma once
// keras.layers.LayerNormalization: normalizes each sample over `axis` (mean and biased
// variance), then scales by gamma and shifts by beta, both spanning the normalized axes.

#include "keras/layers/normalization/axes_arg.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The constructor arguments of keras.layers.LayerNormalization.
struct LayerNormalizationOptions {
  /// Keras's `axis`: the axis or axes to normalize over (each sample separately); negative ones
  /// count from the end.
  AxesArg axis = -1;
  /// Keras's `epsilon`: added to the variance to avoid dividing by zero.
  double epsilon = 1e-3;
  /// Keras's `center`: adds the learned offset beta after normalizing (no beta weight when false).
  bool center = true;
  /// Keras's `scale`: multiplies by the learned gamma after normalizing (no gamma weight when
  /// false; a following linear layer can do the scaling).
  bool scale = true;
  /// Deprecated in Keras (3.11+ takes it as a keyword only, with a warning): scales by
  /// rsqrt(variance + epsilon) and gamma without centering, and has no beta. Use
  /// RMSNormalization for root-mean-square normalization.
  bool rms_scaling = false;
  /// Initializer of beta (Keras's `beta_initializer`).
  initializers::InitializerArg beta_initializer = "zeros";
  /// Initializer of gamma (Keras's `gamma_initializer`).
  initializers::InitializerArg gamma_initializer = "ones";
  /// Regularizer of beta; none when empty.
  regularizers::RegularizerArg beta_regularizer;
  /// Regularizer of gamma; none when empty.
  regularizers::RegularizerArg gamma_regularizer;
  /// Constraint on beta, applied after each optimizer update; none when empty.
  constraints::ConstraintArg beta_constraint;
  /// Constraint on gamma, applied after each optimizer update; none when empty.
  constraints::ConstraintArg gamma_constraint;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The LayerNormalization layer (Keras's "LayerNormalization"). Once built, `axis` is the
/// sorted list of non-negative axes (as Keras 3.16 stores it).
class LayerNormalizationLayer : public Layer {
 public:
  /// Makes the layer; ValueError for a negative or non-finite epsilon or an empty axis list.
  explicit LayerNormalizationLayer(LayerNormalizationOptions options = {});
  std::string class_name() const override { return "LayerNormalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The constructor arguments (`axis` as the class describes once built).
  const LayerNormalizationOptions& options() const { return options_; }
  /// The "gamma" scale weight spanning the normalized axes (undefined without scale or
  /// rms_scaling, or before build).
  const Variable& gamma() const { return gamma_; }
  /// The "beta" offset weight spanning the normalized axes (undefined without center, with
  /// rms_scaling, or before build).
  const Variable& beta() const { return beta_; }

 private:
  LayerNormalizationOptions options_;
  std::vector<int> axes_;  // canonical, sorted, once built
  Shape built_shape_;
  Variable gamma_, beta_;
};

/// Layer normalization over `options.axis` (the last axis by default).
LayerPtr<LayerNormalizationLayer> LayerNormalization(LayerNormalizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
