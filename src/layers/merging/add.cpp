#include "keras/layers/merging/add.h"

#include "keras/ops/ops.h"

namespace keras::layers {

AddLayer::AddLayer(MergeOptions options) : MergeLayer(base_options(options), "add") {}

Tensor AddLayer::merge_function(const TensorList& inputs, const TensorList&) {
  Tensor output = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) output = ops::add(output, inputs[i]);
  return output;
}

std::shared_ptr<Layer> AddLayer::from_config(const Config& c) {
  MergeOptions o;
  read_base_config(c, o);
  return std::make_shared<AddLayer>(o);
}

LayerPtr<AddLayer> Add(MergeOptions options) { return make_layer<AddLayer>(std::move(options)); }

KerasTensor add(const std::vector<KerasTensor>& inputs, MergeOptions options) {
  return Add(std::move(options))(inputs).at(0);
}

Tensor add(const TensorList& inputs, MergeOptions options) {
  return Add(std::move(options))(inputs).at(0);
}

}  // namespace keras::layers
