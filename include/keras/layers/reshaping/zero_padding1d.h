#pragma once
// keras.layers.ZeroPadding1D: zeros added at the start and end of the steps axis.

#include <utility>
#include <vector>

#include "keras/layers/options.h"
#include "keras/layers/reshaping/side_pairs.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct ZeroPadding1DOptions {
  /// "channels_last" or "channels_first"; empty: keras::config::image_data_format().
  std::string data_format;
  std::string name;
  bool trainable = true;
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
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The (start, end) amounts of each spatial axis.
  const std::vector<std::pair<int64_t, int64_t>>& padding() const { return padding_; }
  const std::string& data_format() const { return data_format_; }

 private:
  std::vector<std::pair<int64_t, int64_t>> padding_;
  std::string data_format_;
};

/// A ZeroPadding1D layer.
LayerPtr<ZeroPadding1DLayer> ZeroPadding1D(SidePair padding = 1, ZeroPadding1DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
