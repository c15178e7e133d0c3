#pragma once
// keras.layers.Cropping3D: trims the three spatial axes of volumes.

#include <utility>
#include <vector>

#include "keras/layers/options.h"
#include "keras/layers/reshaping/side_pairs.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.Cropping3D's keyword arguments.
struct Cropping3DOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Cropping3D layer (Keras's "Cropping3D").
class Cropping3DLayer : public Layer {
 public:
  /// `cropping`: `c` for every side, `{d1, d2, d3}` symmetric amounts, or one
  /// `{start, end}` pair per spatial axis.
  explicit Cropping3DLayer(SidePairs cropping = {{1, 1}, {1, 1}, {1, 1}}, Cropping3DOptions options = {});
  std::string class_name() const override { return "Cropping3D"; }
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

/// A Cropping3D layer.
LayerPtr<Cropping3DLayer> Cropping3D(SidePairs cropping = {{1, 1}, {1, 1}, {1, 1}}, Cropping3DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
