#pragma once
// keras.layers.Rescaling: inputs * scale + offset, computed in the layer's dtype (integer
// images become floats).
//
//   auto rescale = layers::Rescaling(1.0 / 255);                       // [0, 255] -> [0, 1]
//   auto to_pm1 = layers::Rescaling(1.0 / 127.5, {.offset = -1.0});    // [0, 255] -> [-1, 1]

#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// A Rescaling scale or offset: one number, or an array of them (per channel, for example),
/// broadcast against the inputs as NumPy does.
class ScaleValue {
 public:
  /// One number.
  ScaleValue(double value) : values_{value} {}  // NOLINT: numbers convert
  /// A 1-d array of `values` (one per channel, for example).
  ScaleValue(std::initializer_list<double> values)  // NOLINT
      : values_(values), shape_{static_cast<int64_t>(values.size())} {}
  /// An array of `values` with `shape` (row-major).
  ScaleValue(std::vector<double> values, Shape shape);
  /// The values of a host tensor.
  static ScaleValue from_tensor(const Tensor& t);

  /// Whether it is one number (shape ()).
  bool is_scalar() const { return shape_.rank() == 0; }
  /// The number (when is_scalar()).
  double scalar() const { return values_.at(0); }
  /// The values, row-major.
  const std::vector<double>& values() const { return values_; }
  /// The array's shape (() for one number).
  const Shape& shape() const { return shape_; }

 private:
  std::vector<double> values_;
  Shape shape_;
};

/// The arguments of keras.layers.Rescaling other than `scale`.
struct RescalingOptions {
  /// Keras's `offset`: added after scaling.
  ScaleValue offset = 0.0;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Rescaling layer (Keras's "Rescaling").
class RescalingLayer : public Layer {
 public:
  /// A layer computing inputs * `scale` + offset (Keras's `scale`).
  RescalingLayer(ScaleValue scale, RescalingOptions options = {});
  std::string class_name() const override { return "Rescaling"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `scale`: the inputs are multiplied by it.
  const ScaleValue& scale() const { return scale_; }
  /// Keras's `offset`: added after scaling.
  const ScaleValue& offset() const { return options_.offset; }

 private:
  ScaleValue scale_;
  RescalingOptions options_;
};

/// A layer computing inputs * scale + offset.
LayerPtr<RescalingLayer> Rescaling(ScaleValue scale, RescalingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
