#pragma once
// keras.layers.Masking: masks the timesteps whose features all equal mask_value, and zeroes
// them in the output.
//
//   auto masking = layers::Masking({.mask_value = 0.0});
//   Tensor y = masking(x);   // x (batch, time, features); mask = any(x != 0, axis=-1)

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Masking's arguments.
struct MaskingOptions {
  /// Timesteps whose features all equal this value are masked out (Keras's `mask_value`).
  double mask_value = 0.0;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Masking layer (Keras's "Masking").
class MaskingLayer : public Layer {
 public:
  /// keras.layers.Masking: masks the timesteps whose features all equal `mask_value`.
  explicit MaskingLayer(MaskingOptions options = {});
  std::string class_name() const override { return "Masking"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// any(inputs != mask_value, axis=-1).
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The value that marks a masked timestep (Keras's `mask_value`).
  double mask_value() const { return options_.mask_value; }

 private:
  MaskingOptions options_;
};

/// A layer that masks the timesteps equal to mask_value everywhere.
LayerPtr<MaskingLayer> Masking(MaskingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
