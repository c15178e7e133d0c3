#pragma once
// keras.layers.Flatten: (batch, ...) -> (batch, prod(...)); channels_first inputs are moved to
// channels_last first, so the element order matches a channels_last model.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Flatten's keyword arguments.
struct FlattenOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Flatten layer (Keras's "Flatten").
class FlattenLayer : public Layer {
 public:
  /// keras.layers.Flatten: reshapes (batch, ...) inputs to (batch, product of the rest).
  explicit FlattenLayer(FlattenOptions options = {});
  std::string class_name() const override { return "Flatten"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// "channels_last" or "channels_first" (Keras's `data_format`), resolved from
  /// image_data_format() when not given.
  const std::string& data_format() const { return data_format_; }

 private:
  std::string data_format_;
};

/// A Flatten layer.
LayerPtr<FlattenLayer> Flatten(FlattenOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
