#pragma once
// LayerScale (Touvron et al., 2021): inputs times a learned per-channel scale, initialized to a
// small constant. Keras 3.15 defines it in keras.src.applications.convnext (not exported as
// keras.layers.LayerScale) and its configs name that module, with registered_name
// "LayerScale"; keras-cpp writes and reads the same record, so ConvNeXt files move both ways.
//
//   auto y = keras::layers::LayerScale(1e-6, 96)(x);   // x: (..., 96)

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.LayerScale's arguments besides `init_values` and `projection_dim`.
struct LayerScaleOptions {
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The LayerScale layer: one trainable weight "variable" of shape (projection_dim,) (Keras's
/// add_weight gives it no name), filled with init_values.
class LayerScaleLayer : public Layer {
 public:
  /// keras.layers.LayerScale: multiplies the inputs by `gamma`, (projection_dim,), initialized to
  /// `init_values`.
  LayerScaleLayer(double init_values, int64_t projection_dim, LayerScaleOptions options = {});
  std::string class_name() const override { return "LayerScale"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The initial value of every scale (Keras's `init_values`).
  double init_values() const { return init_values_; }
  /// The size of the last input axis, the number of scales (Keras's `projection_dim`).
  int64_t projection_dim() const { return projection_dim_; }
  /// The learned scales, (projection_dim,).
  const Variable& gamma() const { return gamma_; }

 private:
  double init_values_;
  int64_t projection_dim_;
  Variable gamma_;
};

/// A layer multiplying its inputs by a learned scale per index of the last axis.
LayerPtr<LayerScaleLayer> LayerScale(double init_values, int64_t projection_dim,
                                     LayerScaleOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
