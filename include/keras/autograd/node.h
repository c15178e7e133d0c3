#pragma once
// The recorded graph: each op that runs under a GradientTape on an input that needs a
// gradient leaves one Node, holding its gradient rule (written with keras::ops, so it runs on
// every backend and can itself be differentiated).

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "keras/core/ref.h"
#include "keras/core/small_vector.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::autograd {

class Node;

/// Where an input of a node came from: output `output_nr` of `node`.
struct Edge {
  /// The node that produced the input; null when the input needs no gradient.
  Ref<Node> node;
  /// Which of that node's outputs the input is.
  uint32_t output_nr = 0;
};

/// The state a gradient rule reads.
class Context {
 public:
  /// The context of `node`'s rule; `create_graph` when the backward pass is itself recorded.
  Context(Node& node, bool create_graph) : node_(node), create_graph_(create_graph) {}
  /// Output i of the op. Attached to the graph when building a higher-order graph.
  Tensor output(size_t i = 0) const;
  /// Whether the rule must produce a gradient for input i (it may return an undefined Tensor
  /// otherwise, and skip the work).
  bool needs_input_grad(size_t i) const;

 private:
  Node& node_;
  bool create_graph_;
};

/// One recorded op: its gradient rule and the edges to its inputs' producers.
class Node : public RefCounted {
 public:
  /// A node named after its op; `name` is not copied, so it must outlive the node (a literal).
  explicit Node(std::string_view name) : name_(name) {}
  ~Node() override;

  /// The op's name, as passed to record() (for error messages and debugging).
  std::string_view name() const { return name_; }
  /// Gradients with respect to each input, given the gradient of each output (missing output
  /// gradients arrive as zeros). An undefined Tensor means "no gradient".
  virtual std::vector<Tensor> backward(const Context& ctx, std::span<const Tensor> grads) = 0;

  /// One edge per input; an empty edge (null node) for an input that needs no gradient.
  std::vector<Edge> inputs;
  /// Outputs, kept detached (no grad_fn) so that a node never owns itself through them.
  std::vector<Tensor> outputs;
  /// True for the leaf node of a watched tensor or a variable; it has no rule.
  virtual bool is_leaf() const { return false; }

 private:
  std::string_view name_;
};

/// The node of a watched tensor or a variable: where gradients stop.
class LeafNode final : public Node {
 public:
  LeafNode() : Node("leaf") {}
  std::vector<Tensor> backward(const Context&, std::span<const Tensor>) override { return {}; }
  bool is_leaf() const override { return true; }
};

/// A rule for a one-output op: grad_input_i = rule(ctx, grad_output).
using UnaryRule = std::function<std::vector<Tensor>(const Context&, const Tensor&)>;
/// A rule for a multi-output op.
using MultiRule = std::function<std::vector<Tensor>(const Context&, std::span<const Tensor>)>;

/// True when ops must record: grad mode is on and a GradientTape is active on this thread.
bool is_recording();

/// True when is_recording() and some input requires a gradient (the check every op makes
/// before it builds a rule, so inference never allocates one).
inline bool should_record(std::initializer_list<const Tensor*> inputs) {
  if (!is_recording()) return false;
  for (const Tensor* t : inputs)
    if (t->defined() && t->requires_grad()) return true;
  return false;
}
template <typename... T>
/// should_record over tensors passed as separate arguments.
inline bool should_record(const T&... inputs) {
  return should_record({&inputs...});
}
/// should_record over a list of tensors.
bool should_record_list(std::span<const Tensor> inputs);

/// Links `output` to a new node running `rule` for `inputs` (the tensors the op read).
void record(std::string_view name, std::span<const Tensor> inputs, Tensor& output,
            UnaryRule rule);
/// record() over a braced list of inputs.
inline void record(std::string_view name, std::initializer_list<Tensor> inputs, Tensor& output,
                   UnaryRule rule) {
  record(name, std::span<const Tensor>(inputs.begin(), inputs.size()), output, std::move(rule));
}
/// The same for ops with several outputs.
void record_multi(std::string_view name, std::span<const Tensor> inputs,
                  std::span<Tensor> outputs, MultiRule rule);

/// Gives `t` a leaf node if it has none, so gradients can be taken with respect to it.
void make_leaf(Tensor& t);

}  // namespace keras::autograd

#pragma GCC visibility pop
