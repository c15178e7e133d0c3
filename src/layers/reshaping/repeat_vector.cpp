#include "keras/layers/reshaping/repeat_vector.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

RepeatVectorLayer::RepeatVectorLayer(int64_t n, RepeatVectorOptions options)
    : Layer(base_options(options), "repeat_vector"), n_(n) {
  check(n > 0, "RepeatVector: argument `n` should be a positive integer. Received: n=", n, ".");
}

void RepeatVectorLayer::build(const Shape& input_shape) {
  detail::check_input_rank(*this, input_shape, 2);
}

Tensor RepeatVectorLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  Tensor x = autocast(inputs);
  return ops::repeat(ops::expand_dims(x, 1), n_, 1);
}

Config RepeatVectorLayer::get_config() const {
  Config c = Layer::get_config();
  c["n"] = n_;
  return c;
}

std::shared_ptr<Layer> RepeatVectorLayer::from_config(const Config& c) {
  RepeatVectorOptions o;
  read_base_config(c, o);
  return std::make_shared<RepeatVectorLayer>(c.at("n").get<int64_t>(), o);
}

LayerPtr<RepeatVectorLayer> RepeatVector(int64_t n, RepeatVectorOptions options) {
  return make_layer<RepeatVectorLayer>(n, std::move(options));
}

}  // namespace keras::layers
