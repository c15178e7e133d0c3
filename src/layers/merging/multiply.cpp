#include "keras/layers/merging/multiply.h"

#include "keras/ops/ops.h"

namespace keras::layers {

MultiplyLayer::MultiplyLayer(MergeOptions options) : MergeLayer(base_options(options), "multiply") {}

Tensor MultiplyLayer::merge_function(const TensorList& inputs, const TensorList& masks) {
  // Masked entries count as 1; where every input is masked the product is 0.
  bool has_output_mask = !masks.empty();
  for (const Tensor& m : masks) has_output_mask = has_output_mask && m.defined();
  Tensor output, output_mask;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Tensor x = inputs[i];
    if (!masks.empty() && masks[i].defined()) {
      Tensor mask = ops::broadcast_to(ops::expand_dims(masks[i], -1), x.shape());
      x = ops::where(mask, x, ops::cast(Tensor(1), x.dtype()));
      if (has_output_mask)
        output_mask = output_mask.defined() ? ops::logical_or(output_mask, mask) : mask;
    }
    output = output.defined() ? ops::multiply(output, x) : x;
  }
  if (has_output_mask) output = ops::where(output_mask, output, ops::cast(Tensor(0), output.dtype()));
  return output;
}

std::shared_ptr<Layer> MultiplyLayer::from_config(const Config& c) {
  MergeOptions o;
  read_base_config(c, o);
  return std::make_shared<MultiplyLayer>(o);
}

LayerPtr<MultiplyLayer> Multiply(MergeOptions options) { return make_layer<MultiplyLayer>(std::move(options)); }

KerasTensor multiply(const std::vector<KerasTensor>& inputs, MergeOptions options) {
  return Multiply(std::move(options))(inputs).at(0);
}

Tensor multiply(const TensorList& inputs, MergeOptions options) {
  return Multiply(std::move(options))(inputs).at(0);
}

}  // namespace keras::layers
