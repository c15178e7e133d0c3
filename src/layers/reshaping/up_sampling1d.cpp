#include "keras/layers/reshaping/up_sampling1d.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

UpSampling1DLayer::UpSampling1DLayer(int64_t size, UpSampling1DOptions options)
    : Layer(base_options(options), "up_sampling1d"), size_(size) {
  check(size > 0, "UpSampling1D: argument `size` should be a positive integer. Received: size=",
        size, ".");
}

void UpSampling1DLayer::build(const Shape& input_shape) {
  detail::check_input_rank(*this, input_shape, 3);
}

Tensor UpSampling1DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  return detail::upsample_nearest(autocast(inputs), 1, {size_});
}

Config UpSampling1DLayer::get_config() const {
  Config c = Layer::get_config();
  c["size"] = size_;
  return c;
}

std::shared_ptr<Layer> UpSampling1DLayer::from_config(const Config& c) {
  UpSampling1DOptions o;
  read_base_config(c, o);
  return std::make_shared<UpSampling1DLayer>(c.value("size", int64_t{2}), o);
}

LayerPtr<UpSampling1DLayer> UpSampling1D(int64_t size, UpSampling1DOptions options) {
  return make_layer<UpSampling1DLayer>(size, std::move(options));
}

}  // namespace keras::layers
