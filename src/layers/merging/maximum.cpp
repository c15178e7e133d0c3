#include "keras/layers/merging/maximum.h"

#include "keras/ops/ops.h"

namespace keras::layers {

MaximumLayer::MaximumLayer(MergeOptions options) : MergeLayer(base_options(options), "maximum") {}

Tensor MaximumLayer::merge_function(const TensorList& inputs, const TensorList& masks) {
  return apply_merge_op_and_or_mask(inputs, masks, &ops::maximum);
}

std::shared_ptr<Layer> MaximumLayer::from_config(const Config& c) {
  MergeOptions o;
  read_base_config(c, o);
  return std::make_shared<MaximumLayer>(o);
}

LayerPtr<MaximumLayer> Maximum(MergeOptions options) { return make_layer<MaximumLayer>(std::move(options)); }

KerasTensor maximum(const std::vector<KerasTensor>& inputs, MergeOptions options) {
  return Maximum(std::move(options))(inputs).at(0);
}

Tensor maximum(const TensorList& inputs, MergeOptions options) {
  return Maximum(std::move(options))(inputs).at(0);
}

}  // namespace keras::layers
