// Functional's get_config / from_config in Keras 3's schema (keras/src/models/functional.py):
//
//   {"name", "trainable",
//    "layers": [<layer record> + {"name", "inbound_nodes": [{"args": [...], "kwargs": {...}}]}],
//    "input_layers": [[name, node, tensor], ...], "output_layers": [...]}
//
// Every KerasTensor in a node's args is a {"class_name": "__keras_tensor__", "config": {shape,
// dtype, keras_history: [layer, node, tensor]}} record whose node index counts only the nodes
// of this model. Keras 2's node lists ([[["dense", 0, 0, {}], ...]]) are read too.

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "keras/layers/attention/multi_head_attention_base.h"
#include "keras/layers/input_layer.h"
#include "keras/models/functional.h"
#include "keras/saving/safe_json.h"
#include "keras/saving/serialization.h"
#include "saving/shape_json.h"

namespace keras {
namespace {

// Keras's Functional models start with a built-in node, so references to a nested
// Functional's calls are offset by one in files.
int builtin_nodes(const Layer& layer) { return layer.class_name() == "Functional" ? 1 : 0; }

// Where each of the model's nodes is in the file: its layer's name and its index among the
// layer's nodes that belong to this model.
using NodeIndex = std::unordered_map<const Node*, int>;

Config history_json(const KerasTensor& t, const NodeIndex& index) {
  return Config::array({t.producer()->name(), index.at(t.node().get()), t.tensor_index()});
}

Config keras_tensor_json(const KerasTensor& t, const NodeIndex& index) {
  return {{"class_name", "__keras_tensor__"},
          {"config",
           {{"shape", saving::shape_to_json(t.shape())},
            {"dtype", std::string(dtype_name(t.dtype()))},
            {"keras_history", history_json(t, index)}}}};
}

Config node_json(const Node& node, const NodeIndex& index) {
  Config args = Config::array();
  // Keras's MultiHeadAttention and GroupedQueryAttention take query, value and key as separate
  // positional arguments (layer(query, value)), not one list: write them so, or Keras's
  // functional_from_config would call layer([query, value]). The reader takes both forms.
  bool positional = dynamic_cast<const layers::MultiHeadAttentionBase*>(node.layer.get()) &&
                    node.list_call && node.inputs.size() >= 2 && node.inputs.size() <= 3;
  if (positional) {
    for (const KerasTensor& t : node.inputs) args.push_back(keras_tensor_json(t, index));
  } else if (node.list_call) {
    Config list = Config::array();
    for (const KerasTensor& t : node.inputs) list.push_back(keras_tensor_json(t, index));
    args.push_back(list);
  } else {
    args.push_back(keras_tensor_json(node.inputs.at(0), index));
  }
  Config kwargs = Config::object();
  if (node.training) kwargs["training"] = *node.training;
  if (positional) {
    // Keras records the keyword arguments given at the call.
    auto flags = static_cast<const layers::MultiHeadAttentionBase&>(*node.layer).node_flags(node);
    if (flags.return_attention_scores) kwargs["return_attention_scores"] = true;
    if (flags.use_causal_mask) kwargs["use_causal_mask"] = true;
  }
  return {{"args", args}, {"kwargs", kwargs}};
}

// ---- reading ---------------------------------------------------------------------------------

struct GraphBuilder {
  std::map<std::string, std::shared_ptr<Layer>> layers;
  // The outputs of each layer's nodes, in the order they were rebuilt.
  std::map<std::string, std::vector<std::vector<KerasTensor>>> outputs;

  // The tensor [layer, node, tensor] names, or nullopt when that node is not rebuilt yet.
  std::optional<KerasTensor> tensor(const Config& history) const {
    check(history.is_array() && history.size() >= 3 && history[0].is_string() &&
              history[1].is_number_integer() && history[2].is_number_integer(),
          "Functional config: expected a tensor reference [layer, node, tensor]; got ",
          history.dump().substr(0, 200), ".");
    const std::string name = history[0].get<std::string>();
    auto layer = layers.find(name);
    check(layer != layers.end(), "Functional config: a node reads layer '", name,
          "', which the model does not define.");
    int64_t node = history[1].get<int64_t>() - builtin_nodes(*layer->second);
    int64_t index = history[2].get<int64_t>();
    check(node >= 0 && index >= 0, "Functional config: invalid tensor reference ",
          history.dump(), ".");
    auto it = outputs.find(name);
    if (it == outputs.end() || node >= static_cast<int64_t>(it->second.size())) return std::nullopt;
    const auto& outs = it->second[static_cast<size_t>(node)];
    check(index < static_cast<int64_t>(outs.size()), "Functional config: layer '", name,
          "' has ", outs.size(), " output(s); the reference ", history.dump(),
          " asks for another.");
    return outs[static_cast<size_t>(index)];
  }
};

bool is_keras_tensor_record(const Config& j) {
  return j.is_object() && j.value("class_name", Config()).is_string() &&
         j["class_name"].get<std::string>() == "__keras_tensor__";
}

// The inputs a node calls its layer on, and whether it is a list call. False when an input is
// not rebuilt yet (the node waits for the next pass).
bool node_inputs(const GraphBuilder& graph, const std::string& layer, const Config& node,
                 std::vector<KerasTensor>& inputs, bool& list_call,
                 layers::detail::AttentionFlags* attention_flags = nullptr) {
  inputs.clear();
  std::vector<Config> histories;
  if (node.is_array()) {
    // Keras 2: [["dense", 0, 0, {kwargs}], ...]
    for (const Config& entry : node) histories.push_back(entry);
    list_call = node.size() > 1;
  } else {
    check(node.is_object() && node.contains("args") && node["args"].is_array(),
          "Functional config: layer '", layer, "' has an inbound node without args: ",
          node.dump().substr(0, 200), ".");
    const Config& args = node["args"];
    for (const Config& arg : args) {
      if (is_keras_tensor_record(arg)) {
        histories.push_back(arg["config"].value("keras_history", Config()));
      } else if (arg.is_array()) {
        for (const Config& t : arg) {
          check(is_keras_tensor_record(t), "Functional config: layer '", layer,
                "' is called with a list holding a non-tensor: ", t.dump().substr(0, 200), ".");
          histories.push_back(t["config"].value("keras_history", Config()));
        }
      } else if (!arg.is_null()) {
        throw NotImplementedError("Functional config: layer '" + layer +
                                  "' is called with the positional argument " +
                                  arg.dump().substr(0, 200) +
                                  "; keras-cpp reads tensor arguments only.");
      }
    }
    list_call = args.size() > 1 || (args.size() == 1 && args[0].is_array());
    if (node.contains("kwargs") && node["kwargs"].is_object()) {
      for (const auto& [key, value] : node["kwargs"].items()) {
        // training is overridden by the model's call (as Keras does); masks propagate by
        // themselves. Other arguments are not recorded by keras-cpp's graph yet.
        if (key == "training" || key == "mask" || value.is_null() ||
            (value.is_boolean() && !value.get<bool>()))
          continue;
        // MultiHeadAttention's and GroupedQueryAttention's flags.
        if (attention_flags && value.is_boolean() && key == "use_causal_mask") {
          attention_flags->use_causal_mask = true;
          continue;
        }
        if (attention_flags && value.is_boolean() && key == "return_attention_scores") {
          attention_flags->return_attention_scores = true;
          continue;
        }
        throw NotImplementedError("Functional config: layer '" + layer +
                                  "' is called with the keyword argument " + key + "=" +
                                  value.dump().substr(0, 200) +
                                  "; keras-cpp's Functional graph does not record call "
                                  "arguments yet.");
      }
    }
  }
  check(!histories.empty(), "Functional config: layer '", layer, "' has a node with no inputs.");
  for (const Config& h : histories) {
    auto t = graph.tensor(h);
    if (!t) return false;
    inputs.push_back(*t);
  }
  return true;
}

std::vector<KerasTensor> tensors_of(const GraphBuilder& graph, const Config& refs,
                                    const char* what) {
  std::vector<KerasTensor> out;
  auto one = [&](const Config& ref) {
    auto t = graph.tensor(ref);
    check(t.has_value(), "Functional config: ", what, " ", ref.dump(),
          " is not produced by the graph.");
    out.push_back(*t);
  };
  if (refs.is_array() && refs.size() == 3 && refs[0].is_string()) {
    one(refs);
  } else if (refs.is_array()) {
    for (const Config& r : refs) one(r);
  } else if (refs.is_object()) {
    for (const auto& [key, r] : refs.items()) one(r);
  } else {
    throw ValueError("Functional config: cannot read " + std::string(what) + " from " +
                     refs.dump().substr(0, 200) + ".");
  }
  return out;
}

}  // namespace

Config FunctionalModel::get_config() const {
  std::unordered_set<const Node*> own(nodes_.size());
  for (const auto& n : nodes_) own.insert(n.get());
  NodeIndex index;
  for (const auto& layer : layers_) {
    int kept = builtin_nodes(*layer);
    for (const auto& node : layer->inbound_nodes())
      if (own.count(node.get())) index[node.get()] = kept++;
  }
  Config layers = Config::array();
  for (const auto& layer : layers_) {
    Config record = saving::serialize_keras_object(*layer);
    record["name"] = layer->name();
    Config inbound = Config::array();
    for (const auto& node : layer->inbound_nodes())
      if (own.count(node.get()) && !node->is_input()) inbound.push_back(node_json(*node, index));
    record["inbound_nodes"] = inbound;
    layers.push_back(record);
  }
  Config inputs = Config::array(), outputs = Config::array();
  for (const KerasTensor& t : inputs_) inputs.push_back(history_json(t, index));
  for (const KerasTensor& t : outputs_) outputs.push_back(history_json(t, index));
  return {{"name", name()},
          {"trainable", trainable()},
          {"layers", layers},
          {"input_layers", inputs},
          {"output_layers", outputs}};
}

std::shared_ptr<Layer> FunctionalModel::from_config(const Config& config) {
  check(config.is_object() && config.contains("layers") && config["layers"].is_array(),
        "Functional config: expected an object with a 'layers' list.");
  saving::check_count("layers", config["layers"].size(), saving::kMaxLayers, "Functional config");
  GraphBuilder graph;
  std::vector<std::pair<std::string, std::vector<Config>>> pending;  // per layer, in order
  for (const Config& record : config["layers"]) {
    check(record.is_object() && record.value("name", Config()).is_string(),
          "Functional config: every layer record needs a 'name'; got ",
          record.dump().substr(0, 200), ".");
    std::string name = record["name"].get<std::string>();
    check(!graph.layers.count(name), "Functional config: two layers are named '", name, "'.");
    if (record.value("class_name", Config()) == "InputLayer") {
      KerasTensor input = InputLayer::tensor_from_config(record.value("config", Config::object()));
      graph.layers[name] = input.producer();
      graph.outputs[name].push_back({input});
      continue;
    }
    graph.layers[name] = saving::deserialize_keras_object(
        record, {.safe_mode = saving::SafeModeScope::safe_mode(), .compile = false});
    std::vector<Config> nodes;
    if (record.contains("inbound_nodes") && record["inbound_nodes"].is_array())
      for (const Config& n : record["inbound_nodes"]) nodes.push_back(n);
    pending.emplace_back(name, std::move(nodes));
  }
  // Keras rebuilds nodes in layer order, retrying those whose inputs do not exist yet.
  size_t remaining = 0;
  for (const auto& [name, nodes] : pending) remaining += nodes.size();
  std::vector<size_t> next(pending.size(), 0);
  while (remaining > 0) {
    bool progress = false;
    for (size_t i = 0; i < pending.size(); ++i) {
      auto& [name, nodes] = pending[i];
      while (next[i] < nodes.size()) {
        std::vector<KerasTensor> inputs;
        bool list_call = false;
        auto& layer = graph.layers.at(name);
        auto* attention = dynamic_cast<layers::MultiHeadAttentionBase*>(layer.get());
        layers::detail::AttentionFlags flags;
        if (!node_inputs(graph, name, nodes[next[i]], inputs, list_call,
                         attention ? &flags : nullptr))
          break;
        std::vector<KerasTensor> outs;
        if (attention && inputs.size() >= 2 && inputs.size() <= 3 &&
            (flags.use_causal_mask || flags.return_attention_scores)) {
          outs = attention->call_with(inputs[0], inputs[1],
                                      {.key = inputs.size() > 2 ? inputs[2] : KerasTensor(),
                                       .return_attention_scores = flags.return_attention_scores,
                                       .use_causal_mask = flags.use_causal_mask});
        } else {
          outs = list_call ? (*layer)(inputs) : layer->call_all(inputs[0]);
        }
        graph.outputs[name].push_back(std::move(outs));
        ++next[i];
        --remaining;
        progress = true;
      }
    }
    check(progress, "Invalid Functional model configuration: the graph has loops or nodes whose "
                    "inputs are never produced (", remaining, " node(s) left unresolved).");
  }
  LayerOptions options;
  if (config.value("name", Config()).is_string()) options.name = config["name"].get<std::string>();
  if (config.value("trainable", Config()).is_boolean())
    options.trainable = config["trainable"].get<bool>();
  auto model = make_layer<FunctionalModel>(
      tensors_of(graph, config.value("input_layers", Config()), "input"),
      tensors_of(graph, config.value("output_layers", Config()), "output"), options);
  return model;
}

}  // namespace keras
