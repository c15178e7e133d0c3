#include "keras/layers/input_layer.h"

#include "keras/core/config.h"

namespace keras {

InputLayer::InputLayer(Shape batch_shape, DType dtype, std::string name, bool optional)
    : Layer({.name = std::move(name)}, "input_layer"),
      batch_shape_(std::move(batch_shape)),
      dtype_(dtype),
      optional_(optional) {
  set_built(true);
}

KerasTensor InputLayer::make(Shape batch_shape, DType dtype, std::string name, bool optional) {
  auto layer = make_layer<InputLayer>(batch_shape, dtype, std::move(name), optional);
  auto node = std::make_shared<Node>();
  node->layer = layer;
  node->output_shapes = {batch_shape};
  node->output_dtypes = {dtype};
  layer->register_input_node(node);
  return KerasTensor::make(batch_shape, dtype, node, 0, layer->name());
}

Config InputLayer::get_config() const {
  Config shape = Config::array();
  for (int64_t d : batch_shape_) shape.push_back(d < 0 ? Config(nullptr) : Config(d));
  return {{"batch_shape", shape},
          {"dtype", std::string(dtype_name(dtype_))},
          {"sparse", false},
          {"ragged", false},
          {"name", name()},
          {"optional", optional_}};
}

Tensor InputLayer::call(const Tensor& inputs, const CallContext&) { return inputs; }

KerasTensor Input(const Shape& shape, InputOptions options) {
  Shape batch_shape;
  if (options.batch_shape) {
    batch_shape = *options.batch_shape;
  } else {
    batch_shape.push_back(options.batch_size.value_or(kUnknownDim));
    for (int64_t d : shape) batch_shape.push_back(d);
  }
  for (int64_t d : batch_shape)
    check(d >= -1, "Input: invalid dimension ", d, " in shape ", shape_string(batch_shape),
          " (use -1 for an unknown dimension).");
  DType dtype = options.dtype.value_or(config::floatx());
  return InputLayer::make(batch_shape, dtype, options.name, options.optional);
}

}  // namespace keras
