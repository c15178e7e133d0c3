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
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "keras/layers/attention/attention.h"
#include "keras/layers/attention/multi_head_attention_base.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/operation_layer.h"
#include "keras/layers/rnn/rnn.h"
#include "keras/models/functional.h"
#include "keras/saving/safe_json.h"
#include "keras/saving/serialization.h"
#include "saving/shape_json.h"

namespace keras {
namespace {

// Keras's Functional models count a built-in node in the model's input_layers and
// output_layers references (and in Keras 2's node lists), but not in Keras 3 nodes' arguments
// (keras/src/models/functional.py: get_config's kept_nodes vs serialize_node).
int builtin_nodes(const Layer& layer) { return layer.class_name() == "Functional" ? 1 : 0; }

// Where each of the model's nodes is in the file: its index among the layer's nodes that
// belong to this model.
using NodeIndex = std::unordered_map<const Node*, int>;

// [layer, node, tensor]; `model_io` for input_layers / output_layers.
Config history_json(const KerasTensor& t, const NodeIndex& index, bool model_io = false) {
  int node = index.at(t.node().get()) + (model_io ? builtin_nodes(*t.producer()) : 0);
  return Config::array({t.producer()->name(), node, t.tensor_index()});
}

Config keras_tensor_json(const KerasTensor& t, const NodeIndex& index) {
  return {{"class_name", "__keras_tensor__"},
          {"config",
           {{"shape", saving::shape_to_json(t.shape())},
            {"dtype", std::string(dtype_name(t.dtype()))},
            {"keras_history", history_json(t, index)}}}};
}

// The attention flags a node was called with, for the layers that take them.
std::optional<layers::detail::AttentionFlags> attention_flags(const Node& node) {
  if (auto* mha = dynamic_cast<const layers::MultiHeadAttentionBase*>(node.layer.get()))
    return mha->node_flags(node);
  if (auto* attention = dynamic_cast<const layers::AttentionLayer*>(node.layer.get()))
    return attention->node_flags(node);
  return std::nullopt;
}

bool is_rnn(const Layer& layer) { return dynamic_cast<const layers::RNNLayer*>(&layer); }

// Keras records a call's `training` when it has a value: the one passed, else the default of
// the layer's call() signature. These classes declare call(..., training=False), so Keras
// writes "training": false at each of their calls on one tensor where none was passed (the
// others default to None and record nothing). Calls with initial states or a mask passed
// explicitly record none (Keras 3.15's files show it); a value read from a file is kept.
bool training_defaults_to_false(const std::string& class_name) {
  static const std::set<std::string> names = {
      "Dropout", "AlphaDropout", "GaussianDropout", "GaussianNoise", "SpatialDropout1D",
      "SpatialDropout2D", "SpatialDropout3D", "SpectralNormalization", "LSTM", "GRU",
      "SimpleRNN", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"};
  return names.count(class_name) > 0;
}

Config node_json(const Node& node, const NodeIndex& index) {
  auto tensor = [&](const KerasTensor& t) { return keras_tensor_json(t, index); };
  if (auto* op = dynamic_cast<const layers::OperationLayer*>(node.layer.get())) {
    auto slot = [&](size_t k) { return tensor(node.inputs.at(k)); };
    return {{"args", op->call_args(slot)}, {"kwargs", op->call_kwargs(slot)}};
  }
  Config args = Config::array();
  Config kwargs = Config::object();
  // Keras's MultiHeadAttention and GroupedQueryAttention take query, value and key as separate
  // positional arguments (layer(query, value)), not one list: write them so, or Keras's
  // functional_from_config would call layer([query, value]). The reader takes both forms.
  // The key and the attention mask are keyword arguments, as users pass them (mha(q, v,
  // key=k)).
  bool positional = dynamic_cast<const layers::MultiHeadAttentionBase*>(node.layer.get()) &&
                    node.list_call && node.inputs.size() >= 2 && node.inputs.size() <= 4;
  if (positional) {
    args.push_back(tensor(node.inputs[0]));
    args.push_back(tensor(node.inputs[1]));
    // call_with() puts the value in the key's place when no key is given.
    if (node.inputs.size() > 2 && !node.inputs[2].is_same(node.inputs[1]))
      kwargs["key"] = tensor(node.inputs[2]);
    if (node.inputs.size() > 3) kwargs["attention_mask"] = tensor(node.inputs[3]);
  } else if (is_rnn(*node.layer) && node.list_call && node.inputs.size() > 1) {
    // keras-cpp's RNN list call {sequences, states...} is Keras's layer(x, initial_state=...).
    args.push_back(tensor(node.inputs[0]));
    if (node.inputs.size() == 2) {
      kwargs["initial_state"] = tensor(node.inputs[1]);
    } else {
      Config states = Config::array();
      for (size_t i = 1; i < node.inputs.size(); ++i) states.push_back(tensor(node.inputs[i]));
      kwargs["initial_state"] = states;
    }
  } else if (node.list_call) {
    Config list = Config::array();
    for (const KerasTensor& t : node.inputs) list.push_back(tensor(t));
    args.push_back(list);
  } else {
    args.push_back(tensor(node.inputs.at(0)));
  }
  if (node.training) {
    kwargs["training"] = *node.training;
  } else if (!node.list_call && node.masks.empty() &&
             training_defaults_to_false(node.layer->class_name())) {
    kwargs["training"] = false;
  }
  // Keras records the keyword arguments given at the call.
  if (auto flags = attention_flags(node)) {
    if (flags->return_attention_scores) kwargs["return_attention_scores"] = true;
    if (flags->use_causal_mask) kwargs["use_causal_mask"] = true;
  }
  if (node.masks.empty() && (node.layer->class_name() == "Functional" ||
                             node.layer->class_name() == "Sequential")) {
    // Keras passes a nested model the inputs' masks, and records them: null when there are
    // none (keras-cpp's masks travel with the tensors instead).
    kwargs["mask"] = node.list_call ? Config(std::vector<Config>(node.inputs.size())) : Config();
  } else if (!node.masks.empty()) {
    // As read: one mask (or null), or one per input of a list.
    Config masks = Config::array();
    for (const KerasTensor& m : node.masks) masks.push_back(m.defined() ? tensor(m) : Config());
    kwargs["mask"] = node.masks.size() == 1 ? masks[0] : masks;
  }
  return {{"args", args}, {"kwargs", kwargs}};
}

// ---- reading ---------------------------------------------------------------------------------

struct GraphBuilder {
  std::map<std::string, std::shared_ptr<Layer>> layers;
  // The outputs of each layer's nodes, in the order they were rebuilt.
  std::map<std::string, std::vector<std::vector<KerasTensor>>> outputs;

  // The tensor [layer, node, tensor] names, or nullopt when that node is not rebuilt yet.
  // `counts_builtin`: the reference counts a nested Functional's built-in node (see
  // builtin_nodes).
  std::optional<KerasTensor> tensor(const Config& history, bool counts_builtin) const {
    check(history.is_array() && history.size() >= 3 && history[0].is_string() &&
              history[1].is_number_integer() && history[2].is_number_integer(),
          "Functional config: expected a tensor reference [layer, node, tensor]; got ",
          history.dump().substr(0, 200), ".");
    const std::string name = history[0].get<std::string>();
    auto layer = layers.find(name);
    check(layer != layers.end(), "Functional config: a node reads layer '", name,
          "', which the model does not define.");
    int64_t node = history[1].get<int64_t>() - (counts_builtin ? builtin_nodes(*layer->second) : 0);
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

Config history_of(const Config& record) {
  return record.value("config", Config::object()).value("keras_history", Config());
}

// One node of a file, as keras-cpp calls it: the inputs (list calls in keras-cpp's form), and
// the keyword arguments it keeps.
struct NodeCall {
  std::vector<KerasTensor> inputs;
  bool list_call = false;
  std::vector<KerasTensor> masks;
  std::optional<bool> training;
  layers::detail::AttentionFlags flags;
  // For an op: the call's arguments with tensor slots.
  Config op_args, op_kwargs;
};

class NodeReader {
 public:
  NodeReader(const GraphBuilder& graph, const std::string& layer) : graph_(graph), layer_(layer) {}

  // Appends the tensor a record names; false when its node is not rebuilt yet.
  bool add(const Config& record, std::vector<KerasTensor>& to, bool counts_builtin = false) {
    auto t = graph_.tensor(record, counts_builtin);
    if (!t) return false;
    to.push_back(*t);
    return true;
  }

  // An op's arguments: every tensor record becomes {"__tensor__": k} in order of appearance.
  bool op_template(const Config& v, Config& out, std::vector<KerasTensor>& inputs) {
    if (is_keras_tensor_record(v)) {
      out = {{"__tensor__", inputs.size()}};
      return add(history_of(v), inputs);
    }
    if (v.is_array() || v.is_object()) {
      out = v.is_array() ? Config::array() : Config::object();
      for (const auto& [key, e] : v.items()) {
        Config sub;
        if (!op_template(e, sub, inputs)) return false;
        if (v.is_array()) out.push_back(sub);
        else out[key] = sub;
      }
      return true;
    }
    out = v;
    return true;
  }

  // The tensor of keyword argument `key`, if given (not null); false when not rebuilt yet.
  bool keyword_tensor(const Config& kwargs, const char* key, std::vector<KerasTensor>& to) {
    const Config v = kwargs.value(key, Config());
    if (v.is_null()) return true;
    check(is_keras_tensor_record(v), "Functional config: layer '", layer_, "' has ", key, "=",
          v.dump().substr(0, 200), "; expected a tensor.");
    return add(history_of(v), to);
  }

  // One tensor, or a list of tensors (null entries: undefined), of a keyword argument.
  bool tensors(const Config& v, const std::string& key, std::vector<KerasTensor>& to) {
    if (v.is_null()) {
      to.emplace_back();
      return true;
    }
    if (is_keras_tensor_record(v)) return add(history_of(v), to);
    check(v.is_array(), "Functional config: layer '", layer_, "' is called with ", key, "=",
          v.dump().substr(0, 200), "; expected a tensor or a list of tensors.");
    for (const Config& e : v)
      if (!tensors(e, key, to)) return false;
    return true;
  }

  bool read(const Layer& layer, const Config& node, NodeCall& call) {
    if (node.is_array()) {
      // Keras 2: [["dense", 0, 0, {kwargs}], ...]; node indices count the built-in node.
      for (const Config& entry : node)
        if (!add(entry, call.inputs, true)) return false;
      call.list_call = node.size() > 1;
      check(!call.inputs.empty(), "Functional config: layer '", layer_,
            "' has a node with no inputs.");
      return true;
    }
    check(node.is_object() && node.contains("args") && node["args"].is_array(),
          "Functional config: layer '", layer_, "' has an inbound node without args: ",
          node.dump().substr(0, 200), ".");
    const Config& args = node["args"];
    const Config kwargs = node.value("kwargs", Config::object());
    if (dynamic_cast<const layers::OperationLayer*>(&layer)) {
      if (!op_template(args, call.op_args, call.inputs)) return false;
      if (!op_template(kwargs.is_object() ? kwargs : Config::object(), call.op_kwargs, call.inputs))
        return false;
      call.list_call = true;
      check(!call.inputs.empty(), "Functional config: the op '", layer_,
            "' is called on no tensor of the graph.");
      return true;
    }
    for (const Config& arg : args) {
      if (is_keras_tensor_record(arg)) {
        if (!add(history_of(arg), call.inputs)) return false;
      } else if (arg.is_array()) {
        for (const Config& t : arg) {
          check(is_keras_tensor_record(t), "Functional config: layer '", layer_,
                "' is called with a list holding a non-tensor: ", t.dump().substr(0, 200), ".");
          if (!add(history_of(t), call.inputs)) return false;
        }
      } else if (!arg.is_null()) {
        throw NotImplementedError("Functional config: layer '" + layer_ +
                                  "' is called with the positional argument " +
                                  arg.dump().substr(0, 200) +
                                  "; keras-cpp reads tensor arguments only.");
      }
    }
    check(!call.inputs.empty(), "Functional config: layer '", layer_,
          "' has a node with no inputs.");
    call.list_call = args.size() > 1 || (args.size() == 1 && args[0].is_array());
    bool mha = dynamic_cast<const layers::MultiHeadAttentionBase*>(&layer);
    bool attention = mha || dynamic_cast<const layers::AttentionLayer*>(&layer);
    // MultiHeadAttention's key= and attention_mask= become the third and fourth inputs of
    // keras-cpp's list call [query, value, key, attention_mask].
    if (mha && (kwargs.contains("key") || kwargs.contains("attention_mask"))) {
      check(call.inputs.size() == 2 || (call.inputs.size() == 3 && !kwargs.contains("key")),
            "Functional config: layer '", layer_, "' is called with ", call.inputs.size(),
            " positional tensors and key=/attention_mask=; expected query and value.");
      std::vector<KerasTensor> key, mask;
      if (!keyword_tensor(kwargs, "key", key) || !keyword_tensor(kwargs, "attention_mask", mask))
        return false;
      if (!key.empty()) call.inputs.push_back(key[0]);
      if (!mask.empty()) {
        if (call.inputs.size() == 2) call.inputs.push_back(call.inputs[1]);  // no key: the value
        call.inputs.push_back(mask[0]);
      }
      call.list_call = true;
    }
    for (const auto& [key, value] : kwargs.items()) {
      // Kept for writing the node back; the model's call overrides it, as in Keras 3.
      if (key == "training" && value.is_boolean()) {
        call.training = value.get<bool>();
        continue;
      }
      // Kept as given, null included: Keras writes "mask": null for calls of layers that
      // take a mask when the input has none.
      if (key == "mask") {
        if (value.is_null()) call.masks.emplace_back();
        else if (!tensors(value, key, call.masks)) return false;
        continue;
      }
      if (value.is_null() || (value.is_boolean() && !value.get<bool>())) continue;
      if (mha && (key == "key" || key == "attention_mask")) continue;  // read above
      if (key == "initial_state" && is_rnn(layer)) {
        std::vector<KerasTensor> states;
        if (!tensors(value, key, states)) return false;
        for (const KerasTensor& s : states)
          check(s.defined(), "Functional config: layer '", layer_,
                "' has a null among its initial_state.");
        call.inputs.insert(call.inputs.end(), states.begin(), states.end());
        call.list_call = true;
        continue;
      }
      if (attention && value.is_boolean() && key == "use_causal_mask") {
        call.flags.use_causal_mask = true;
        continue;
      }
      if (attention && value.is_boolean() && key == "return_attention_scores") {
        call.flags.return_attention_scores = true;
        continue;
      }
      throw NotImplementedError("Functional config: layer '" + layer_ +
                                "' is called with the keyword argument " + key + "=" +
                                value.dump().substr(0, 200) +
                                "; keras-cpp's Functional graph does not read this argument.");
    }
    return true;
  }

 private:
  const GraphBuilder& graph_;
  const std::string& layer_;
};

// Calls `layer` as the node says, recording its node; the node's outputs.
std::vector<KerasTensor> replay_node(Layer& layer, const std::string& name, NodeCall& call,
                                     size_t node_number) {
  std::vector<KerasTensor> outs;
  if (auto* op = dynamic_cast<layers::OperationLayer*>(&layer)) {
    // Keras creates one op instance per call: one node per op record.
    check(node_number == 0, "Functional config: the op '", name,
          "' has several inbound nodes; Keras records one node per op call.");
    op->set_call(call.op_args, call.op_kwargs);
    outs = layer(call.inputs);
  } else if (auto* mha = dynamic_cast<layers::MultiHeadAttentionBase*>(&layer);
             mha && call.inputs.size() >= 2 && call.inputs.size() <= 4 &&
             (call.flags.use_causal_mask || call.flags.return_attention_scores)) {
    outs = mha->call_with(call.inputs[0], call.inputs[1],
                          {.key = call.inputs.size() > 2 ? call.inputs[2] : KerasTensor(),
                           .attention_mask =
                               call.inputs.size() > 3 ? call.inputs[3] : KerasTensor(),
                           .return_attention_scores = call.flags.return_attention_scores,
                           .use_causal_mask = call.flags.use_causal_mask});
  } else if (auto* attention = dynamic_cast<layers::AttentionLayer*>(&layer);
             attention && call.list_call &&
             (call.flags.use_causal_mask || call.flags.return_attention_scores)) {
    outs = attention->call_with(call.inputs,
                                {.return_attention_scores = call.flags.return_attention_scores,
                                 .use_causal_mask = call.flags.use_causal_mask});
  } else {
    outs = call.list_call ? layer(call.inputs) : layer.call_all(call.inputs[0]);
  }
  Node& node = *outs.at(0).node();
  if (!call.masks.empty()) {
    size_t expected = call.list_call ? call.inputs.size() : 1;
    bool given = false;
    for (const KerasTensor& m : call.masks) given = given || m.defined();
    check(!given || call.masks.size() == expected, "Functional config: layer '", name,
          "' is called with ", call.masks.size(), " mask(s) for ", expected, " input(s).");
    node.masks = call.masks;
  }
  node.training = call.training;
  return outs;
}

bool is_bare_reference(const Config& refs) {
  return refs.is_array() && refs.size() == 3 && refs[0].is_string();
}

// The tensors `refs` names: one reference, or a list or dict of them, nested as Keras's
// _inputs_struct / _outputs_struct may be; keras-cpp's model takes and gives them flat, in order.
void collect_tensors(const GraphBuilder& graph, const Config& refs, const char* what,
                     std::vector<KerasTensor>& out) {
  if (is_bare_reference(refs)) {
    auto t = graph.tensor(refs, true);
    check(t.has_value(), "Functional config: ", what, " ", refs.dump(),
          " is not produced by the graph.");
    out.push_back(*t);
  } else if (refs.is_array() || refs.is_object()) {
    for (const auto& [key, r] : refs.items()) collect_tensors(graph, r, what, out);
  } else {
    throw ValueError("Functional config: cannot read " + std::string(what) + " from " +
                     refs.dump().substr(0, 200) + ".");
  }
}

std::vector<KerasTensor> tensors_of(const GraphBuilder& graph, const Config& refs,
                                    const char* what) {
  std::vector<KerasTensor> out;
  collect_tensors(graph, refs, what, out);
  return out;
}

}  // namespace

Config FunctionalModel::get_config() const {
  std::unordered_set<const Node*> own(nodes_.size());
  for (const auto& n : nodes_) own.insert(n.get());
  NodeIndex index;
  for (const auto& layer : layers_) {
    int kept = 0;
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
  // A model made from one tensor (not a list) records the bare [layer, node, tensor], as
  // Keras's _inputs_struct / _outputs_struct do.
  Config inputs = Config::array(), outputs = Config::array();
  for (const KerasTensor& t : inputs_) inputs.push_back(history_json(t, index, true));
  for (const KerasTensor& t : outputs_) outputs.push_back(history_json(t, index, true));
  if (single_input_) inputs = inputs[0];
  if (single_output_) outputs = outputs[0];
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
        Layer& layer = *graph.layers.at(name);
        NodeCall call;
        if (!NodeReader(graph, name).read(layer, nodes[next[i]], call)) break;
        std::vector<KerasTensor> outs = replay_node(layer, name, call, next[i]);
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
  const Config input_refs = config.value("input_layers", Config());
  const Config output_refs = config.value("output_layers", Config());
  auto model = make_layer<FunctionalModel>(tensors_of(graph, input_refs, "input"),
                                           tensors_of(graph, output_refs, "output"), options);
  model->single_input_ = is_bare_reference(input_refs);
  model->single_output_ = is_bare_reference(output_refs);
  return model;
}

}  // namespace keras
