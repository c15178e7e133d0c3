#pragma once
// keras.layers.Flatten: (batch, ...) -> (batch, prod(...)); channels_first inputs are moved to
// channels_last first, so the element order matches a channels_last model.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct FlattenOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format().
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The Flatten layer (Keras's "Flatten").
class FlattenLayer : public Layer {
 public:
  explicit FlattenLayer(FlattenOptions options = {});
  std::string class_name() const override { return "Flatten"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  const std::string& data_format() const { return data_format_; }

 private:
  std::string data_format_;
};

/// A Flatten layer.
LayerPtr<FlattenLayer> Flatten(FlattenOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
