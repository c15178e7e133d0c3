#pragma once
// keras.layers.UpSampling2D: images enlarged by integer factors, by repeating rows and columns
// ("nearest") or by bilinear interpolation with half-pixel centers ("bilinear", as Keras's
// ops.image.resize with antialias off: tf.image.resize, jax.image.resize, torch's
// interpolate(align_corners=False)).

#include <array>

#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.UpSampling2D's keyword arguments.
struct UpSampling2DOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format().
  std::string data_format;
  /// "nearest" or "bilinear".
  std::string interpolation = "nearest";
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The UpSampling2D layer (Keras's "UpSampling2D").
class UpSampling2DLayer : public Layer {
 public:
  /// `size`: one factor for both axes or {rows, columns}; positive.
  explicit UpSampling2DLayer(ops::IntOrTuple size = 2, UpSampling2DOptions options = {});
  std::string class_name() const override { return "UpSampling2D"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The repetition factors of the rows and the columns (Keras's `size`).
  const std::array<int64_t, 2>& size() const { return size_; }
  /// "channels_last" or "channels_first" (Keras's `data_format`), resolved from
  /// image_data_format() when not given.
  const std::string& data_format() const { return data_format_; }
  /// "nearest" or "bilinear" (Keras's `interpolation`).
  const std::string& interpolation() const { return interpolation_; }

 private:
  std::array<int64_t, 2> size_;
  std::string data_format_, interpolation_;
};

/// An UpSampling2D layer.
LayerPtr<UpSampling2DLayer> UpSampling2D(ops::IntOrTuple size = 2, UpSampling2DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
