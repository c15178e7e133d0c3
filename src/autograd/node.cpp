#include "keras/autograd/node.h"

#include "autograd/state.h"
#include "keras/tensor/tensor_impl.h"

namespace keras {

namespace detail {
TensorImpl::TensorImpl(backend::Array a) : array(std::move(a)) {}
TensorImpl::~TensorImpl() = default;
}  // namespace detail

namespace autograd {
namespace {

// A node whose rule is a callable (the form every op uses).
class LambdaNode final : public Node {
 public:
  LambdaNode(std::string_view name, MultiRule rule) : Node(name), rule_(std::move(rule)) {}
  std::vector<Tensor> backward(const Context& ctx, std::span<const Tensor> grads) override {
    return rule_(ctx, grads);
  }

 private:
  MultiRule rule_;
};

Edge edge_of(const Tensor& t) {
  if (!t.defined() || !t.requires_grad()) return Edge{};
  return Edge{t.impl()->grad_fn, t.impl()->output_nr};
}

// The output as the node keeps it: same array, no grad_fn.
Tensor detached(const Tensor& t) {
  return Tensor(make_ref<keras::detail::TensorImpl>(t.array()));
}

}  // namespace

Node::~Node() = default;

Tensor Context::output(size_t i) const {
  Tensor out = node_.outputs.at(i);
  if (create_graph_) {
    // Reattach, so that a rule using its output is itself differentiable.
    Tensor attached = detached(out);
    attached.impl()->grad_fn = Ref<Node>(&node_);
    attached.impl()->output_nr = static_cast<uint32_t>(i);
    return attached;
  }
  return out;
}

bool Context::needs_input_grad(size_t i) const {
  return i < node_.inputs.size() && static_cast<bool>(node_.inputs[i].node);
}

bool is_recording() { return state().grad_mode && state().active_tapes > 0; }

bool should_record_list(std::span<const Tensor> inputs) {
  if (!is_recording()) return false;
  for (const Tensor& t : inputs)
    if (t.defined() && t.requires_grad()) return true;
  return false;
}

void record(std::string_view name, std::span<const Tensor> inputs, Tensor& output,
            UnaryRule rule) {
  Tensor outputs[1] = {output};  // shares output's impl, so the link lands on output
  record_multi(name, inputs, outputs,
               [rule = std::move(rule)](const Context& ctx, std::span<const Tensor> grads) {
                 return rule(ctx, grads[0]);
               });
}

void record_multi(std::string_view name, std::span<const Tensor> inputs,
                  std::span<Tensor> outputs, MultiRule rule) {
  // An op that returned one of its inputs unchanged is the identity: nothing to record (and
  // linking would rewrite the input's own history).
  for (const Tensor& out : outputs)
    for (const Tensor& in : inputs)
      if (out.is_same(in)) return;
  auto node = make_ref<LambdaNode>(name, std::move(rule));
  node->inputs.reserve(inputs.size());
  for (const Tensor& t : inputs) node->inputs.push_back(edge_of(t));
  node->outputs.reserve(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor& out = outputs[i];
    node->outputs.push_back(detached(out));
    // Integer and bool outputs (indices, masks) carry no gradient.
    if (!is_floating(out.dtype()) && !is_complex(out.dtype())) continue;
    out.impl()->grad_fn = node;
    out.impl()->output_nr = static_cast<uint32_t>(i);
  }
}

void make_leaf(Tensor& t) {
  if (!t.defined() || t.requires_grad()) return;
  if (!is_floating(t.dtype()) && !is_complex(t.dtype())) return;
  t.impl()->grad_fn = make_ref<LeafNode>();
  t.impl()->output_nr = 0;
}

}  // namespace autograd
}  // namespace keras
