#include "keras/layers/reshaping/cropping2d.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

Cropping2DLayer::Cropping2DLayer(SidePairs cropping, Cropping2DOptions options)
    : Layer(base_options(options), "cropping2d"),
      cropping_(detail::resolve_pairs(cropping, 2, "Cropping2D", "cropping")),
      data_format_(detail::standardize_data_format(options.data_format)) {}

void Cropping2DLayer::build(const Shape& input_shape) { detail::check_input_rank(*this, input_shape, 4); }

Tensor Cropping2DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  const int first = detail::first_spatial_axis(data_format_);
  const Shape& s = inputs.shape();
  std::vector<int64_t> starts(static_cast<size_t>(s.rank()), 0);
  Shape sizes = s;
  for (int i = 0; i < 2; ++i) {
    const auto [start, end] = cropping_[static_cast<size_t>(i)];
    const int64_t d = s[first + i];
    check(start + end < d, "Cropping2D '", name(),
          "': values in `cropping` should be smaller than the corresponding spatial dimension of "
          "the input. Received: inputs.shape=", s, ", cropping=", detail::pairs_config(cropping_).dump(),
          ".");
    starts[static_cast<size_t>(first + i)] = start;
    sizes[first + i] = d - start - end;
  }
  return ops::slice(autocast(inputs), starts, sizes);
}

Config Cropping2DLayer::get_config() const {
  Config c = Layer::get_config();
  c["cropping"] = detail::pairs_config(cropping_);
  c["data_format"] = data_format_;
  return c;
}

std::shared_ptr<Layer> Cropping2DLayer::from_config(const Config& c) {
  Cropping2DOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && c["data_format"].is_string())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<Cropping2DLayer>(detail::side_pairs_from_config(c.at("cropping"), "Cropping2D"), o);
}

LayerPtr<Cropping2DLayer> Cropping2D(SidePairs cropping, Cropping2DOptions options) {
  return make_layer<Cropping2DLayer>(std::move(cropping), std::move(options));
}

}  // namespace keras::layers
