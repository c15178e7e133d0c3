#pragma once
// keras.layers.SpatialDropout1D/2D/3D: Dropout that drops whole feature maps (one keep/drop
// decision per sample and channel), for inputs of rank 3, 4 and 5.

#include "keras/layers/regularization/dropout.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.SpatialDropout1D/2D/3D besides `rate`.
struct SpatialDropoutOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format(). Ignored by
  /// SpatialDropout1D (channels last), as in Keras.
  std::string data_format;
  /// Keras's `seed`: seeds the layer's SeedGenerator; unset, it is seeded from the global
  /// generator.
  std::optional<int64_t> seed;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Not a Keras argument of these layers (not in their config); kept for the convention.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The shared part of SpatialDropout1D/2D/3D (Keras's BaseSpatialDropout).
class SpatialDropoutLayer : public DropoutLayer {
 public:
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  void build(const Shape& input_shape) override;
  Config get_config() const override;

  /// The number of spatial axes: 1, 2 or 3.
  int spatial_rank() const { return spatial_rank_; }
  /// "channels_last" or "channels_first".
  const std::string& data_format() const { return data_format_; }

 protected:
  /// For the subclasses: `spatial_rank` 1, 2 or 3; ValueError for an invalid `rate` or
  /// `data_format`.
  SpatialDropoutLayer(int spatial_rank, double rate, SpatialDropoutOptions options);
  template <typename T>
  /// Rebuilds a T (one of the subclasses) from its get_config() dict.
  static std::shared_ptr<Layer> make_from_config(const Config& config);

 private:
  int spatial_rank_;
  std::string data_format_;
};

/// Keras's "SpatialDropout1D": inputs (batch, steps, channels), noise shape (batch, 1, channels).
class SpatialDropout1DLayer : public SpatialDropoutLayer {
 public:
  /// A SpatialDropout1D layer; ValueError when `rate` is outside [0, 1].
  SpatialDropout1DLayer(double rate, SpatialDropoutOptions options = {})
      : SpatialDropoutLayer(1, rate, std::move(options)) {}
  std::string class_name() const override { return "SpatialDropout1D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "SpatialDropout2D": inputs of rank 4, one decision per (sample, channel).
class SpatialDropout2DLayer : public SpatialDropoutLayer {
 public:
  /// A SpatialDropout2D layer; ValueError when `rate` is outside [0, 1] or `data_format` is
  /// invalid.
  SpatialDropout2DLayer(double rate, SpatialDropoutOptions options = {})
      : SpatialDropoutLayer(2, rate, std::move(options)) {}
  std::string class_name() const override { return "SpatialDropout2D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Keras's "SpatialDropout3D": inputs of rank 5, one decision per (sample, channel).
class SpatialDropout3DLayer : public SpatialDropoutLayer {
 public:
  /// A SpatialDropout3D layer; ValueError when `rate` is outside [0, 1] or `data_format` is
  /// invalid.
  SpatialDropout3DLayer(double rate, SpatialDropoutOptions options = {})
      : SpatialDropoutLayer(3, rate, std::move(options)) {}
  std::string class_name() const override { return "SpatialDropout3D"; }
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);
};

/// Dropout of whole channels of (batch, steps, channels) inputs, with drop probability `rate`.
LayerPtr<SpatialDropout1DLayer> SpatialDropout1D(double rate, SpatialDropoutOptions options = {});
/// Dropout of whole feature maps of rank-4 inputs, with drop probability `rate`.
LayerPtr<SpatialDropout2DLayer> SpatialDropout2D(double rate, SpatialDropoutOptions options = {});
/// Dropout of whole feature volumes of rank-5 inputs, with drop probability `rate`.
LayerPtr<SpatialDropout3DLayer> SpatialDropout3D(double rate, SpatialDropoutOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
