#include "keras/layers/input_layer.h"

#include "keras/core/config.h"
#include "saving/shape_json.h"

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
  Config c = {{"batch_shape", saving::shape_to_json(batch_shape_)},
              {"dtype", std::string(dtype_name(dtype_))},
              {"sparse", false},
              {"ragged", false},
              {"name", name()}};
  // Keras 3.13 added "optional"; it is written only when set, so that Keras 3.10-3.12 (which
  // refuse unknown InputLayer arguments) read the file too.
  if (optional_) c["optional"] = true;
  return c;
}

KerasTensor InputLayer::tensor_from_config(const Config& config) {
  check(config.is_object(), "InputLayer config: expected an object; got ",
        config.dump().substr(0, 200), ".");
  const char* key = config.contains("batch_shape") ? "batch_shape" : "batch_input_shape";
  check(config.contains(key), "InputLayer config: expected 'batch_shape' (a list of sizes or "
        "null); got ", config.dump().substr(0, 200), ".");
  Shape batch_shape = saving::shape_from_json(config[key], "InputLayer config: batch_shape");
  DType dtype = config::floatx();
  if (config.contains("dtype")) {
    const Config& d = config["dtype"];
    if (d.is_string()) dtype = dtype_from_string(d.get<std::string>());
    else if (d.is_object() && d.contains("config") && d["config"].contains("name"))
      dtype = DTypePolicy::from_name(d["config"]["name"].get<std::string>()).compute_dtype;
  }
  check<NotImplementedError>(!config.value("sparse", false) && !config.value("ragged", false),
                             "InputLayer config: sparse and ragged inputs are not supported.");
  std::string name = config.value("name", Config()).is_string() ? config["name"].get<std::string>()
                                                                : std::string();
  return make(batch_shape, dtype, name, config.value("optional", false));
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
