#pragma once
// keras.layers.UpSampling3D: volumes enlarged by integer factors by repeating entries along
// each spatial axis.

#include <array>

#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.UpSampling3D's keyword arguments.
struct UpSampling3DOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The UpSampling3D layer (Keras's "UpSampling3D").
class UpSampling3DLayer : public Layer {
 public:
  /// `size`: one factor for every axis or {d1, d2, d3}; positive.
  explicit UpSampling3DLayer(ops::IntOrTuple size = 2, UpSampling3DOptions options = {});
  std::string class_name() const override { return "UpSampling3D"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The repetition factors of the three spatial axes (Keras's `size`).
  const std::array<int64_t, 3>& size() const { return size_; }
  /// "channels_last" or "channels_first" (Keras's `data_format`), resolved from
  /// image_data_format() when not given.
  const std::string& data_format() const { return data_format_; }

 private:
  std::array<int64_t, 3> size_;
  std::string data_format_;
};

/// An UpSampling3D layer.
LayerPtr<UpSampling3DLayer> UpSampling3D(ops::IntOrTuple size = 2, UpSampling3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
