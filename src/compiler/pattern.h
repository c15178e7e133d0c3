#pragma once
// What the pattern passes (fuse_conv_pool.h, fuse_linear.h) ask of a recorded program before
// they make several calls one: who reads and writes each buffer, whether a buffer is private to
// the step (so it may vanish), and whether a group of calls may run together at one place.

#include <cstring>
#include <vector>

#include "compiler/trace.h"

namespace keras::compiler::detail {

/// Per slot, the instructions that read it and those that write it (each listed once).
struct SlotUses {
  std::vector<std::vector<int>> readers;
  std::vector<std::vector<int>> writers;
};

SlotUses slot_uses(const std::vector<Instruction>& code, size_t num_slots);

/// True when slot `s` is the step's own buffer (not an input, variable, constant or result),
/// and `a` covers all of it densely: a call that writes `a` defines the whole buffer, so the
/// buffer can disappear when the calls that write and read it are fused.
bool private_whole_buffer(const Trace& trace, int s, const backend::Array& a);

/// A new contiguous buffer of the step on `be` (an Allocated slot, planned into the arena like
/// the traced ones), for the calls a pass adds; sets `slot`.
backend::Array new_step_buffer(Trace& trace, backend::Backend& be, DType dtype, const Shape& shape,
                               int& slot);

/// True when the calls `group` (indices, ascending) may all run at the place of any one of
/// them: no call between the first and the last writes what the group reads or touches what it
/// writes, none of them is control flow, and no call of the group is inside a region.
bool can_run_together(const std::vector<Instruction>& code, const std::vector<int>& group);

/// True when no call strictly between `first` and `last` writes one of `slots`.
bool unwritten_between(const std::vector<Instruction>& code, int first, int last,
                       const std::vector<int>& slots);

/// True when `instr` calls the backend primitive `primitive` (the name its key begins with).
inline bool is(const Instruction& instr, const char* primitive) {
  return std::strcmp(instr.key.c_str(), primitive) == 0;
}

/// True when every array of `instr` lives on `be`.
bool all_on(const Instruction& instr, const backend::Backend& be);

bool same_spec(const backend::ConvSpec& a, const backend::ConvSpec& b);
bool same_spec(const backend::PoolSpec& a, const backend::PoolSpec& b);

/// Same slot, offset, dtype, shape and strides.
bool same_view(const Instruction& a, size_t ka, const Instruction& b, size_t kb);

}  // namespace keras::compiler::detail
