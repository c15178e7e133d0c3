#pragma once
// keras.layers.Masking: masks the timesteps whose features all equal mask_value, and zeroes
// them in the output.
//
//   auto masking = layers::Masking({.mask_value = 0.0});
//   Tensor y = masking(x);   // x (batch, time, features); mask = any(x != 0, axis=-1)

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct MaskingOptions {
  double mask_value = 0.0;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Masking layer (Keras's "Masking").
class MaskingLayer : public Layer {
 public:
  explicit MaskingLayer(MaskingOptions options = {});
  std::string class_name() const override { return "Masking"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// any(inputs != mask_value, axis=-1).
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  double mask_value() const { return options_.mask_value; }

 private:
  MaskingOptions options_;
};

/// A layer that masks the timesteps equal to mask_value everywhere.
LayerPtr<MaskingLayer> Masking(MaskingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
