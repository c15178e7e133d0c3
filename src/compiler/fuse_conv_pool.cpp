#include "compiler/fuse_conv_pool.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "compiler/pattern.h"

namespace keras::compiler::detail {
namespace {

using backend::Activation;
using backend::Array;
using Draw = const std::pair<uint64_t, uint64_t>*;

thread_local bool conv_pool_pass_off = false;

bool max_pool_2x2(const backend::PoolSpec& s) {
  const SmallVector<int64_t, 3> two{2, 2}, zero{0, 0};
  return s.kind == backend::PoolKind::Max && s.spatial_dims == 2 && s.channels_last &&
         s.window == two && s.strides == two && s.pad_before == zero && s.pad_after == zero;
}

// The calls of one pair and of its backward chain (-1: absent).
struct ConvPoolMatch {
  int conv = -1, pool = -1;
  int pool_backward = -1;
  int activation_backward = -1;  // bias_activation_backward, or the bias gradient's sum (None)
  int input_grad = -1, kernel_grad = -1;
  Array db;  // the bias gradient the chain writes (empty when none)
};

class ConvPoolMatcher {
 public:
  explicit ConvPoolMatcher(const Trace& trace) : t_(trace), code_(trace.instructions) {
    uses_ = slot_uses(code_, trace.slots.size());
  }

  /// The first pair (from call `from` on) that can be fused.
  std::optional<ConvPoolMatch> find(size_t from) const {
    for (size_t i = from; i < code_.size(); ++i) {
      ConvPoolMatch m;
      m.conv = static_cast<int>(i);
      if (forward(m)) return m;
    }
    return std::nullopt;
  }

 private:
  const Instruction& at(int i) const { return code_[i]; }
  const std::vector<int>& readers(const Instruction& instr, size_t k) const {
    return uses_.readers[instr.slots[k]];
  }
  bool written_only_by(const Instruction& instr, size_t k, int i) const {
    return uses_.writers[instr.slots[k]] == std::vector<int>{i};
  }

  // The conv and pool, then whatever else reads z: the backward chain or nothing.
  bool forward(ConvPoolMatch& m) const {
    const Instruction& conv = at(m.conv);
    if (!is(conv, "conv_bias_activation") || !conv.conv_spec || !conv.activation) return false;
    const backend::ConvSpec& spec = *conv.conv_spec;
    const Activation act = *conv.activation;
    if (spec.spatial_dims != 2 || !spec.channels_last ||
        !(act == Activation::None || act == Activation::Relu || act == Activation::Sigmoid ||
          act == Activation::Tanh))
      return false;
    const Array &z = conv.arrays[0], &x = conv.arrays[1], &kernel = conv.arrays[2],
                &bias = conv.arrays[3];
    if ((z.dtype != DType::Float32 && z.dtype != DType::Float64) || x.dtype != z.dtype ||
        kernel.dtype != z.dtype || z.rank() != 4 || z.shape[1] < 2 || z.shape[2] < 2 ||
        z.shape[3] <= 0 || x.numel() == 0 || !x.storage || !kernel.storage)
      return false;
    if (bias.storage && (bias.dtype != z.dtype || bias.shape != Shape{z.shape[3]})) return false;
    backend::Backend& be = z.storage->owner();
    if (!all_on(conv, be) || !backend::use_fused(be, backend::Capability::ConvPool) ||
        !private_whole_buffer(t_, conv.slots[0], z) || !written_only_by(conv, 0, m.conv))
      return false;
    std::vector<int> pool_backwards, activation_backwards;
    for (int r : readers(conv, 0)) {
      const Instruction& reader = at(r);
      if (is(reader, "pool") && m.pool < 0 && reader.pool_spec && max_pool_2x2(*reader.pool_spec))
        m.pool = r;
      else if (is(reader, "pool_backward"))
        pool_backwards.push_back(r);
      else if (is(reader, "bias_activation_backward"))
        activation_backwards.push_back(r);
      else
        return false;
    }
    if (m.pool < 0) return false;
    const Instruction& pool = at(m.pool);
    const Array& y = pool.arrays[0];
    if (!same_view(pool, 1, conv, 0) || !all_on(pool, be) || !y.is_contiguous() ||
        y.dtype != z.dtype || y.shape != Shape{z.shape[0], z.shape[1] / 2, z.shape[2] / 2, z.shape[3]} ||
        !can_run_together(code_, {m.conv, m.pool}))
      return false;
    if (pool_backwards.empty() && activation_backwards.empty()) return true;  // no training
    return backward(m, pool_backwards, activation_backwards, be);
  }

  bool backward(ConvPoolMatch& m, const std::vector<int>& pool_backwards,
                const std::vector<int>& activation_backwards, backend::Backend& be) const {
    if (pool_backwards.size() != 1) return false;
    const Instruction &conv = at(m.conv), &pool = at(m.pool);
    m.pool_backward = pool_backwards[0];
    const Instruction& pb = at(m.pool_backward);  // (dz1; g, z, y)
    if (!pb.pool_spec || !same_spec(*pb.pool_spec, *pool.pool_spec) || !same_view(pb, 2, conv, 0) ||
        !same_view(pb, 3, pool, 0) || pb.arrays[1].shape != pool.arrays[0].shape ||
        pb.arrays[1].dtype != pool.arrays[0].dtype || !all_on(pb, be) ||
        !private_whole_buffer(t_, pb.slots[0], pb.arrays[0]) ||
        !written_only_by(pb, 0, m.pool_backward))
      return false;
    // dz: where the convolution's gradients read from.
    const Instruction* dz_writer = &pb;
    std::vector<int> dz_readers;
    if (*conv.activation == Activation::None) {
      if (!activation_backwards.empty()) return false;
      for (int r : readers(pb, 0)) {
        const Instruction& reader = at(r);
        if (is(reader, "reduce") && m.activation_backward < 0 && bias_sum(reader, pb, be)) {
          m.activation_backward = r;
          m.db = reader.arrays[0];
          m.db.shape = Shape{m.db.numel()};
          m.db.strides = contiguous_strides(m.db.shape);
        } else {
          dz_readers.push_back(r);
        }
      }
    } else {
      if (activation_backwards.size() != 1 || readers(pb, 0) != activation_backwards) return false;
      m.activation_backward = activation_backwards[0];
      const Instruction& ab = at(m.activation_backward);  // (dz, db; z, dz1)
      if (ab.activation != conv.activation || !same_view(ab, 2, conv, 0) ||
          !same_view(ab, 3, pb, 0) || !all_on(ab, be) ||
          !private_whole_buffer(t_, ab.slots[0], ab.arrays[0]) ||
          !written_only_by(ab, 0, m.activation_backward) || ab.arrays[0].shape != conv.arrays[0].shape)
        return false;
      m.db = ab.arrays[1];
      dz_writer = &ab;
      dz_readers = readers(ab, 0);
    }
    for (int r : dz_readers) {
      const Instruction& reader = at(r);
      if (!reader.conv_spec || !same_spec(*reader.conv_spec, *conv.conv_spec) || !all_on(reader, be))
        return false;
      if (is(reader, "conv_backward_input") && m.input_grad < 0 && same_view(reader, 1, *dz_writer, 0) &&
          same_view(reader, 2, conv, 2))
        m.input_grad = r;
      else if (is(reader, "conv_backward_kernel") && m.kernel_grad < 0 &&
               same_view(reader, 1, conv, 1) && same_view(reader, 2, *dz_writer, 0))
        m.kernel_grad = r;
      else
        return false;
    }
    std::vector<int> group{m.pool_backward};
    for (int i : {m.activation_backward, m.input_grad, m.kernel_grad})
      if (i >= 0) group.push_back(i);
    std::sort(group.begin(), group.end());
    // The fused backward reads x, the kernel and y where pool_backward was (between the conv
    // and the pool nothing writes x or the kernel: forward() checked).
    return group.front() == m.pool_backward && can_run_together(code_, group) &&
           unwritten_between(code_, m.pool, m.pool_backward,
                             {conv.slots[1], conv.slots[2], pool.slots[0]});
  }

  // db (O) = dz summed over N, H and W: the bias gradient with no activation.
  static bool bias_sum(const Instruction& reduce, const Instruction& pb, backend::Backend& be) {
    const Array& out = reduce.arrays[0];
    return reduce.reduction && reduce.reduction->first == backend::ReduceOp::Sum &&
           reduce.reduction->second == 0b0111 && same_view(reduce, 1, pb, 0) &&
           out.dtype == pb.arrays[0].dtype && out.is_contiguous() &&
           out.numel() == pb.arrays[0].shape[3] && all_on(reduce, be);
  }

  const Trace& t_;
  const std::vector<Instruction>& code_;
  SlotUses uses_;
};

// A new uint8 buffer of the step for the argmax of a pooled output `y`.
Array new_argmax(Trace& t, const Array& y, int& slot) {
  return new_step_buffer(t, y.storage->owner(), DType::UInt8, y.shape, slot);
}

Instruction fused_forward(const Instruction& conv, const Instruction& pool, const Array& argmax,
                          int argmax_slot) {
  Instruction f;
  f.key = KeyWriter("conv_bias_activation_max_pool").take();
  f.arrays = {pool.arrays[0], argmax, conv.arrays[1], conv.arrays[2], conv.arrays[3]};
  f.slots = {pool.slots[0], argmax_slot, conv.slots[1], conv.slots[2], conv.slots[3]};
  f.num_outputs = 2;
  f.conv_spec = conv.conv_spec;
  f.activation = conv.activation;
  f.run = [spec = *conv.conv_spec, act = *conv.activation](backend::Backend& be, const Array* a,
                                                           Draw) {
    be.conv_bias_activation_max_pool(a[0], a[1], a[2], a[3], a[4], act, spec);
  };
  return f;
}

Instruction fused_backward(const std::vector<Instruction>& code, const ConvPoolMatch& m,
                           const Array& argmax, int argmax_slot) {
  const Instruction &conv = code[m.conv], &pool = code[m.pool], &pb = code[m.pool_backward];
  Instruction f;
  f.key = KeyWriter("conv_bias_activation_max_pool_backward").take();
  auto output = [&](int i, const Array& a) {
    f.arrays.push_back(i >= 0 ? a : Array{});
    f.slots.push_back(i >= 0 && a.storage ? code[i].slots[0] : -1);
  };
  output(m.input_grad, m.input_grad >= 0 ? code[m.input_grad].arrays[0] : Array{});
  output(m.kernel_grad, m.kernel_grad >= 0 ? code[m.kernel_grad].arrays[0] : Array{});
  // db is the activation backward's second output, or the sum's only one.
  f.arrays.push_back(m.db);
  f.slots.push_back(!m.db.storage ? -1
                    : *conv.activation == Activation::None ? code[m.activation_backward].slots[0]
                                                           : code[m.activation_backward].slots[1]);
  f.arrays.insert(f.arrays.end(), {conv.arrays[1], conv.arrays[2], pool.arrays[0], pb.arrays[1], argmax});
  f.slots.insert(f.slots.end(), {conv.slots[1], conv.slots[2], pool.slots[0], pb.slots[1], argmax_slot});
  f.num_outputs = 3;
  f.conv_spec = conv.conv_spec;
  f.activation = conv.activation;
  f.run = [spec = *conv.conv_spec, act = *conv.activation](backend::Backend& be, const Array* a,
                                                           Draw) {
    be.conv_bias_activation_max_pool_backward(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
                                              act, spec);
  };
  return f;
}

// Replaces the pair (and its chain) in the instruction list: the forward call where the pool
// was, the backward call where pool_backward was.
void apply(Trace& t, const ConvPoolMatch& m, ConvPoolFusionStats& stats) {
  std::vector<Instruction>& code = t.instructions;
  // The argmax only where a backward call reads it: an inference step pools without one.
  int argmax_slot = -1;
  const Array argmax =
      m.pool_backward >= 0 ? new_argmax(t, code[m.pool].arrays[0], argmax_slot) : Array{};
  Instruction forward = fused_forward(code[m.conv], code[m.pool], argmax, argmax_slot);
  std::optional<Instruction> backward;
  if (m.pool_backward >= 0) backward = fused_backward(code, m, argmax, argmax_slot);
  std::vector<Instruction> out;
  for (int i = 0; i < static_cast<int>(code.size()); ++i) {
    if (i == m.pool)
      out.push_back(std::move(forward));
    else if (i == m.pool_backward)
      out.push_back(std::move(*backward));
    else if (i != m.conv && i != m.activation_backward && i != m.input_grad && i != m.kernel_grad)
      out.push_back(std::move(code[i]));
  }
  code = std::move(out);
  ++stats.pairs;
  if (backward) ++stats.backward;
}

}  // namespace

ConvPoolFusionOff::ConvPoolFusionOff() : previous_(conv_pool_pass_off) {
  conv_pool_pass_off = true;
}
ConvPoolFusionOff::~ConvPoolFusionOff() {
  conv_pool_pass_off = previous_;
}

ConvPoolFusionStats fuse_conv_pool(Trace& trace) {
  ConvPoolFusionStats stats;
  if (conv_pool_pass_off) return stats;
  // One pair at a time, each found in the program the previous rewrite left (few pairs).
  size_t from = 0;
  while (true) {
    const ConvPoolMatcher matcher(trace);
    const std::optional<ConvPoolMatch> m = matcher.find(from);
    if (!m) break;
    from = static_cast<size_t>(m->conv);  // the calls before it matched nothing
    apply(trace, *m, stats);
  }
  return stats;
}

}  // namespace keras::compiler::detail
