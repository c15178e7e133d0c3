#include "keras/layers/merging/average.h"

#include "keras/ops/ops.h"

namespace keras::layers {

AverageLayer::AverageLayer(MergeOptions options) : MergeLayer(base_options(options), "average") {}

Tensor AverageLayer::merge_function(const TensorList& inputs, const TensorList&) {
  Tensor output = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) output = ops::add(output, inputs[i]);
  return ops::divide(output, Tensor(static_cast<int64_t>(inputs.size())));
}

std::shared_ptr<Layer> AverageLayer::from_config(const Config& c) {
  MergeOptions o;
  read_base_config(c, o);
  return std::make_shared<AverageLayer>(o);
}

LayerPtr<AverageLayer> Average(MergeOptions options) { return make_layer<AverageLayer>(std::move(options)); }

KerasTensor average(const std::vector<KerasTensor>& inputs, MergeOptions options) {
  return Average(std::move(options))(inputs).at(0);
}

Tensor average(const TensorList& inputs, MergeOptions options) {
  return Average(std::move(options))(inputs).at(0);
}

}  // namespace keras::layers
