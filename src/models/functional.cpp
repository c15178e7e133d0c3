#include "keras/models/functional.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "keras/layers/operation_layer.h"
#include "keras/ops/ops.h"

namespace keras {
namespace {

// A tensor of the graph: output `index` of `node`.
using TensorKey = std::pair<const Node*, int>;

struct KeyHash {
  size_t operator()(const TensorKey& k) const {
    return std::hash<const void*>()(k.first) * 31 + static_cast<size_t>(k.second);
  }
};

TensorKey key_of(const KerasTensor& t) { return {t.node().get(), t.tensor_index()}; }

// True when a node was given a mask tensor (not only "mask": null).
bool has_mask(const Node& node) {
  for (const KerasTensor& m : node.masks)
    if (m.defined()) return true;
  return false;
}

// What a node reads: its inputs, then the tensors passed as its `mask` (read from files).
std::vector<KerasTensor> dependencies(const Node& node) {
  std::vector<KerasTensor> out = node.inputs;
  for (const KerasTensor& m : node.masks)
    if (m.defined()) out.push_back(m);
  return out;
}

// keras/src/ops/function.py _build_map: a depth-first walk from the outputs, giving the nodes
// from inputs to outputs and each layer's first (pre-order) traversal index.
struct GraphMap {
  std::vector<std::shared_ptr<Node>> nodes_in_decreasing_depth;
  std::unordered_map<const Layer*, int> layer_index;
  std::unordered_set<const Node*> finished, in_progress;
};

void build_map(const std::set<TensorKey>& input_keys, const KerasTensor& tensor, GraphMap& map) {
  const std::shared_ptr<Node>& node = tensor.node();
  if (!node || map.finished.count(node.get())) return;
  // A declared input that an ordinary layer produced: the graph starts there.
  if (!node->is_input() && input_keys.count(key_of(tensor))) {
    map.finished.insert(node.get());
    return;
  }
  check(!map.in_progress.count(node.get()), "Functional: tensor ", tensor.name(),
        " from layer '", node->layer->name(), "' is part of a cycle.");
  map.layer_index.emplace(node->layer.get(), static_cast<int>(map.layer_index.size()));
  map.in_progress.insert(node.get());
  if (!node->is_input())
    for (const KerasTensor& in : dependencies(*node)) build_map(input_keys, in, map);
  map.finished.insert(node.get());
  map.in_progress.erase(node.get());
  map.nodes_in_decreasing_depth.push_back(node);
}

}  // namespace

FunctionalModel::FunctionalModel(std::vector<KerasTensor> inputs, std::vector<KerasTensor> outputs,
                                 LayerOptions options)
    : Model(std::move(options), "functional"), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {
  set_convert_input_args(false);  // each input is converted to its Input's dtype, as Keras
  check(!inputs_.empty(), "Functional: the model needs at least one input.");
  check(!outputs_.empty(), "Functional: the model needs at least one output.");
  std::set<TensorKey> input_keys;
  for (const KerasTensor& t : inputs_) {
    check(t.defined() && t.node(), "Functional: every input must be a KerasTensor from "
                                   "keras::Input() or a layer call.");
    input_keys.insert(key_of(t));
  }
  for (const KerasTensor& t : outputs_)
    check(t.defined() && t.node(), "Functional: every output must be a KerasTensor from "
                                   "keras::Input(), a layer call or a keras::ops call.");

  // keras/src/ops/function.py map_graph: depths, then layers and nodes by decreasing depth.
  GraphMap map;
  for (const KerasTensor& t : outputs_) build_map(input_keys, t, map);
  std::unordered_set<const Node*> in_graph;
  for (const auto& n : map.nodes_in_decreasing_depth) in_graph.insert(n.get());
  std::unordered_map<const Node*, int> node_depth;
  std::unordered_map<const Layer*, int> layer_depth;
  for (auto it = map.nodes_in_decreasing_depth.rbegin(); it != map.nodes_in_decreasing_depth.rend();
       ++it) {
    const Node* node = it->get();
    int depth = node_depth.emplace(node, 0).first->second;
    depth = std::max(depth, layer_depth[node->layer.get()]);
    layer_depth[node->layer.get()] = depth;
    node_depth[node] = depth;
    for (const KerasTensor& in : dependencies(*node)) {
      const Node* parent = in.node().get();
      if (!in_graph.count(parent)) continue;
      int& d = node_depth[parent];
      d = std::max(d, depth + 1);
    }
  }
  // Inputs no output depends on still belong to the model.
  for (const KerasTensor& t : inputs_) {
    const Node* node = t.node().get();
    if (node->is_input() && !layer_depth.count(node->layer.get())) {
      layer_depth[node->layer.get()] = 0;
      map.layer_index[node->layer.get()] = -1;
      node_depth[node] = 0;
      map.nodes_in_decreasing_depth.push_back(t.node());
    }
  }
  std::unordered_map<const Node*, std::shared_ptr<Node>> owner;
  for (const auto& n : map.nodes_in_decreasing_depth) owner[n.get()] = n;
  for (const auto& [node, depth] : node_depth) nodes_by_depth_[depth].push_back(owner.at(node));
  // Deterministic order within a depth: traversal order.
  for (auto& [depth, nodes] : nodes_by_depth_)
    std::stable_sort(nodes.begin(), nodes.end(), [&](const auto& a, const auto& b) {
      return map.layer_index[a->layer.get()] < map.layer_index[b->layer.get()];
    });

  std::map<int, std::vector<std::shared_ptr<Layer>>, std::greater<int>> layers_by_depth;
  std::unordered_map<const Layer*, std::shared_ptr<Layer>> layer_owner;
  for (const auto& n : map.nodes_in_decreasing_depth) layer_owner[n->layer.get()] = n->layer;
  for (const auto& [layer, depth] : layer_depth) layers_by_depth[depth].push_back(layer_owner.at(layer));
  for (auto& [depth, layers] : layers_by_depth) {
    std::stable_sort(layers.begin(), layers.end(), [&](const auto& a, const auto& b) {
      return map.layer_index[a.get()] < map.layer_index[b.get()];
    });
    layers_.insert(layers_.end(), layers.begin(), layers.end());
  }

  // Every tensor a node reads must be computable from the inputs.
  std::set<TensorKey> computable(input_keys);
  std::string reached;
  for (auto it = nodes_by_depth_.rbegin(); it != nodes_by_depth_.rend(); ++it) {
    for (const auto& node : it->second) {
      for (const KerasTensor& in : dependencies(*node))
        if (!computable.count(key_of(in)))
          throw ValueError("Graph disconnected: cannot find parent for tensor " + in.name() +
                           " at layer '" + node->layer->name() +
                           "'. The following previous layers were accessed without issue: [" +
                           reached + "].");
      if (!node->is_input()) reached += (reached.empty() ? "'" : ", '") + node->layer->name() + "'";
      // An Input that is not one of the model's inputs has no value: what reads it fails above.
      if (!node->is_input())
        for (size_t i = 0; i < node->output_shapes.size(); ++i)
          computable.insert({node.get(), static_cast<int>(i)});
      nodes_.push_back(node);
    }
  }
  for (const KerasTensor& t : outputs_)
    check(computable.count(key_of(t)) > 0, "Graph disconnected: output ", t.name(),
          " cannot be computed from the inputs.");

  std::set<std::string> names;
  for (const auto& layer : layers_)
    check(names.insert(layer->name()).second, "Functional: the name '", layer->name(),
          "' is used ", "by two layers of the model; all layer names must be unique.");

  // Keras's summary: sequential-like unless some depth has several nodes, a node takes several
  // tensors, or a layer is called more than once.
  std::unordered_map<const Layer*, int> calls;
  for (const auto& [depth, nodes] : nodes_by_depth_) {
    if (nodes.size() > 1 || (nodes.size() == 1 && nodes[0]->inputs.size() > 1))
      sequential_like_ = false;
    for (const auto& n : nodes)
      if (++calls[n->layer.get()] > 1) sequential_like_ = false;
  }

  // Op nodes hold no state: they are not tracked, so weights files never see them.
  for (const auto& layer : layers_)
    if (!dynamic_cast<const layers::OperationLayer*>(layer.get()))
      track_layer(layer->name(), layer);
  std::vector<Shape> shapes;
  for (const KerasTensor& t : inputs_) shapes.push_back(t.shape());
  ensure_built(shapes, inputs_.size() > 1);
}

TensorList FunctionalModel::call_list(const TensorList& inputs, const CallContext&) {
  check(inputs.size() == inputs_.size(), "Model '", name(), "' expects ", inputs_.size(),
        " input(s) but received ", inputs.size(), ".");
  std::unordered_map<TensorKey, Tensor, KeyHash> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const KerasTensor& spec = inputs_[i];
    Tensor x = inputs[i];
    // keras/src/models/functional.py _adjust_input_rank: one trailing axis of extent 1 may be
    // added or removed to match the declared rank.
    if (x.ndim() == spec.ndim() + 1 && x.shape().back() == 1) x = ops::squeeze(x, -1);
    else if (x.ndim() + 1 == spec.ndim() && spec.shape().back() == 1) x = ops::expand_dims(x, -1);
    bool compatible = x.ndim() == spec.ndim();
    for (int d = 0; compatible && d < x.ndim(); ++d)
      compatible = spec.shape()[d] < 0 || spec.shape()[d] == x.shape()[d];
    check(compatible, "Model '", name(), "': input ", i, " ('", spec.name(), "') has shape ",
          x.shape(), " but the model expects ", shape_string(spec.shape()), ".");
    check<TypeError>(is_string(x.dtype()) == is_string(spec.dtype()), "Model '", name(),
                     "': input ", i, " ('", spec.name(), "') has dtype ", spec.dtype(),
                     " but received a ", x.dtype(), " tensor",
                     is_string(spec.dtype()) ? "; pass the text as a keras::StringTensor." : ".");
    if (x.dtype() != spec.dtype()) x = ops::cast(x, spec.dtype());
    values[key_of(spec)] = x;
  }
  for (const auto& node : nodes_) {
    if (node->is_input()) continue;
    TensorList args;
    for (const KerasTensor& in : node->inputs) args.push_back(values.at(key_of(in)));
    // training comes from this call, as in Keras 3, where the model's training (fit, evaluate
    // and predict always pass one) overrides the value a node recorded.
    CallContext c;
    if (has_mask(*node)) {
      TensorList masks;
      for (const KerasTensor& m : node->masks)
        masks.push_back(m.defined() ? values.at(key_of(m)) : Tensor());
      if (node->list_call) c.masks = masks;
      else c.mask = masks[0];
    }
    TensorList outs = node->list_call ? (*node->layer)(args, c) : node->layer->call_all(args[0], c);
    for (size_t i = 0; i < outs.size(); ++i) values[{node.get(), static_cast<int>(i)}] = outs[i];
  }
  TensorList out;
  for (const KerasTensor& t : outputs_) out.push_back(values.at(key_of(t)));
  return out;
}

std::vector<std::shared_ptr<Layer>> FunctionalModel::layers() const {
  std::vector<std::shared_ptr<Layer>> out;
  for (const auto& layer : layers_)
    if (!dynamic_cast<const layers::OperationLayer*>(layer.get())) out.push_back(layer);
  return out;
}

std::string FunctionalModel::layer_output_shape(const Layer& layer) const {
  std::vector<Shape> shapes;
  for (const auto& node : nodes_)
    if (node->layer.get() == &layer) shapes = node->output_shapes;
  if (shapes.empty()) return "?";
  if (shapes.size() == 1) return shape_string(shapes[0]);
  std::string out = "[";
  for (size_t i = 0; i < shapes.size(); ++i) out += (i ? ", " : "") + shape_string(shapes[i]);
  return out + "]";
}

std::string FunctionalModel::layer_connections(const Layer& layer) const {
  // The layer's calls in the order they were made (Keras walks layer._inbound_nodes), those of
  // this model only.
  std::string out;
  for (const auto& node : layer.inbound_nodes()) {
    bool ours = false;
    for (const auto& n : nodes_) ours = ours || n.get() == node.get();
    if (!ours) continue;
    for (const KerasTensor& in : node->inputs) {
      if (!out.empty()) out += ", ";
      out += in.producer()->name() + "[" + std::to_string(in.node()->index) + "][" +
             std::to_string(in.tensor_index()) + "]";
    }
  }
  return out.empty() ? "-" : out;
}

ModelPtr<FunctionalModel> Functional(const KerasTensor& inputs, const KerasTensor& outputs,
                                     LayerOptions options) {
  auto model = make_layer<FunctionalModel>(std::vector<KerasTensor>{inputs},
                                           std::vector<KerasTensor>{outputs}, std::move(options));
  model->single_input_ = model->single_output_ = true;
  return model;
}

ModelPtr<FunctionalModel> Functional(std::vector<KerasTensor> inputs,
                                     std::vector<KerasTensor> outputs, LayerOptions options) {
  return make_layer<FunctionalModel>(std::move(inputs), std::move(outputs), std::move(options));
}

std::vector<std::string> FunctionalModel::input_names() const {
  std::vector<std::string> names;
  for (const KerasTensor& t : inputs_) names.push_back(t.producer()->name());
  return names;
}

std::vector<std::string> FunctionalModel::output_names() const {
  std::vector<std::string> names;
  for (const KerasTensor& t : outputs_) names.push_back(t.producer()->name());
  return names;
}

}  // namespace keras
