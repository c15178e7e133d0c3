#pragma once
// keras.layers.UnitNormalization: scales each sample to unit L2 norm over `axis`
// (x * rsqrt(max(sum(x^2), 1e-24)), so zero vectors stay zero).

#include "keras/layers/normalization/axes_arg.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The constructor arguments of keras.layers.UnitNormalization.
struct UnitNormalizationOptions {
  /// Keras's `axis`: the axis or axes whose L2 norm becomes 1; negative ones count from the end.
  AxesArg axis = -1;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The UnitNormalization layer (Keras's "UnitNormalization"); no weights.
class UnitNormalizationLayer : public Layer {
 public:
  /// Makes the layer.
  explicit UnitNormalizationLayer(UnitNormalizationOptions options = {});
  std::string class_name() const override { return "UnitNormalization"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The constructor arguments.
  const UnitNormalizationOptions& options() const { return options_; }

 private:
  UnitNormalizationOptions options_;
};

/// L2 normalization over `options.axis` (the last axis by default).
LayerPtr<UnitNormalizationLayer> UnitNormalization(UnitNormalizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
