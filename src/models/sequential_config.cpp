// Sequential's get_config / from_config in Keras 3's schema (keras/src/models/sequential.py):
// {"name", "trainable", "dtype", "layers": [records, the InputLayer first], "build_input_shape"}.

#include "keras/layers/input_layer.h"
#include "keras/layers/options.h"
#include "keras/models/sequential.h"
#include "keras/saving/safe_json.h"
#include "keras/saving/serialization.h"
#include "saving/shape_json.h"

namespace keras {

Config SequentialModel::get_config() const {
  Config c = Layer::get_config();
  Config layers = Config::array();
  if (input_.defined()) layers.push_back(saving::serialize_keras_object(*input_.producer()));
  for (const auto& layer : layers_) layers.push_back(saving::serialize_keras_object(*layer));
  c["layers"] = layers;
  if (input_.defined()) {
    c["build_input_shape"] = saving::shape_to_json(input_.shape());
  }
  return c;
}

std::shared_ptr<Layer> SequentialModel::from_config(const Config& config) {
  check(config.is_object() && config.contains("layers") && config["layers"].is_array(),
        "Sequential config: expected an object with a 'layers' list; got ",
        config.dump().substr(0, 200), ".");
  saving::check_count("layers", config["layers"].size(), saving::kMaxLayers, "Sequential config");
  LayerOptions options;
  layers::read_base_config(config, options);
  // Keras's Sequential.from_config passes only the name: the model takes the global policy
  // (so a mixed_float16 file compiles with a LossScaleOptimizer only under that policy).
  options.dtype.clear();
  auto model = make_layer<SequentialModel>(std::vector<SequentialItem>{}, options);
  for (const Config& record : config["layers"]) {
    check(record.is_object(), "Sequential config: a layer record must be an object; got ",
          record.dump().substr(0, 200), ".");
    if (record.value("class_name", Config()) == "InputLayer") {
      model->add(InputLayer::tensor_from_config(record.value("config", Config::object())));
      continue;
    }
    model->add(saving::deserialize_keras_object(
        record, {.safe_mode = saving::SafeModeScope::safe_mode(), .compile = false}));
  }
  const Config& shape = config.contains("build_input_shape") ? config["build_input_shape"]
                                                             : Config();
  if (!model->input_tensor().defined() && shape.is_array())
    model->ensure_built({saving::shape_from_json(shape, "Sequential config: build_input_shape")},
                        false);
  return model;
}

}  // namespace keras
