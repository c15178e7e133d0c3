#include "compiler/assign_in_place.h"

#include <algorithm>
#include <vector>

namespace keras::compiler::detail {
namespace {

using backend::Array;
using Kind = backend::ElementwiseStep::Kind;

thread_local bool assign_pass_off = false;

bool same_view(const Array& a, const Array& b) {
  return a.offset == b.offset && a.dtype == b.dtype && a.shape == b.shape && a.strides == b.strides;
}

bool touches(const Instruction& instr, int slot) {
  return std::find(instr.slots.begin(), instr.slots.end(), slot) != instr.slots.end();
}

// A plain copy of one buffer into another (an assign's own copy), outside any region.
bool is_assign_copy(const Instruction& instr) {
  return instr.elementwise && instr.elementwise->kind == Kind::Copy &&
         instr.elementwise->op == static_cast<uint8_t>(backend::CopyMode::Assign) &&
         instr.num_outputs == 1 && instr.arrays.size() == 2 && !instr.reads_outputs &&
         instr.region == 0;
}

// Whether `writer` may write the variable's memory `home` (seen as `home_view`) instead of its
// own output: it reads that memory, if at all, element by element through the same view.
bool may_write_home(const Instruction& writer, int home, const Array& home_view) {
  if (writer.num_outputs != 1 || writer.reads_outputs || writer.region > 0 || writer.control ||
      writer.guard)
    return false;
  const bool elementwise = writer.elementwise && writer.elementwise->kind != Kind::Copy;
  for (size_t k = 1; k < writer.slots.size(); ++k)
    if (writer.slots[k] == home && !(elementwise && same_view(writer.arrays[k], home_view)))
      return false;
  return true;
}

}  // namespace

size_t assign_in_place(Trace& t) {
  if (assign_pass_off) return 0;
  auto& code = t.instructions;
  std::vector<bool> drop(code.size(), false);
  size_t removed = 0;
  for (size_t c = 0; c < code.size(); ++c) {
    if (!is_assign_copy(code[c])) continue;
    const int home = code[c].slots[0], value = code[c].slots[1];
    if (home < 0 || value < 0 || t.kinds[home] != SlotKind::Variable ||
        t.kinds[value] != SlotKind::Allocated ||
        std::count(t.output_slots.begin(), t.output_slots.end(), value) > 0)
      continue;
    const Array home_view = code[c].arrays[0];
    const Array& value_view = code[c].arrays[1];
    if (home_view.offset != 0 || !home_view.is_contiguous() || !same_view(home_view, value_view) ||
        value_view.nbytes() != t.slots[value]->nbytes())
      continue;
    // The value's one writer, before the copy.
    int writer = -1;
    bool single = true;
    for (size_t i = 0; i < code.size(); ++i)
      if (!drop[i] && code[i].writes(value)) {
        single = single && writer < 0;
        writer = static_cast<int>(i);
      }
    if (!single || writer < 0 || writer > static_cast<int>(c) ||
        !may_write_home(code[writer], home, home_view) ||
        !same_view(code[writer].arrays[0], value_view))
      continue;
    // Straight-line code from the writer to the value's last reader; the variable's memory
    // untouched until the copy and not written again before that reader.
    size_t last = c;
    for (size_t i = c + 1; i < code.size(); ++i)
      if (!drop[i] && touches(code[i], value)) last = i;
    bool clear = true;
    for (size_t i = writer + 1; i <= last && clear; ++i) {
      if (drop[i] || i == c) continue;
      clear = !code[i].control && code[i].region == 0 &&
              (i < c ? !touches(code[i], home) : !code[i].writes(home));
    }
    if (!clear) continue;
    for (size_t i = writer; i <= last; ++i)
      for (size_t k = 0; k < code[i].slots.size(); ++k)
        if (code[i].slots[k] == value) {
          code[i].slots[k] = home;
          code[i].arrays[k].storage = home_view.storage;
        }
    drop[c] = true;
    ++removed;
  }
  std::vector<Instruction> kept;
  kept.reserve(code.size() - removed);
  for (size_t i = 0; i < code.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(code[i]));
  code = std::move(kept);
  return removed;
}

AssignInPlaceOff::AssignInPlaceOff() : previous_(assign_pass_off) {
  assign_pass_off = true;
}
AssignInPlaceOff::~AssignInPlaceOff() {
  assign_pass_off = previous_;
}

}  // namespace keras::compiler::detail
