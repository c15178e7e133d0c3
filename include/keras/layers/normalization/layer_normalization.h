#pragma once
// keras.layers.LayerNormalization: normalizes each sample over `axis` (mean and biased
// variance), then scales by gamma and shifts by beta, both spanning the normalized axes.

#include "keras/layers/normalization/axes_arg.h"
#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct LayerNormalizationOptions {
  AxesArg axis = -1;
  double epsilon = 1e-3;
  bool center = true;
  bool scale = true;
  /// Deprecated in Keras (3.11+ takes it as a keyword only, with a warning): scales by
  /// rsqrt(variance + epsilon) and gamma without centering, and has no beta. Use
  /// RMSNormalization for root-mean-square normalization.
  bool rms_scaling = false;
  initializers::InitializerArg beta_initializer = "zeros";
  initializers::InitializerArg gamma_initializer = "ones";
  regularizers::RegularizerArg beta_regularizer;
  regularizers::RegularizerArg gamma_regularizer;
  constraints::ConstraintArg beta_constraint;
  constraints::ConstraintArg gamma_constraint;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The LayerNormalization layer (Keras's "LayerNormalization"). Once built, `axis` is the
/// sorted list of non-negative axes (as Keras 3.16 stores it).
class LayerNormalizationLayer : public Layer {
 public:
  explicit LayerNormalizationLayer(LayerNormalizationOptions options = {});
  std::string class_name() const override { return "LayerNormalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  const LayerNormalizationOptions& options() const { return options_; }
  const Variable& gamma() const { return gamma_; }
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
