#include "compiler/pattern.h"

#include <algorithm>

namespace keras::compiler::detail {

SlotUses slot_uses(const std::vector<Instruction>& code, size_t num_slots) {
  SlotUses u;
  u.readers.resize(num_slots);
  u.writers.resize(num_slots);
  auto add = [](std::vector<int>& list, int i) {  // once per instruction
    if (list.empty() || list.back() != i) list.push_back(i);
  };
  for (size_t i = 0; i < code.size(); ++i) {
    const Instruction& instr = code[i];
    for (size_t k = 0; k < instr.slots.size(); ++k) {
      const int s = instr.slots[k];
      if (s < 0) continue;
      const bool output = static_cast<int>(k) < instr.num_outputs;
      if (output) add(u.writers[s], static_cast<int>(i));
      if (!output || instr.reads_outputs) add(u.readers[s], static_cast<int>(i));
    }
  }
  return u;
}

bool private_whole_buffer(const Trace& trace, int s, const backend::Array& a) {
  if (s < 0 || trace.kinds[s] != SlotKind::Allocated) return false;
  for (int out : trace.output_slots)
    if (out == s) return false;
  return a.storage && a.offset == 0 && a.is_contiguous() &&
         a.nbytes() == trace.slots[s]->nbytes();
}

backend::Array new_step_buffer(Trace& trace, backend::Backend& be, DType dtype, const Shape& shape,
                               int& slot) {
  backend::Array a;
  a.dtype = dtype;
  a.shape = shape;
  a.strides = contiguous_strides(shape);
  a.storage = be.allocate(static_cast<size_t>(a.numel()) * itemsize(dtype));
  slot = static_cast<int>(trace.slots.size());
  trace.slots.push_back(a.storage);
  trace.kinds.push_back(SlotKind::Allocated);
  trace.owner.push_back(-1);
  return a;
}

bool can_run_together(const std::vector<Instruction>& code, const std::vector<int>& group) {
  std::vector<int> reads, writes;
  for (int g : group) {
    const Instruction& instr = code[g];
    if (instr.region > 0 || instr.control || instr.guard || instr.draw >= 0) return false;
    for (size_t k = 0; k < instr.slots.size(); ++k) {
      if (instr.slots[k] < 0) continue;
      (static_cast<int>(k) < instr.num_outputs ? writes : reads).push_back(instr.slots[k]);
    }
  }
  auto in = [](const std::vector<int>& list, int s) {
    return std::find(list.begin(), list.end(), s) != list.end();
  };
  for (int i = group.front() + 1; i < group.back(); ++i) {
    if (std::find(group.begin(), group.end(), i) != group.end()) continue;
    const Instruction& instr = code[i];
    if (instr.control) return false;
    for (size_t k = 0; k < instr.slots.size(); ++k) {
      const int s = instr.slots[k];
      if (s < 0) continue;
      if (in(writes, s)) return false;
      if (static_cast<int>(k) < instr.num_outputs && in(reads, s)) return false;
    }
  }
  return true;
}

bool unwritten_between(const std::vector<Instruction>& code, int first, int last,
                       const std::vector<int>& slots) {
  for (int i = first + 1; i < last; ++i)
    for (int s : slots)
      if (s >= 0 && code[i].writes(s)) return false;
  return true;
}

bool all_on(const Instruction& instr, const backend::Backend& be) {
  for (const backend::Array& a : instr.arrays)
    if (a.storage && &a.storage->owner() != &be) return false;
  return true;
}

bool same_spec(const backend::ConvSpec& a, const backend::ConvSpec& b) {
  return a.spatial_dims == b.spatial_dims && a.strides == b.strides && a.dilation == b.dilation &&
         a.pad_before == b.pad_before && a.pad_after == b.pad_after && a.groups == b.groups &&
         a.channels_last == b.channels_last;
}

bool same_spec(const backend::PoolSpec& a, const backend::PoolSpec& b) {
  return a.kind == b.kind && a.spatial_dims == b.spatial_dims && a.window == b.window &&
         a.strides == b.strides && a.pad_before == b.pad_before && a.pad_after == b.pad_after &&
         a.channels_last == b.channels_last;
}

bool same_view(const Instruction& a, size_t ka, const Instruction& b, size_t kb) {
  const backend::Array &x = a.arrays[ka], &y = b.arrays[kb];
  return a.slots[ka] == b.slots[kb] && x.offset == y.offset && x.dtype == y.dtype &&
         x.shape == y.shape && x.strides == y.strides;
}

}  // namespace keras::compiler::detail
