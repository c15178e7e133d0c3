#include "keras/layers/reshaping/zero_padding1d.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

ZeroPadding1DLayer::ZeroPadding1DLayer(SidePair padding, ZeroPadding1DOptions options)
    : Layer(base_options(options), "zero_padding1d"),
      padding_{detail::resolve_pair(padding, "ZeroPadding1D", "padding")},
      data_format_(detail::standardize_data_format(options.data_format)) {}

void ZeroPadding1DLayer::build(const Shape& input_shape) { detail::check_input_rank(*this, input_shape, 3); }

Tensor ZeroPadding1DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  const int first = detail::first_spatial_axis(data_format_);
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(inputs.ndim()), {0, 0});
  for (int i = 0; i < 1; ++i) widths[static_cast<size_t>(first + i)] = padding_[static_cast<size_t>(i)];
  return ops::pad(autocast(inputs), widths);
}

Config ZeroPadding1DLayer::get_config() const {
  Config c = Layer::get_config();
  c["padding"] = detail::pair_config(padding_[0]);
  c["data_format"] = data_format_;
  return c;
}

std::shared_ptr<Layer> ZeroPadding1DLayer::from_config(const Config& c) {
  ZeroPadding1DOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && c["data_format"].is_string())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<ZeroPadding1DLayer>(detail::side_pair_from_config(c.at("padding"), "ZeroPadding1D"), o);
}

LayerPtr<ZeroPadding1DLayer> ZeroPadding1D(SidePair padding, ZeroPadding1DOptions options) {
  return make_layer<ZeroPadding1DLayer>(std::move(padding), std::move(options));
}

}  // namespace keras::layers
