#include "keras/layers/reshaping/cropping1d.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

Cropping1DLayer::Cropping1DLayer(SidePair cropping, Cropping1DOptions options)
    : Layer(base_options(options), "cropping1d"),
      cropping_{detail::resolve_pair(cropping, "Cropping1D", "cropping")} {}

void Cropping1DLayer::build(const Shape& input_shape) { detail::check_input_rank(*this, input_shape, 3); }

Tensor Cropping1DLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  const int first = 1;
  const Shape& s = inputs.shape();
  std::vector<int64_t> starts(static_cast<size_t>(s.rank()), 0);
  Shape sizes = s;
  for (int i = 0; i < 1; ++i) {
    const auto [start, end] = cropping_[static_cast<size_t>(i)];
    const int64_t d = s[first + i];
    check(start + end < d, "Cropping1D '", name(),
          "': values in `cropping` should be smaller than the corresponding spatial dimension of "
          "the input. Received: inputs.shape=", s, ", cropping=", detail::pairs_config(cropping_).dump(),
          ".");
    starts[static_cast<size_t>(first + i)] = start;
    sizes[first + i] = d - start - end;
  }
  return ops::slice(autocast(inputs), starts, sizes);
}

Config Cropping1DLayer::get_config() const {
  Config c = Layer::get_config();
  c["cropping"] = detail::pair_config(cropping_[0]);
  return c;
}

std::shared_ptr<Layer> Cropping1DLayer::from_config(const Config& c) {
  Cropping1DOptions o;
  read_base_config(c, o);
  return std::make_shared<Cropping1DLayer>(detail::side_pair_from_config(c.at("cropping"), "Cropping1D"), o);
}

LayerPtr<Cropping1DLayer> Cropping1D(SidePair cropping, Cropping1DOptions options) {
  return make_layer<Cropping1DLayer>(std::move(cropping), std::move(options));
}

}  // namespace keras::layers
