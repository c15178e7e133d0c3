#pragma once
// keras.layers.Cropping2D: trims the height and width axes of images.

#include <utility>
#include <vector>

#include "keras/layers/options.h"
#include "keras/layers/reshaping/side_pairs.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Cropping2D's keyword arguments.
struct Cropping2DOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Cropping2D layer (Keras's "Cropping2D").
class Cropping2DLayer : public Layer {
 public:
  /// `cropping`: `c` for every side, `{height, width}` symmetric amounts, or
  /// `{{top, bottom}, {left, right}}`.
  explicit Cropping2DLayer(SidePairs cropping = {{0, 0}, {0, 0}}, Cropping2DOptions options = {});
  std::string class_name() const override { return "Cropping2D"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The (start, end) amounts of each spatial axis.
  const std::vector<std::pair<int64_t, int64_t>>& cropping() const { return cropping_; }
  /// "channels_last" or "channels_first" (Keras's `data_format`), resolved from
  /// image_data_format() when not given.
  const std::string& data_format() const { return data_format_; }

 private:
  std::vector<std::pair<int64_t, int64_t>> cropping_;
  std::string data_format_;
};

/// A Cropping2D layer.
LayerPtr<Cropping2DLayer> Cropping2D(SidePairs cropping = {{0, 0}, {0, 0}}, Cropping2DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
