#pragma once
// keras.layers.ZeroPadding1D: zeros added at the start and end of the steps axis.

#include <utility>
#include <vector>

#include "keras/layers/options.h"
#include "keras/layers/reshaping/side_pairs.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// keras.layers.ZeroPadding1D's keyword arguments.
struct ZeroPadding1DOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The ZeroPadding1D layer (Keras's "ZeroPadding1D").
class ZeroPadding1DLayer : public Layer {
 public:
  /// `padding`: zeros added at the start and the end (`2` for both, or `{start, end}`).
  explicit ZeroPadding1DLayer(SidePair padding = 1, ZeroPadding1DOptions options = {});
  std::string class_name() const override { return "ZeroPadding1D"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The (start, end) amounts of each spatial axis.
  const std::vector<std::pair<int64_t, int64_t>>& padding() const { return padding_; }
  /// "channels_last" or "channels_first" (Keras's `data_format`), resolved from
  /// image_data_format() when not given.
  const std::string& data_format() const { return data_format_; }

 private:
  std::vector<std::pair<int64_t, int64_t>> padding_;
  std::string data_format_;
};

/// A ZeroPadding1D layer.
LayerPtr<ZeroPadding1DLayer> ZeroPadding1D(SidePair padding = 1, ZeroPadding1DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
