#include "keras/layers/merging/minimum.h"

#include "keras/ops/ops.h"

namespace keras::layers {

MinimumLayer::MinimumLayer(MergeOptions options) : MergeLayer(base_options(options), "minimum") {}

Tensor MinimumLayer::merge_function(const TensorList& inputs, const TensorList& masks) {
  return apply_merge_op_and_or_mask(inputs, masks, &ops::minimum);
}

std::shared_ptr<Layer> MinimumLayer::from_config(const Config& c) {
  MergeOptions o;
  read_base_config(c, o);
  return std::make_shared<MinimumLayer>(o);
}

LayerPtr<MinimumLayer> Minimum(MergeOptions options) { return make_layer<MinimumLayer>(std::move(options)); }

KerasTensor minimum(const std::vector<KerasTensor>& inputs, MergeOptions options) {
  return Minimum(std::move(options))(inputs).at(0);
}

Tensor minimum(const TensorList& inputs, MergeOptions options) {
  return Minimum(std::move(options))(inputs).at(0);
}

}  // namespace keras::layers
