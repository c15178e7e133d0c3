#include "keras/layers/reshaping/up_sampling3d.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

UpSampling3DLayer::UpSampling3DLayer(ops::IntOrTuple size, UpSampling3DOptions options)
    : Layer(base_options(options), "up_sampling3d"),
      data_format_(detail::standardize_data_format(options.data_format)) {
  std::vector<int64_t> s = detail::resolve_factors(
      std::vector<int64_t>(size.values().begin(), size.values().end()), size.is_scalar(), 3,
      "UpSampling3D", "size");
  size_ = {s[0], s[1], s[2]};
}

void UpSampling3DLayer::build(const Shape& input_shape) {
  detail::check_input_rank(*this, input_shape, 5);
}

Tensor UpSampling3DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  return detail::upsample_nearest(autocast(inputs),
                                  detail::first_spatial_axis(data_format_),
                                  {size_[0], size_[1], size_[2]});
}

Config UpSampling3DLayer::get_config() const {
  Config c = Layer::get_config();
  c["size"] = Config::array({size_[0], size_[1], size_[2]});
  c["data_format"] = data_format_;
  return c;
}

std::shared_ptr<Layer> UpSampling3DLayer::from_config(const Config& c) {
  UpSampling3DOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && c["data_format"].is_string())
    o.data_format = c["data_format"].get<std::string>();
  ops::IntOrTuple size = 2;
  if (c.contains("size")) {
    const Config& s = c["size"];
    size = s.is_number_integer() ? ops::IntOrTuple(s.get<int64_t>())
                                 : ops::IntOrTuple(s.get<std::vector<int64_t>>());
  }
  return std::make_shared<UpSampling3DLayer>(size, o);
}

LayerPtr<UpSampling3DLayer> UpSampling3D(ops::IntOrTuple size, UpSampling3DOptions options) {
  return make_layer<UpSampling3DLayer>(std::move(size), std::move(options));
}

}  // namespace keras::layers
