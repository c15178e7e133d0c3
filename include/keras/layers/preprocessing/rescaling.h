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
  ScaleValue(double value) : values_{value} {}  // NOLINT: numbers convert
  ScaleValue(std::initializer_list<double> values)  // NOLINT
      : values_(values), shape_{static_cast<int64_t>(values.size())} {}
  /// An array of `values` with `shape` (row-major).
  ScaleValue(std::vector<double> values, Shape shape);
  /// The values of a host tensor.
  static ScaleValue from_tensor(const Tensor& t);

  bool is_scalar() const { return shape_.rank() == 0; }
  double scalar() const { return values_.at(0); }
  const std::vector<double>& values() const { return values_; }
  const Shape& shape() const { return shape_; }

 private:
  std::vector<double> values_;
  Shape shape_;
};

struct RescalingOptions {
  ScaleValue offset = 0.0;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Rescaling layer (Keras's "Rescaling").
class RescalingLayer : public Layer {
 public:
  RescalingLayer(ScaleValue scale, RescalingOptions options = {});
  std::string class_name() const override { return "Rescaling"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  const ScaleValue& scale() const { return scale_; }
  const ScaleValue& offset() const { return options_.offset; }

 private:
  ScaleValue scale_;
  RescalingOptions options_;
};

/// A layer computing inputs * scale + offset.
LayerPtr<RescalingLayer> Rescaling(ScaleValue scale, RescalingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
