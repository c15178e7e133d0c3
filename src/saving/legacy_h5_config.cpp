// Keras 2 model configs -> Keras 3 object records. The facts follow Keras's own legacy path
// (keras/src/legacy/saving/saving_utils.py model_from_config, serialization.py, and
// functional.py deserialize_node): the legacy dialect has no module/registered_name, string
// dtypes, InputLayer batch_input_shape, nodes as [[layer, node, tensor, kwargs], ...].

#include <map>
#include <string>

#include "keras/core/errors.h"
#include "keras/saving/legacy_h5.h"

namespace keras::saving::legacy {
namespace {

constexpr int kMaxNesting = 64;  // nested models/wrappers deeper than this are not a real model

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The start of a JSON value, for error messages.
std::string snippet(const Config& value) {
  std::string text = value.dump();
  return text.size() > 200 ? text.substr(0, 200) + "..." : text;
}

bool is_record(const Config& value) {
  return value.is_object() && value.contains("class_name") && value["class_name"].is_string();
}

bool is_model_class(const std::string& class_name) {
  return class_name == "Model" || class_name == "Functional" || class_name == "Sequential";
}

// A {class_name, config} record of a non-layer object given its Keras 3 module; records that
// already carry a module (Keras 2.13 writes them for initializers) keep it.
Config object_record(const Config& record, const std::string& module) {
  Config out = record;
  if (!out.contains("module")) out["module"] = module;
  if (!out.contains("registered_name")) out["registered_name"] = nullptr;
  if (!out.contains("config")) out["config"] = Config::object();
  return out;
}

// The layer dtype: a string stays a string (the Keras 3 loader accepts it); a mixed-precision
// Policy record becomes a DTypePolicy record.
Config translate_dtype(const Config& dtype) {
  if (!is_record(dtype)) return dtype;
  std::string name = dtype.contains("config") && dtype["config"].contains("name")
                         ? dtype["config"]["name"].get<std::string>()
                         : "float32";
  return {{"module", "keras"},
          {"class_name", "DTypePolicy"},
          {"config", {{"name", name}}},
          {"registered_name", nullptr}};
}

Config translate_layer(const Config& record, int depth);
Config translate_model(const Config& record, int depth);

// Keras 2 arguments that Keras 3 dropped (its constructors pop and ignore them, or have no
// such argument and nothing to do with it): Embedding's input_length, the RNN layers'
// implementation and time_major=false.
bool dropped_key(const std::string& class_name, const std::string& key, const Config& value) {
  if (class_name == "Embedding" && key == "input_length") return true;
  const bool rnn = class_name == "LSTM" || class_name == "GRU" || class_name == "SimpleRNN" ||
                   class_name == "LSTMCell" || class_name == "GRUCell";
  if (rnn && key == "implementation") return true;
  return rnn && key == "time_major" && value == false;
}

// A layer's inner config: nested objects get their Keras 3 modules, sublayers are translated.
Config translate_layer_config(const std::string& class_name, const Config& config, int depth) {
  Config out = Config::object();
  for (const auto& [key, value] : config.items()) {
    if (key == "batch_input_shape") {
      // InputLayer's batch_input_shape is Keras 3's batch_shape; on other layers it only named
      // the model's input (handled by the Sequential translation) and has no Keras 3 argument.
      if (class_name == "InputLayer") out["batch_shape"] = value;
    } else if (dropped_key(class_name, key, value)) {
      continue;
    } else if (class_name == "LeakyReLU" && key == "alpha") {
      out["negative_slope"] = value;  // renamed in Keras 3
    } else if (key == "dtype") {
      out[key] = translate_dtype(value);
    } else if (key == "axis" && value.is_array() && value.size() == 1 &&
               value[0].is_number_integer()) {
      out[key] = value[0];  // model_from_config: a one-element axis list is that axis
    } else if (is_record(value) && (ends_with(key, "_initializer"))) {
      out[key] = object_record(value, "keras.initializers");
    } else if (is_record(value) && ends_with(key, "_regularizer")) {
      out[key] = object_record(value, "keras.regularizers");
    } else if (is_record(value) && ends_with(key, "_constraint")) {
      out[key] = object_record(value, "keras.constraints");
    } else if (is_record(value) && (key == "layer" || key == "backward_layer" || key == "cell")) {
      out[key] = translate_layer(value, depth + 1);  // Bidirectional, TimeDistributed, RNN
    } else if (key == "cells" && value.is_array()) {
      out[key] = Config::array();
      for (const auto& cell : value)
        out[key].push_back(is_record(cell) ? translate_layer(cell, depth + 1) : cell);
    } else {
      out[key] = value;  // activations stay strings, as Keras 3 writes them
    }
  }
  return out;
}

// A layer record of any class (models included).
Config translate_layer(const Config& record, int depth) {
  check(depth <= kMaxNesting, "Legacy model config: layers nested more than ", kMaxNesting,
        " deep; the file is not a Keras model.");
  if (!is_record(record) || !record.contains("config"))
    throw ValueError(
        "Legacy model config: a layer record needs \"class_name\" and \"config\"; "
        "got " +
        snippet(record) + ".");
  const std::string class_name = record["class_name"];
  if (is_model_class(class_name)) return translate_model(record, depth);
  check(record["config"].is_object(), "Legacy model config: the config of layer class ", class_name,
        " is not an object.");
  // Keras 3 writing .h5 (model.save("x.h5")) already gives module and registered_name; a
  // custom class keeps its own.
  Config out = {{"module", record.value("module", Config("keras.layers"))},
                {"class_name", class_name},
                {"config", translate_layer_config(class_name, record["config"], depth)},
                {"registered_name", record.value("registered_name", Config())}};
  if (record.contains("build_config")) out["build_config"] = record["build_config"];
  return out;
}

// One Keras 2 inbound node [[layer, node, tensor(, kwargs)], ...] -> {"args", "kwargs"}.
Config translate_node(const Config& node, const std::string& layer_name,
                      const std::map<std::string, Config>& dtypes) {
  if (node.is_object()) return node;  // already Keras 3
  if (!node.is_array())
    throw ValueError("Legacy model config: an inbound node of layer '" + layer_name +
                     "' is neither a list nor an object: " + snippet(node) + ".");
  Config tensors = Config::array();
  Config kwargs = Config::object();
  for (const auto& input : node) {
    if (!input.is_array() || (input.size() != 3 && input.size() != 4) || !input[0].is_string() ||
        !input[1].is_number_integer() || !input[2].is_number_integer())
      throw ValueError("Legacy model config: layer '" + layer_name + "' has an inbound entry " +
                       snippet(input) +
                       "; expected [layer_name, node_index, tensor_index, kwargs].");
    const std::string producer = input[0];
    check(dtypes.count(producer), "Legacy model config: layer '", layer_name,
          "' takes its input from '", producer, "', which is not a layer of the model.");
    if (input.size() == 4) {
      check(input[3].is_object(), "Legacy model config: the call kwargs of layer '", layer_name,
            "' are not an object.");
      kwargs = input[3];  // Keras keeps the last entry's kwargs
    }
    // The shape is not known before the layers are rebuilt; keras_history is what locates it.
    tensors.push_back({{"class_name", "__keras_tensor__"},
                       {"config",
                        {{"shape", nullptr},
                         {"dtype", dtypes.at(producer)},
                         {"keras_history", {producer, input[1], input[2]}}}}});
  }
  Config args = Config::array();
  if (tensors.empty()) return {{"args", args}, {"kwargs", kwargs}};
  args.push_back(tensors.size() == 1 ? tensors[0] : tensors);
  return {{"args", args}, {"kwargs", kwargs}};
}

// The dtype name a layer's outputs carry, for the __keras_tensor__ records.
Config output_dtype(const Config& layer_record) {
  const Config& config = layer_record["config"];
  if (!config.is_object() || !config.contains("dtype")) return "float32";
  const Config& dtype = config["dtype"];
  if (dtype.is_string()) return dtype;
  if (is_record(dtype) && dtype.contains("config") && dtype["config"].contains("name"))
    return dtype["config"]["name"];
  return "float32";
}

Config translate_functional(const Config& record, int depth) {
  const Config& config = record["config"];
  check(config.is_object() && config.contains("layers") && config["layers"].is_array() &&
            config.contains("input_layers") && config.contains("output_layers"),
        "Legacy model config: a Functional model config needs \"layers\", \"input_layers\" and "
        "\"output_layers\".");
  std::map<std::string, Config> dtypes;
  for (const auto& layer : config["layers"]) {
    if (!layer.is_object() || !layer.contains("name") || !layer["name"].is_string() ||
        !layer.contains("config"))
      throw ValueError(
          "Legacy model config: a Functional layer entry needs \"name\" and "
          "\"config\"; got " +
          snippet(layer) + ".");
    dtypes[layer["name"]] = output_dtype(layer);
  }
  Config layers = Config::array();
  for (const auto& layer : config["layers"]) {
    Config out = translate_layer(layer, depth + 1);
    const std::string name = layer["name"];
    out["name"] = name;
    out["inbound_nodes"] = Config::array();
    if (layer.contains("inbound_nodes")) {
      check(layer["inbound_nodes"].is_array(), "Legacy model config: the inbound_nodes of layer '",
            name, "' are not a list.");
      for (const auto& node : layer["inbound_nodes"])
        out["inbound_nodes"].push_back(translate_node(node, name, dtypes));
    }
    layers.push_back(out);
  }
  Config inner = {{"name", config.value("name", std::string("functional"))},
                  {"trainable", config.value("trainable", true)},
                  {"layers", layers},
                  {"input_layers", config["input_layers"]},
                  {"output_layers", config["output_layers"]}};
  return {{"module", "keras.src.models.functional"},
          {"class_name", "Functional"},
          {"config", inner},
          {"registered_name", "Functional"}};
}

Config translate_sequential(const Config& record, int depth) {
  const Config& config = record["config"];
  // Keras before 2.2.3 wrote the config as the bare list of layers.
  const Config& legacy_layers = config.is_array() ? config : config.value("layers", Config());
  check(legacy_layers.is_array(), "Legacy model config: a Sequential config needs \"layers\".");
  Config layers = Config::array();
  for (const auto& layer : legacy_layers) layers.push_back(translate_layer(layer, depth + 1));
  // Sequential(input_shape=...) in Keras 2: the first layer holds batch_input_shape and the
  // model made an InputLayer named <first>_input. Keras 3 needs the InputLayer explicitly.
  if (!legacy_layers.empty() && legacy_layers[0]["class_name"] != "InputLayer") {
    const Config& first = legacy_layers[0]["config"];
    if (first.contains("batch_input_shape")) {
      Config input = {{"batch_shape", first["batch_input_shape"]},
                      {"dtype", output_dtype(legacy_layers[0])},
                      {"sparse", false},
                      {"ragged", false},
                      {"name", first.value("name", std::string("layer")) + "_input"}};
      layers.insert(layers.begin(), Config{{"module", "keras.layers"},
                                           {"class_name", "InputLayer"},
                                           {"config", input},
                                           {"registered_name", nullptr}});
    }
  }
  Config inner = {{"name", config.is_object() ? config.value("name", std::string("sequential"))
                                              : std::string("sequential")},
                  {"trainable", config.is_object() ? config.value("trainable", true) : true},
                  {"layers", layers}};
  if (config.is_object() && config.contains("build_input_shape"))
    inner["build_input_shape"] = config["build_input_shape"];
  else if (!layers.empty() && layers[0]["class_name"] == "InputLayer")
    inner["build_input_shape"] = layers[0]["config"].value("batch_shape", Config());
  return {{"module", "keras"},
          {"class_name", "Sequential"},
          {"config", inner},
          {"registered_name", nullptr}};
}

Config translate_model(const Config& record, int depth) {
  const std::string class_name = record["class_name"];
  if (class_name == "Sequential") return translate_sequential(record, depth);
  return translate_functional(record, depth);  // "Model" (Keras < 2.4) and "Functional"
}

}  // namespace

Config translate_model_config(const Config& model_config) {
  if (!is_record(model_config) || !model_config.contains("config"))
    throw ValueError(
        "Legacy model config: expected {\"class_name\": ..., \"config\": ...} at "
        "the top; got " +
        snippet(model_config) + ".");
  try {
    return translate_layer(model_config, 0);
  } catch (const nlohmann::json::exception& e) {  // a value of the wrong JSON type
    throw ValueError(std::string("Legacy model config: malformed (") + e.what() + ").");
  }
}

}  // namespace keras::saving::legacy
