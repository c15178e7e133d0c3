#include "keras/layers/reshaping/zero_padding2d.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

ZeroPadding2DLayer::ZeroPadding2DLayer(SidePairs padding, ZeroPadding2DOptions options)
    : Layer(base_options(options), "zero_padding2d"),
      padding_(detail::resolve_pairs(padding, 2, "ZeroPadding2D", "padding")),
      data_format_(detail::standardize_data_format(options.data_format)) {}

void ZeroPadding2DLayer::build(const Shape& input_shape) { detail::check_input_rank(*this, input_shape, 4); }

Tensor ZeroPadding2DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  const int first = detail::first_spatial_axis(data_format_);
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(inputs.ndim()), {0, 0});
  for (int i = 0; i < 2; ++i) widths[static_cast<size_t>(first + i)] = padding_[static_cast<size_t>(i)];
  return ops::pad(autocast(inputs), widths);
}

Config ZeroPadding2DLayer::get_config() const {
  Config c = Layer::get_config();
  c["padding"] = detail::pairs_config(padding_);
  c["data_format"] = data_format_;
  return c;
}

std::shared_ptr<Layer> ZeroPadding2DLayer::from_config(const Config& c) {
  ZeroPadding2DOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && c["data_format"].is_string())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<ZeroPadding2DLayer>(detail::side_pairs_from_config(c.at("padding"), "ZeroPadding2D"), o);
}

LayerPtr<ZeroPadding2DLayer> ZeroPadding2D(SidePairs padding, ZeroPadding2DOptions options) {
  return make_layer<ZeroPadding2DLayer>(std::move(padding), std::move(options));
}

}  // namespace keras::layers
