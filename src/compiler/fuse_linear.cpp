#include "compiler/fuse_linear.h"

#include <optional>
#include <vector>

#include "compiler/pattern.h"

namespace keras::compiler::detail {
namespace {

using backend::Activation;
using backend::Array;
using Step = backend::ElementwiseStep;
using Draw = const std::pair<uint64_t, uint64_t>*;

thread_local bool linear_pass_off = false;

// The activation a unary call computes with the formula of backend::Activation.
std::optional<Activation> activation_of(const Instruction& instr) {
  if (!instr.elementwise || instr.elementwise->kind != Step::Kind::Unary || instr.arrays.size() != 2)
    return std::nullopt;
  switch (static_cast<backend::UnaryOp>(instr.elementwise->op)) {
    case backend::UnaryOp::Relu: return Activation::Relu;
    case backend::UnaryOp::Sigmoid: return Activation::Sigmoid;
    case backend::UnaryOp::Tanh: return Activation::Tanh;
    case backend::UnaryOp::Gelu: return Activation::Gelu;
    case backend::UnaryOp::Silu: return Activation::Silu;
    case backend::UnaryOp::Clip:  // ops::relu6 (ReLU(max_value=6)); other bounds stay a call
      if (instr.elementwise->p0 == 0.0 && instr.elementwise->p1 == 6.0) return Activation::Relu6;
      return std::nullopt;
    default: return std::nullopt;
  }
}

// A product, the Add of its bias and maybe an activation.
struct LinearMatch {
  int product = -1, add = -1, activation = -1;
  Array bias;  // (N): the Add's broadcast operand as the fused call reads it
  int bias_slot = -1;
  Activation act = Activation::None;
};

class LinearMatcher {
 public:
  explicit LinearMatcher(const Trace& trace) : t_(trace), code_(trace.instructions) {
    uses_ = slot_uses(code_, trace.slots.size());
  }

  std::optional<LinearMatch> find(size_t from) const {
    for (size_t i = from; i < code_.size(); ++i) {
      LinearMatch m;
      m.product = static_cast<int>(i);
      if (product(m) && bias_add(m)) {
        activation(m);
        std::vector<int> group{m.product, m.add};
        if (m.activation >= 0) group.push_back(m.activation);
        if (can_run_together(code_, group)) return m;
      }
    }
    return std::nullopt;
  }

 private:
  const std::vector<int>& readers_of_output(int i) const {
    return uses_.readers[code_[i].slots[0]];
  }
  // The call's only output is a buffer of the step's own that only it writes.
  bool private_output(int i) const {
    const Instruction& instr = code_[i];
    return instr.num_outputs == 1 && !instr.reads_outputs &&
           private_whole_buffer(t_, instr.slots[0], instr.arrays[0]) &&
           uses_.writers[instr.slots[0]] == std::vector<int>{i};
  }

  bool product(const LinearMatch& m) const {
    const Instruction& p = code_[m.product];
    const bool matmul = is(p, "matmul"), conv = is(p, "conv");
    if (!(matmul || conv) || !private_output(m.product)) return false;
    const Array &out = p.arrays[0], &x = p.arrays[1], &w = p.arrays[2];
    if ((out.dtype != DType::Float32 && out.dtype != DType::Float64) || x.dtype != out.dtype ||
        w.dtype != out.dtype || out.numel() == 0 || !x.storage || !w.storage)
      return false;
    backend::Backend& be = out.storage->owner();
    if (!all_on(p, be)) return false;
    if (matmul)
      return out.rank() == 2 && x.rank() == 2 && w.rank() == 2 &&
             backend::use_fused(be, backend::Capability::Linear);
    return p.conv_spec && p.conv_spec->channels_last &&
           backend::use_fused(be, backend::Capability::Epilogue);
  }

  // The product's only reader adds a bias broadcast along its last axis.
  bool bias_add(LinearMatch& m) const {
    const Instruction& p = code_[m.product];
    const std::vector<int>& readers = readers_of_output(m.product);
    if (readers.size() != 1) return false;
    m.add = readers[0];
    const Instruction& add = code_[m.add];
    if (!add.elementwise || add.elementwise->kind != Step::Kind::Binary ||
        static_cast<backend::BinaryOp>(add.elementwise->op) != backend::BinaryOp::Add ||
        add.arrays.size() != 3 || add.reads_outputs || add.num_outputs != 1)
      return false;
    size_t k_bias;
    if (same_view(add, 1, p, 0) && add.slots[2] != p.slots[0])
      k_bias = 2;
    else if (same_view(add, 2, p, 0) && add.slots[1] != p.slots[0])
      k_bias = 1;
    else
      return false;
    const Array &sum = add.arrays[0], &b = add.arrays[k_bias], &z = p.arrays[0];
    if (sum.dtype != z.dtype || sum.shape != z.shape || !sum.is_contiguous() ||
        b.dtype != z.dtype || b.shape != z.shape || !b.storage || !all_on(add, z.storage->owner()))
      return false;
    const int r = z.rank();
    for (int d = 0; d + 1 < r; ++d)
      if (b.strides[d] != 0 && z.shape[d] != 1) return false;
    if (b.strides[r - 1] != 1 && z.shape[r - 1] != 1) return false;
    // The sum may not overwrite what the fused call reads.
    for (size_t k = 1; k < p.slots.size(); ++k)
      if (p.slots[k] == add.slots[0]) return false;
    if (add.slots[k_bias] == add.slots[0]) return false;
    m.bias = b;
    m.bias_slot = add.slots[k_bias];
    m.bias.shape = Shape{z.shape[r - 1]};
    m.bias.strides = Strides{1};
    return true;
  }

  // The activation joins when it alone reads the sum, a buffer of the step's own.
  void activation(LinearMatch& m) const {
    const std::vector<int>& readers = readers_of_output(m.add);
    if (readers.size() != 1 || !private_output(m.add)) return;
    const Instruction &add = code_[m.add], &u = code_[readers[0]];
    const std::optional<Activation> act = activation_of(u);
    if (!act || u.num_outputs != 1 || u.reads_outputs || !same_view(u, 1, add, 0) ||
        u.arrays[0].dtype != add.arrays[0].dtype || u.arrays[0].shape != add.arrays[0].shape ||
        !u.arrays[0].is_contiguous() || !all_on(u, add.arrays[0].storage->owner()))
      return;
    const Instruction& p = code_[m.product];
    for (size_t k = 1; k < p.slots.size(); ++k)
      if (p.slots[k] == u.slots[0]) return;
    if (u.slots[0] == m.bias_slot) return;
    m.activation = readers[0];
    m.act = *act;
  }

  const Trace& t_;
  const std::vector<Instruction>& code_;
  SlotUses uses_;
};

Instruction fused(const std::vector<Instruction>& code, const LinearMatch& m) {
  const Instruction& p = code[m.product];
  const Instruction& last = code[m.activation >= 0 ? m.activation : m.add];
  Instruction f;
  f.arrays = {last.arrays[0], p.arrays[1], p.arrays[2], m.bias};
  f.slots = {last.slots[0], p.slots[1], p.slots[2], m.bias_slot};
  f.num_outputs = 1;
  f.activation = m.act;
  const Activation act = m.act;
  if (is(p, "matmul")) {
    f.key = KeyWriter("linear").take();
    f.run = [act](backend::Backend& be, const Array* a, Draw) {
      be.linear(a[0], a[1], a[2], a[3], act);
    };
  } else {
    f.key = KeyWriter("conv_bias_activation").take();
    f.conv_spec = p.conv_spec;
    f.run = [act, spec = *p.conv_spec](backend::Backend& be, const Array* a, Draw) {
      be.conv_bias_activation(a[0], a[1], a[2], a[3], act, spec);
    };
  }
  return f;
}

// The fused call where the group's last call was.
void apply(Trace& t, const LinearMatch& m, LinearFusionStats& stats) {
  std::vector<Instruction>& code = t.instructions;
  const int last = m.activation >= 0 ? m.activation : m.add;
  Instruction f = fused(code, m);
  (is(code[m.product], "matmul") ? stats.linear : stats.conv) += 1;
  if (m.activation >= 0) ++stats.activations;
  std::vector<Instruction> out;
  for (int i = 0; i < static_cast<int>(code.size()); ++i) {
    if (i == last)
      out.push_back(std::move(f));
    else if (i != m.product && i != m.add && i != m.activation)
      out.push_back(std::move(code[i]));
  }
  code = std::move(out);
}

}  // namespace

LinearFusionOff::LinearFusionOff() : previous_(linear_pass_off) {
  linear_pass_off = true;
}
LinearFusionOff::~LinearFusionOff() {
  linear_pass_off = previous_;
}

LinearFusionStats fuse_linear(Trace& trace) {
  LinearFusionStats stats;
  if (linear_pass_off) return stats;
  size_t from = 0;
  while (true) {
    const LinearMatcher matcher(trace);
    const std::optional<LinearMatch> m = matcher.find(from);
    if (!m) break;
    from = static_cast<size_t>(m->product);  // the calls before it matched nothing
    apply(trace, *m, stats);
  }
  return stats;
}

}  // namespace keras::compiler::detail
