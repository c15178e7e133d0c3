#pragma once
// keras.layers.UpSampling1D: each step of (batch, steps, features) repeated `size` times.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.UpSampling1D's keyword arguments.
struct UpSampling1DOptions {
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The UpSampling1D layer (Keras's "UpSampling1D").
class UpSampling1DLayer : public Layer {
 public:
  /// keras.layers.UpSampling1D: repeats each timestep `size` times along the time axis.
  explicit UpSampling1DLayer(int64_t size = 2, UpSampling1DOptions options = {});
  std::string class_name() const override { return "UpSampling1D"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The repetition factor of the time axis (Keras's `size`).
  int64_t size() const { return size_; }

 private:
  int64_t size_;
};

/// An UpSampling1D layer.
LayerPtr<UpSampling1DLayer> UpSampling1D(int64_t size = 2, UpSampling1DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
