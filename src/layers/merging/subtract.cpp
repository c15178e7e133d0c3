#include "keras/layers/merging/subtract.h"

#include "keras/ops/ops.h"

namespace keras::layers {

SubtractLayer::SubtractLayer(MergeOptions options) : MergeLayer(base_options(options), "subtract") {}

void SubtractLayer::check_shapes(const std::vector<Shape>& input_shapes) const {
  MergeLayer::check_shapes(input_shapes);
  check(input_shapes.size() == 2, "A `Subtract` layer ('", name(),
        "') should be called on exactly 2 inputs. Received ", input_shapes.size(), " inputs.");
}

Tensor SubtractLayer::merge_function(const TensorList& inputs, const TensorList&) {
  check(inputs.size() == 2, "Subtract '", name(),
        "' should be called on exactly 2 inputs. Received ", inputs.size(), " inputs.");
  return ops::subtract(inputs[0], inputs[1]);
}

std::shared_ptr<Layer> SubtractLayer::from_config(const Config& c) {
  MergeOptions o;
  read_base_config(c, o);
  return std::make_shared<SubtractLayer>(o);
}

LayerPtr<SubtractLayer> Subtract(MergeOptions options) { return make_layer<SubtractLayer>(std::move(options)); }

KerasTensor subtract(const std::vector<KerasTensor>& inputs, MergeOptions options) {
  return Subtract(std::move(options))(inputs).at(0);
}

Tensor subtract(const TensorList& inputs, MergeOptions options) {
  return Subtract(std::move(options))(inputs).at(0);
}

}  // namespace keras::layers
