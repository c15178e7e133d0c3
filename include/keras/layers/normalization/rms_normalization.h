#pragma once
// keras.layers.RMSNormalization: x * rsqrt(mean(x^2 over axis) + epsilon) * scale, with a
// trainable `scale` spanning the normalized axes (Zhang and Sennrich, 2019).

#include "keras/layers/normalization/axes_arg.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RMSNormalizationOptions {
  AxesArg axis = -1;
  double epsilon = 1e-6;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RMSNormalization layer (Keras's "RMSNormalization"). Once built, `axis` is a sorted
/// list (as Keras stores it). Axes other than the trailing ones are normalized over as given,
/// with `scale` broadcast along them.
class RMSNormalizationLayer : public Layer {
 public:
  explicit RMSNormalizationLayer(RMSNormalizationOptions options = {});
  std::string class_name() const override { return "RMSNormalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  const RMSNormalizationOptions& options() const { return options_; }
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
