#include "keras/layers/reshaping/flatten.h"

#include <numeric>

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

FlattenLayer::FlattenLayer(FlattenOptions options)
    : Layer(base_options(options), "flatten"),
      data_format_(detail::standardize_data_format(options.data_format)) {}

void FlattenLayer::build(const Shape& input_shape) {
  check(input_shape.rank() >= 1, "Input 0 of layer \"", name(),
        "\" (Flatten) is incompatible with the layer: expected min_ndim=1, found ndim=0. Full "
        "shape received: ()");
}

Tensor FlattenLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  Tensor x = autocast(inputs);
  const int rank = x.ndim();
  if (data_format_ == "channels_first" && rank > 2) {
    // To channels_last first, so the flattened order is a channels_last model's.
    std::vector<int> perm{0};
    for (int a = 2; a < rank; ++a) perm.push_back(a);
    perm.push_back(1);
    x = ops::transpose(x, perm);
  }
  int64_t features = 1;
  for (int a = 1; a < rank; ++a) features *= x.shape()[a];
  return ops::reshape(x, {x.shape()[0], features});
}

Config FlattenLayer::get_config() const {
  Config c = Layer::get_config();
  c["data_format"] = data_format_;
  return c;
}

std::shared_ptr<Layer> FlattenLayer::from_config(const Config& c) {
  FlattenOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && c["data_format"].is_string())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<FlattenLayer>(o);
}

LayerPtr<FlattenLayer> Flatten(FlattenOptions options) {
  return make_layer<FlattenLayer>(std::move(options));
}

}  // namespace keras::layers
