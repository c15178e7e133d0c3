#include "compiler/fold_batch_norm.h"

#include <optional>
#include <vector>

#include "compiler/pattern.h"

namespace keras::compiler::detail {
namespace {

using backend::Array;
using backend::BinaryOp;
using Step = backend::ElementwiseStep;
using Draw = const std::pair<uint64_t, uint64_t>*;

// conv -> [+ bias] -> * inv -> + res, each call the only reader of the one before. The conv is
// a plain one or a conv_bias_activation without activation (what a Conv2D layer records); the
// bias is its own or the Add's per-channel operand. k_* are the per-channel operands' positions
// in their calls.
struct FoldMatch {
  int conv = -1, bias_add = -1, mul = -1, add = -1;
  size_t k_inv = 0, k_res = 0;
  Array bias;  // (C), or no storage
  int bias_slot = -1;
};

bool is_binary(const Instruction& instr, BinaryOp op) {
  return instr.elementwise && instr.elementwise->kind == Step::Kind::Binary &&
         static_cast<BinaryOp>(instr.elementwise->op) == op && instr.arrays.size() == 3 &&
         instr.num_outputs == 1 && !instr.reads_outputs;
}

// `a` is a float32 vector along the last axis of `shape`, broadcast over the others.
bool per_channel(const Array& a, const Shape& shape) {
  const int r = static_cast<int>(shape.size());
  if (!a.storage || a.dtype != DType::Float32 || a.shape != shape || r == 0) return false;
  for (int d = 0; d + 1 < r; ++d)
    if (a.strides[d] != 0 && shape[d] != 1) return false;
  return a.strides[r - 1] == 1 || shape[r - 1] == 1;
}

// `a` (a per-channel view) seen with `shape`: its last axis along shape's last, 0 elsewhere.
Array channel_view(const Array& a, const Shape& shape) {
  Array v = a;
  v.shape = shape;
  v.strides = Strides(shape.size(), 0);
  if (!shape.empty() && shape.back() != 1) v.strides.back() = 1;
  return v;
}

Instruction binary(BinaryOp op, const Array& out, int out_slot, const Array& a, int a_slot,
                   const Array& b, int b_slot) {
  Instruction instr;
  instr.key = (KeyWriter("binary") << op).take();
  instr.arrays = {out, a, b};
  instr.slots = {out_slot, a_slot, b_slot};
  instr.num_outputs = 1;
  Step step;
  step.kind = Step::Kind::Binary;
  step.op = static_cast<uint8_t>(op);
  instr.elementwise = step;
  instr.run = [op](backend::Backend& be, const Array* x, Draw) { be.binary(op, x[0], x[1], x[2]); };
  return instr;
}

class FoldMatcher {
 public:
  explicit FoldMatcher(const Trace& trace) : t_(trace), code_(trace.instructions) {
    uses_ = slot_uses(code_, trace.slots.size());
  }

  std::optional<FoldMatch> find(size_t from) const {
    for (size_t i = from; i < code_.size(); ++i) {
      FoldMatch m;
      m.conv = static_cast<int>(i);
      if (conv(m) && chain(m) && movable(m)) return m;
    }
    return std::nullopt;
  }

 private:
  // The call's output is a private buffer that it alone writes and one call reads: that call.
  int only_reader(int i) const {
    const Instruction& instr = code_[i];
    const int s = instr.slots[0];
    if (instr.num_outputs != 1 || !private_whole_buffer(t_, s, instr.arrays[0]) ||
        uses_.writers[s] != std::vector<int>{i} || uses_.readers[s].size() != 1)
      return -1;
    return uses_.readers[s][0];
  }

  bool conv(FoldMatch& m) const {
    const Instruction& p = code_[m.conv];
    const bool plain = is(p, "conv") && p.arrays.size() == 3;
    const bool epilogue = is(p, "conv_bias_activation") && p.arrays.size() == 4 &&
                          p.activation == backend::Activation::None;
    if (!(plain || epilogue) || !p.conv_spec || !p.conv_spec->channels_last) return false;
    const Array &z = p.arrays[0], &x = p.arrays[1], &w = p.arrays[2];
    if (z.dtype != DType::Float32 || x.dtype != DType::Float32 || w.dtype != DType::Float32 ||
        !x.storage || !w.storage || z.numel() == 0 || w.rank() == 0 ||
        w.shape.back() != z.shape.back())
      return false;
    // The folded weights cost a pass over the kernel each replay; the fold saves one over z
    // (the factor: fold_batch_norm.h).
    if (z.numel() < 4 * w.numel()) return false;
    if (epilogue && p.arrays[3].storage) {
      if (p.arrays[3].dtype != DType::Float32) return false;
      m.bias = p.arrays[3];
      m.bias_slot = p.slots[3];
    }
    backend::Backend& be = z.storage->owner();
    return all_on(p, be) && backend::use_fused(be, backend::Capability::Epilogue);
  }

  // `e` (reading `prev`'s output) with its per-channel operand at `k`.
  bool step_of(int prev, int e, BinaryOp op, size_t& k) const {
    if (e < 0 || !is_binary(code_[e], op)) return false;
    const Instruction &p = code_[prev], &c = code_[e];
    if (same_view(c, 1, p, 0) && c.slots[2] != p.slots[0])
      k = 2;
    else if (same_view(c, 2, p, 0) && c.slots[1] != p.slots[0])
      k = 1;
    else
      return false;
    const Shape& shape = p.arrays[0].shape;
    return c.arrays[0].shape == shape && c.arrays[0].dtype == DType::Float32 &&
           c.arrays[0].is_contiguous() && per_channel(c.arrays[k], shape) &&
           all_on(c, p.arrays[0].storage->owner());
  }

  bool chain(FoldMatch& m) const {
    int prev = m.conv, next = only_reader(m.conv);
    size_t k_bias = 0;
    if (!m.bias.storage && step_of(prev, next, BinaryOp::Add, k_bias)) {
      m.bias_add = next;
      m.bias = channel_view(code_[next].arrays[k_bias], Shape{code_[next].arrays[0].shape.back()});
      m.bias_slot = code_[next].slots[k_bias];
      prev = next;
      next = only_reader(next);
    }
    if (!step_of(prev, next, BinaryOp::Mul, m.k_inv)) return false;
    m.mul = next;
    next = only_reader(next);
    if (!step_of(m.mul, next, BinaryOp::Add, m.k_res)) return false;
    m.add = next;
    return true;
  }

  // The group runs at the final add: the convolution's inputs and the per-channel operands
  // still hold there what the calls read where they were, and nothing in between is control
  // flow, a guard or inside a region.
  bool movable(const FoldMatch& m) const {
    for (int i = m.conv; i <= m.add; ++i)
      if (code_[i].control) return false;
    for (int g : {m.conv, m.bias_add, m.mul, m.add})
      if (g >= 0 && (code_[g].region > 0 || code_[g].guard)) return false;
    const Instruction& p = code_[m.conv];
    if (!unwritten_between(code_, m.conv, m.add, {p.slots[1], p.slots[2]})) return false;
    if (!unwritten_between(code_, m.bias_add >= 0 ? m.bias_add : m.conv, m.add, {m.bias_slot}))
      return false;
    return unwritten_between(code_, m.mul, m.add, {code_[m.mul].slots[m.k_inv]});
  }

  const Trace& t_;
  const std::vector<Instruction>& code_;
  SlotUses uses_;
};

// The folded calls, in order: w' = w * inv; [t = b * inv; b' = t + res]; z = conv(x, w');
// y = z + b'.
std::vector<Instruction> folded(Trace& t, const FoldMatch& m) {
  const std::vector<Instruction>& code = t.instructions;
  const Instruction &conv = code[m.conv], &mul = code[m.mul], &add = code[m.add];
  const Array &z = conv.arrays[0], &w = conv.arrays[2];
  backend::Backend& be = z.storage->owner();
  const Shape channels{z.shape.back()};
  const Array& inv = mul.arrays[m.k_inv];
  const int inv_slot = mul.slots[m.k_inv];
  std::vector<Instruction> out;

  int w_slot = -1;
  const Array folded_w = new_step_buffer(t, be, DType::Float32, w.shape, w_slot);
  out.push_back(binary(BinaryOp::Mul, folded_w, w_slot, w, conv.slots[2],
                       channel_view(inv, w.shape), inv_slot));

  Array bias = add.arrays[m.k_res];
  int bias_slot = add.slots[m.k_res];
  if (m.bias.storage) {
    int scaled_slot = -1, sum_slot = -1;
    const Array scaled = new_step_buffer(t, be, DType::Float32, channels, scaled_slot);
    out.push_back(binary(BinaryOp::Mul, scaled, scaled_slot, channel_view(m.bias, channels),
                         m.bias_slot, channel_view(inv, channels), inv_slot));
    const Array sum = new_step_buffer(t, be, DType::Float32, channels, sum_slot);
    out.push_back(binary(BinaryOp::Add, sum, sum_slot, scaled, scaled_slot,
                         channel_view(bias, channels), bias_slot));
    bias = sum;
    bias_slot = sum_slot;
  }

  // A plain convolution, so that the linear pass takes the bias add and the activation after it.
  Instruction c;
  c.key = KeyWriter("conv").take();
  c.arrays = {z, conv.arrays[1], folded_w};
  c.slots = {conv.slots[0], conv.slots[1], w_slot};
  c.num_outputs = 1;
  c.conv_spec = conv.conv_spec;
  c.run = [spec = *conv.conv_spec](backend::Backend& b, const Array* a, Draw) {
    b.conv(a[0], a[1], a[2], spec);
  };
  out.push_back(std::move(c));
  out.push_back(binary(BinaryOp::Add, add.arrays[0], add.slots[0], z, conv.slots[0],
                       channel_view(bias, z.shape), bias_slot));
  return out;
}

void apply(Trace& t, const FoldMatch& m) {
  std::vector<Instruction> replacement = folded(t, m);
  std::vector<Instruction>& code = t.instructions;
  std::vector<Instruction> out;
  for (int i = 0; i < static_cast<int>(code.size()); ++i) {
    if (i == m.add) {
      for (Instruction& r : replacement) out.push_back(std::move(r));
    } else if (i != m.conv && i != m.bias_add && i != m.mul) {
      out.push_back(std::move(code[i]));
    }
  }
  code = std::move(out);
}

}  // namespace

BatchNormFoldStats fold_batch_norm(Trace& trace) {
  BatchNormFoldStats stats;
  // Inference only: a step that assigns variables (training) keeps the eager values.
  for (const Instruction& instr : trace.instructions)
    for (int k = 0; k < instr.num_outputs; ++k)
      if (instr.slots[k] >= 0 && trace.kinds[instr.slots[k]] == SlotKind::Variable) return stats;
  size_t from = 0;
  while (true) {
    const FoldMatcher matcher(trace);
    const std::optional<FoldMatch> m = matcher.find(from);
    if (!m) break;
    from = static_cast<size_t>(m->conv);  // the calls before it matched nothing
    apply(trace, *m);
    ++stats.folds;
  }
  return stats;
}

}  // namespace keras::compiler::detail
