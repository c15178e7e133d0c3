// The backward pass: a topological walk over the recorded graph from the roots, running each
// node's rule once all gradients of its outputs have arrived, and only for nodes from which a
// requested source can be reached.

#include <unordered_map>
#include <vector>

#include "autograd/gradient_ready.h"
#include "autograd/state.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/ops/ops.h"

namespace keras::autograd {
namespace {

struct NodeInfo {
  bool leads_to_source = false;
  bool visited = false;
  int pending = 0;                // gradients still to arrive from needed consumers
  std::vector<Tensor> grads;      // accumulated gradient per output
};

using Graph = std::unordered_map<Node*, NodeInfo>;

// Marks every node reachable from `node` and whether a source lies below it.
bool explore(Node* node, Graph& graph,
             const std::unordered_map<Node*, std::vector<std::pair<uint32_t, size_t>>>& sources) {
  NodeInfo& info = graph[node];  // references into an unordered_map survive rehashing
  if (info.visited) return info.leads_to_source;
  info.visited = true;
  bool leads = sources.count(node) > 0;
  for (const Edge& e : node->inputs)
    if (e.node && explore(e.node.get(), graph, sources)) leads = true;
  info.leads_to_source = leads;
  return leads;
}

void accumulate(NodeInfo& info, uint32_t nr, const Tensor& g, size_t num_outputs) {
  if (info.grads.size() < num_outputs) info.grads.resize(num_outputs);
  Tensor& slot = info.grads[nr];
  slot = slot.defined() ? ops::add(slot, g) : g;
}

// Sets grad mode for the duration of the pass.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool on) : previous_(state().grad_mode) { state().grad_mode = on; }
  ~GradModeGuard() { state().grad_mode = previous_; }

 private:
  bool previous_;
};

thread_local detail::GradientReady gradient_ready;  // gradient_ready.h

}  // namespace

namespace detail {

GradientReadyScope::GradientReadyScope(GradientReady hook) : previous_(std::move(gradient_ready)) {
  gradient_ready = std::move(hook);
}

GradientReadyScope::~GradientReadyScope() { gradient_ready = std::move(previous_); }

GradientReady take_gradient_ready_hook() {
  GradientReady hook = std::move(gradient_ready);
  gradient_ready = nullptr;
  return hook;
}

}  // namespace detail

std::vector<Tensor> backward(std::span<const Tensor> roots, std::span<const Tensor> root_grads,
                             std::span<const Tensor> sources, bool create_graph,
                             UnconnectedGradients unconnected) {
  GradModeGuard guard(create_graph);
  std::vector<Tensor> result(sources.size());
  const detail::GradientReady ready_hook = detail::take_gradient_ready_hook();

  // Where each source sits in the graph.
  std::unordered_map<Node*, std::vector<std::pair<uint32_t, size_t>>> source_slots;
  for (size_t i = 0; i < sources.size(); ++i) {
    const Tensor& s = sources[i];
    if (s.defined() && s.requires_grad())
      source_slots[s.impl()->grad_fn.get()].push_back({s.impl()->output_nr, i});
  }

  Graph graph;
  std::vector<Node*> root_nodes;
  for (const Tensor& r : roots)
    if (r.defined() && r.requires_grad()) {
      Node* n = r.impl()->grad_fn.get();
      explore(n, graph, source_slots);
      root_nodes.push_back(n);
    }

  // Count, for each needed node, the needed consumers that will send it a gradient.
  for (auto& [node, info] : graph) {
    if (!info.leads_to_source) continue;
    for (const Edge& e : node->inputs)
      if (e.node && graph[e.node.get()].leads_to_source) ++graph[e.node.get()].pending;
  }

  // Seed the roots.
  for (size_t i = 0; i < roots.size(); ++i) {
    const Tensor& r = roots[i];
    if (!r.defined() || !r.requires_grad()) continue;
    Node* n = r.impl()->grad_fn.get();
    if (!graph[n].leads_to_source) continue;
    Tensor seed = i < root_grads.size() && root_grads[i].defined() ? root_grads[i]
                                                                   : ops::ones_like(r);
    check(seed.shape() == r.shape(), "gradient: output_gradient has shape ", seed.shape(),
          " but the target has shape ", r.shape(), ".");
    accumulate(graph[n], r.impl()->output_nr, seed, std::max<size_t>(n->outputs.size(), 1));
  }

  std::vector<Node*> ready;
  for (Node* n : root_nodes) {
    NodeInfo& info = graph[n];
    if (info.leads_to_source && info.pending == 0) {
      info.pending = -1;  // queued
      ready.push_back(n);
    }
  }

  while (!ready.empty()) {
    Node* node = ready.back();
    ready.pop_back();
    NodeInfo& info = graph[node];
    info.grads.resize(std::max<size_t>(node->outputs.size(), 1));

    // All gradients of this node's outputs are in: hand out the ones the caller asked for.
    auto it = source_slots.find(node);
    if (it != source_slots.end())
      for (auto [nr, index] : it->second) {
        result[index] = info.grads[nr];
        if (ready_hook && result[index].defined()) ready_hook(index, result[index]);
      }
    if (node->is_leaf()) continue;

    std::vector<Tensor> grads = std::move(info.grads);
    for (size_t k = 0; k < grads.size(); ++k)
      if (!grads[k].defined()) grads[k] = ops::zeros_like(node->outputs[k]);
    Context ctx(*node, create_graph);
    std::vector<Tensor> input_grads = node->backward(ctx, grads);

    for (size_t i = 0; i < node->inputs.size(); ++i) {
      const Edge& e = node->inputs[i];
      if (!e.node) continue;
      NodeInfo& next = graph[e.node.get()];
      if (!next.leads_to_source) continue;
      if (i < input_grads.size() && input_grads[i].defined()) {
        const Tensor& g = input_grads[i];
        const Tensor& expected = e.node->is_leaf() ? Tensor() : e.node->outputs[e.output_nr];
        if (expected.defined())
          check<RuntimeError>(g.shape() == expected.shape(), "internal error: the gradient rule of '",
                              node->name(), "' returned shape ", g.shape(), " for input ", i,
                              " of shape ", expected.shape(), ".");
        accumulate(next, e.output_nr, g, std::max<size_t>(e.node->outputs.size(), 1));
      }
      if (--next.pending == 0) {
        next.pending = -1;
        ready.push_back(e.node.get());
      }
    }
  }

  for (size_t i = 0; i < sources.size(); ++i) {
    if (result[i].defined() || unconnected == UnconnectedGradients::None) continue;
    if (sources[i].defined()) result[i] = ops::zeros_like(sources[i]);
  }
  return result;
}

}  // namespace keras::autograd
