#include "keras/layers/reshaping/cropping3d.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

Cropping3DLayer::Cropping3DLayer(SidePairs cropping, Cropping3DOptions options)
    : Layer(base_options(options), "cropping3d"),
      cropping_(detail::resolve_pairs(cropping, 3, "Cropping3D", "cropping")),
      data_format_(detail::standardize_data_format(options.data_format)) {}

void Cropping3DLayer::build(const Shape& input_shape) { detail::check_input_rank(*this, input_shape, 5); }

Tensor Cropping3DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  const int first = detail::first_spatial_axis(data_format_);
  const Shape& s = inputs.shape();
  std::vector<int64_t> starts(static_cast<size_t>(s.rank()), 0);
  Shape sizes = s;
  for (int i = 0; i < 3; ++i) {
    const auto [start, end] = cropping_[static_cast<size_t>(i)];
    const int64_t d = s[first + i];
    check(start + end < d, "Cropping3D '", name(),
          "': values in `cropping` should be smaller than the corresponding spatial dimension of "
          "the input. Received: inputs.shape=", s, ", cropping=", detail::pairs_config(cropping_).dump(),
          ".");
    starts[static_cast<size_t>(first + i)] = start;
    sizes[first + i] = d - start - end;
  }
  return ops::slice(autocast(inputs), starts, sizes);
}

Config Cropping3DLayer::get_config() const {
  Config c = Layer::get_config();
  c["cropping"] = detail::pairs_config(cropping_);
  c["data_format"] = data_format_;
  return c;
}

std::shared_ptr<Layer> Cropping3DLayer::from_config(const Config& c) {
  Cropping3DOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && c["data_format"].is_string())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<Cropping3DLayer>(detail::side_pairs_from_config(c.at("cropping"), "Cropping3D"), o);
}

LayerPtr<Cropping3DLayer> Cropping3D(SidePairs cropping, Cropping3DOptions options) {
  return make_layer<Cropping3DLayer>(std::move(cropping), std::move(options));
}

}  // namespace keras::layers
