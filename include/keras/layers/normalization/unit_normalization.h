#pragma once
// keras.layers.UnitNormalization: scales each sample to unit L2 norm over `axis`
// (x * rsqrt(max(sum(x^2), 1e-24)), so zero vectors stay zero).

#include "keras/layers/normalization/axes_arg.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct UnitNormalizationOptions {
  AxesArg axis = -1;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The UnitNormalization layer (Keras's "UnitNormalization"); no weights.
class UnitNormalizationLayer : public Layer {
 public:
  explicit UnitNormalizationLayer(UnitNormalizationOptions options = {});
  std::string class_name() const override { return "UnitNormalization"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  const UnitNormalizationOptions& options() const { return options_; }

 private:
  UnitNormalizationOptions options_;
};

/// L2 normalization over `options.axis` (the last axis by default).
LayerPtr<UnitNormalizationLayer> UnitNormalization(UnitNormalizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
