#include "keras/layers/reshaping/zero_padding3d.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

ZeroPadding3DLayer::ZeroPadding3DLayer(SidePairs padding, ZeroPadding3DOptions options)
    : Layer(base_options(options), "zero_padding3d"),
      padding_(detail::resolve_pairs(padding, 3, "ZeroPadding3D", "padding")),
      data_format_(detail::standardize_data_format(options.data_format)) {}

void ZeroPadding3DLayer::build(const Shape& input_shape) { detail::check_input_rank(*this, input_shape, 5); }

Tensor ZeroPadding3DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  const int first = detail::first_spatial_axis(data_format_);
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(inputs.ndim()), {0, 0});
  for (int i = 0; i < 3; ++i) widths[static_cast<size_t>(first + i)] = padding_[static_cast<size_t>(i)];
  return ops::pad(autocast(inputs), widths);
}

Config ZeroPadding3DLayer::get_config() const {
  Config c = Layer::get_config();
  c["padding"] = detail::pairs_config(padding_);
  c["data_format"] = data_format_;
  return c;
}

std::shared_ptr<Layer> ZeroPadding3DLayer::from_config(const Config& c) {
  ZeroPadding3DOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && c["data_format"].is_string())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<ZeroPadding3DLayer>(detail::side_pairs_from_config(c.at("padding"), "ZeroPadding3D"), o);
}

LayerPtr<ZeroPadding3DLayer> ZeroPadding3D(SidePairs padding, ZeroPadding3DOptions options) {
  return make_layer<ZeroPadding3DLayer>(std::move(padding), std::move(options));
}

}  // namespace keras::layers
