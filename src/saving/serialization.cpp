#include "keras/saving/serialization.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "keras/autograd/gradient_tape.h"
#include "keras/backend/registry.h"
#include "keras/layers/operation_layer.h"
#include "keras/models/model.h"
#include "keras/ops/ops.h"
#include "saving/shape_json.h"

namespace keras::saving {
namespace {

struct CustomRegistry {
  std::mutex mutex;
  std::map<std::string, std::string> name_of_class;  // class_name -> "package>Name"
  std::map<std::string, layers::LayerFactory> factories;  // "package>Name" -> factory
};

CustomRegistry& custom() {
  static CustomRegistry* registry = new CustomRegistry();
  return *registry;
}

thread_local bool tls_safe_mode = true;

// Model.build_from_config of a subclassed model without a build() of its own
// (_build_by_run_for_single_pos_arg / _build_by_run_for_kwargs): its sublayers get their state
// from a call on data-free tensors of the recorded shapes (unknown dimensions as 83, as in
// shape inference), so that the saved weights have variables to load into. Done when build()
// left a sublayer unbuilt; Sequential and Functional build their layers themselves.
void build_sublayers_by_run(Layer& layer, const std::vector<Shape>& shapes, bool list_input) {
  auto* model = dynamic_cast<Model*>(&layer);
  if (!model || layer.class_name() == "Sequential" || layer.class_name() == "Functional") return;
  const auto children = model->layers();
  if (std::all_of(children.begin(), children.end(),
                  [](const std::shared_ptr<Layer>& child) { return child->built(); }))
    return;
  backend::BackendScope symbolic("symbolic");
  NoGradScope no_grad;
  TensorList xs;
  for (const Shape& shape : shapes) {
    Shape concrete = shape;
    for (int64_t& d : concrete)
      if (d < 0) d = 83;
    xs.push_back(ops::zeros(concrete, layer.compute_dtype()));
  }
  if (list_input) layer(xs, {.training = false});
  else layer(xs[0], {.training = false});
}

// Layer.build_from_config: build from the recorded input shape(s) unless already built.
void build_from_config(Layer& layer, const Config& config) {
  if (layer.built() || !config.is_object()) return;
  std::string where = "build_config of layer '" + layer.name() + "'";
  std::vector<Shape> shapes;
  bool list_input = false;
  if (config.contains("input_shape") && !config["input_shape"].is_null()) {
    const Config& s = config["input_shape"];
    if (s.is_array() && !s.empty() && s[0].is_array()) {
      for (const Config& one : s) shapes.push_back(shape_from_json(one, where));
      list_input = true;
    } else {
      shapes.push_back(shape_from_json(s, where));
    }
  } else if (config.contains("shapes_dict") && config["shapes_dict"].is_object()) {
    // The arguments of build() by name. JSON objects lose their order here (Config keeps keys
    // sorted), so the arguments of Keras's build signatures are taken in signature order.
    const Config& dict = config["shapes_dict"];
    if (dict.contains("sequences_shape")) {
      // RNN.build(sequences_shape, initial_state_shape=None): built as keras-cpp's list call
      // {sequences, states...} when states were given (one shape, or a list of them).
      shapes.push_back(shape_from_json(dict["sequences_shape"], where + " [sequences_shape]"));
      const Config states = dict.value("initial_state_shape", Config());
      if (states.is_array() && !states.empty() && states[0].is_array()) {
        for (const Config& s : states)
          shapes.push_back(shape_from_json(s, where + " [initial_state_shape]"));
      } else if (!states.is_null()) {
        shapes.push_back(shape_from_json(states, where + " [initial_state_shape]"));
      }
      list_input = shapes.size() > 1;
    } else {
      std::vector<std::string> keys;
      for (const char* k : {"query_shape", "value_shape", "key_shape"})
        if (dict.contains(k) && !dict[k].is_null()) keys.push_back(k);
      for (const auto& [key, s] : dict.items())
        if (std::find(keys.begin(), keys.end(), key) == keys.end() && !s.is_null())
          keys.push_back(key);
      for (const std::string& key : keys)
        shapes.push_back(shape_from_json(dict[key], where + " [" + key + "]"));
      list_input = shapes.size() > 1;
    }
  }
  if (shapes.empty()) return;
  layer.ensure_built(shapes, list_input);
  build_sublayers_by_run(layer, shapes, list_input);
}

}  // namespace

SafeModeScope::SafeModeScope(bool safe_mode) : previous_(tls_safe_mode) {
  tls_safe_mode = safe_mode;
}
SafeModeScope::~SafeModeScope() { tls_safe_mode = previous_; }
bool SafeModeScope::safe_mode() { return tls_safe_mode; }

void register_keras_serializable(const std::string& package, const std::string& class_name,
                                 layers::LayerFactory factory) {
  check(!class_name.empty() && class_name.find('>') == std::string::npos,
        "register_keras_serializable: invalid class name '", class_name, "'.");
  check(package.find('>') == std::string::npos, "register_keras_serializable: the package '",
        package, "' may not contain '>'.");
  check(static_cast<bool>(factory), "register_keras_serializable: no factory for '", class_name,
        "'.");
  std::string registered = package + ">" + class_name;
  CustomRegistry& r = custom();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.name_of_class[class_name] = registered;
  r.factories[registered] = std::move(factory);
}

std::string get_registered_name(const std::string& class_name) {
  CustomRegistry& r = custom();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.name_of_class.find(class_name);
  return it == r.name_of_class.end() ? std::string() : it->second;
}

layers::LayerFactory get_registered_object(const std::string& name) {
  {
    CustomRegistry& r = custom();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.factories.find(name);
    if (it != r.factories.end()) return it->second;
  }
  for (const std::string& builtin : layers::registered_layers())
    if (builtin == name)
      return [name](const Config& c) { return layers::from_config(name, c); };
  return nullptr;
}


Config serialize_keras_object(const Layer& layer) {
  std::string class_name = layer.class_name();
  Config record;
  if (auto* op = dynamic_cast<const layers::OperationLayer*>(&layer)) {
    // A Keras op class (keras.src.ops.*): registered under its own name, never built.
    return {{"module", op->module()},
            {"class_name", class_name},
            {"config", op->get_config()},
            {"registered_name", class_name}};
  }
  std::string registered = get_registered_name(class_name);
  if (!registered.empty()) {
    std::string package = registered.substr(0, registered.find('>'));
    record["module"] = package;
    record["class_name"] = class_name;
    record["config"] = layer.get_config();
    record["registered_name"] = registered;
  } else if (class_name == "Functional") {
    // The Functional class is not exported by Keras, so it is written by its source module.
    record["module"] = "keras.src.models.functional";
    record["class_name"] = "Functional";
    record["config"] = layer.get_config();
    record["registered_name"] = "Functional";
  } else {
    const std::string module = layers::keras_module(class_name);
    record["module"] = class_name == "Sequential" ? "keras" : module;
    record["class_name"] = layers::keras_class_name(class_name);
    record["config"] = layer.get_config();
    // Keras's unexported classes are registered under their own class name.
    record["registered_name"] = module == "keras.layers" ? Config(nullptr) : Config(class_name);
  }
  auto* model = dynamic_cast<const Model*>(&layer);
  if (class_name == "Functional") {
    record["build_config"] = {{"input_shape", nullptr}};
  } else if (class_name != "InputLayer") {
    Config build = layers::get_build_config(layer);
    if (!build.is_null()) record["build_config"] = build;
  }
  if (model) record["compile_config"] = model->get_compile_config();
  return record;
}

namespace {

std::shared_ptr<Layer> deserialize_record(const Config& record, const DeserializeOptions& options) {
  check(record.is_object() && record.contains("class_name") && record["class_name"].is_string(),
        "deserialize_keras_object: expected a {\"class_name\", \"config\", ...} record; got ",
        record.dump().substr(0, 200), ".");
  SafeModeScope scope(options.safe_mode);
  const std::string class_name = record["class_name"].get<std::string>();
  const Config config = record.contains("config") ? record["config"] : Config::object();
  check(config.is_object(), "deserialize_keras_object: the config of '", class_name,
        "' must be an object; got ", config.dump().substr(0, 200), ".");
  check(class_name != "__lambda__",
        "deserialize_keras_object: the record is a Python lambda (bytecode). keras-cpp never "
        "executes code from a file; register a C++ function with keras::layers::register_lambda "
        "and use a Lambda layer naming it.");

  if (layers::OperationLayer::is_operation_record(record))
    return layers::OperationLayer::from_record(record);
  std::shared_ptr<Layer> layer;
  std::string registered;
  if (record.contains("registered_name") && record["registered_name"].is_string())
    registered = record["registered_name"].get<std::string>();
  if (registered.find('>') != std::string::npos) {
    layers::LayerFactory factory = get_registered_object(registered);
    if (!factory) {
      // A custom class from Python (or C++) that this program has not registered.
      std::string module = record.value("module", Config()).is_string()
                               ? record["module"].get<std::string>()
                               : std::string("(none)");
      std::string package = registered.substr(0, registered.find('>'));
      throw ValueError("Could not locate class '" + class_name + "' (registered name '" +
                       registered + "', module " + module +
                       "). Register a C++ implementation before loading: "
                       "keras::saving::register_keras_serializable<YourLayer>(\"" + package +
                       "\", \"" + class_name + "\").");
    }
    layer = factory(config);
  } else {
    layer = layers::from_config(class_name, config);
  }
  check(static_cast<bool>(layer), "deserialize_keras_object: the factory of '", class_name,
        "' returned no layer.");
  if (record.contains("build_config")) build_from_config(*layer, record["build_config"]);
  auto* model = dynamic_cast<Model*>(layer.get());
  if (model && options.compile && record.contains("compile_config") &&
      record["compile_config"].is_object() && !record["compile_config"].empty())
    model->compile_from_config(record["compile_config"]);
  return layer;
}

}  // namespace

std::shared_ptr<Layer> deserialize_keras_object(const Config& record,
                                                const DeserializeOptions& options) {
  try {
    return deserialize_record(record, options);
  } catch (const Config::exception& e) {
    // A registered factory, build_config or compile_config reading a missing key or a value of
    // the wrong JSON type (built-in layers' configs are caught by layers::from_config).
    const std::string class_name =
        record.is_object() && record.contains("class_name") && record["class_name"].is_string()
            ? record["class_name"].get<std::string>()
            : std::string("?");
    throw ValueError(keras::detail::cat("deserialize_keras_object: the record of class '",
                                        class_name, "' cannot be read: ", e.what(), "."));
  }
}

}  // namespace keras::saving
