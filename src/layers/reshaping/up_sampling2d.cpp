#include "keras/layers/reshaping/up_sampling2d.h"

#include <algorithm>
#include <cctype>

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

UpSampling2DLayer::UpSampling2DLayer(ops::IntOrTuple size, UpSampling2DOptions options)
    : Layer(base_options(options), "up_sampling2d"),
      data_format_(detail::standardize_data_format(options.data_format)),
      interpolation_(lower(options.interpolation)) {
  std::vector<int64_t> s = detail::resolve_factors(
      std::vector<int64_t>(size.values().begin(), size.values().end()), size.is_scalar(), 2,
      "UpSampling2D", "size");
  size_ = {s[0], s[1]};
  check(interpolation_ == "nearest" || interpolation_ == "bilinear",
        "UpSampling2D: interpolation '", options.interpolation,
        "' is not supported; keras-cpp implements \"nearest\" and \"bilinear\".");
}

void UpSampling2DLayer::build(const Shape& input_shape) {
  detail::check_input_rank(*this, input_shape, 4);
}

Tensor UpSampling2DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  Tensor x = autocast(inputs);
  const int first = detail::first_spatial_axis(data_format_);
  const std::vector<int64_t> factors{size_[0], size_[1]};
  if (interpolation_ == "nearest") return detail::upsample_nearest(x, first, factors);
  return detail::upsample_linear(x, first, factors);
}

Config UpSampling2DLayer::get_config() const {
  Config c = Layer::get_config();
  c["size"] = Config::array({size_[0], size_[1]});
  c["data_format"] = data_format_;
  c["interpolation"] = interpolation_;
  return c;
}

std::shared_ptr<Layer> UpSampling2DLayer::from_config(const Config& c) {
  UpSampling2DOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && c["data_format"].is_string())
    o.data_format = c["data_format"].get<std::string>();
  if (c.contains("interpolation")) o.interpolation = c["interpolation"].get<std::string>();
  ops::IntOrTuple size = 2;
  if (c.contains("size")) {
    const Config& s = c["size"];
    size = s.is_number_integer() ? ops::IntOrTuple(s.get<int64_t>())
                                 : ops::IntOrTuple(s.get<std::vector<int64_t>>());
  }
  return std::make_shared<UpSampling2DLayer>(size, o);
}

LayerPtr<UpSampling2DLayer> UpSampling2D(ops::IntOrTuple size, UpSampling2DOptions options) {
  return make_layer<UpSampling2DLayer>(std::move(size), std::move(options));
}

}  // namespace keras::layers
