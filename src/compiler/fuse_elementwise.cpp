#include "compiler/fuse_elementwise.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace keras::compiler::detail {
namespace {

using backend::Array;
using backend::ElementwiseChain;
using backend::ElementwiseStep;

thread_local bool fusion_off = false;

// How an operand walks a call's flat index (its shape is the call's output shape): which
// ChainLayout, and for Row and Column the row length that layout implies.
struct View {
  int64_t offset = 0;
  DType dtype = DType::Float32;
  backend::ChainLayout layout = backend::ChainLayout::Dense;
  int64_t row_length = 1;
  bool ok = true;  // false: no layout fits (a transposed or sliced operand)
  bool operator==(const View&) const = default;
};

View view_of(const Array& a) {
  using backend::ChainLayout;
  View v{a.offset, a.dtype};
  if (a.is_contiguous()) return v;
  std::vector<std::pair<int64_t, int64_t>> axes;  // (extent, stride) of axes longer than 1
  for (int d = 0; d < a.rank(); ++d)
    if (a.shape[d] > 1) axes.emplace_back(a.shape[d], a.strides[d]);
  const size_t r = axes.size();
  size_t first_moving = r, last_moving = 0;
  for (size_t d = 0; d < r; ++d)
    if (axes[d].second != 0) first_moving = std::min(first_moving, d), last_moving = d + 1;
  if (first_moving == r) {
    v.layout = ChainLayout::Scalar;
    return v;
  }
  // The moving axes must be one dense block: contiguous among themselves, none still.
  int64_t expected = 1, block = 1;
  for (size_t d = last_moving; d-- > first_moving;) {
    if (axes[d].second != expected) v.ok = false;
    expected *= axes[d].first;
    block *= axes[d].first;
  }
  int64_t still_after = 1;
  for (size_t d = last_moving; d < r; ++d) still_after *= axes[d].first;
  if (first_moving > 0 && last_moving == r) {  // still, then moving: one row for every row
    v.layout = ChainLayout::Column;
    v.row_length = block;
  } else if (first_moving == 0 && last_moving < r) {  // moving, then still: a value per row
    v.layout = ChainLayout::Row;
    v.row_length = still_after;
  } else {
    v.ok = false;
  }
  return v;
}

// The backend of a call whose arrays all live on one backend that fuses, else null.
backend::Backend* fusing_backend(const Instruction& instr) {
  backend::Backend* be = nullptr;
  for (const Array& a : instr.arrays) {
    if (!a.storage) return nullptr;
    if (be && &a.storage->owner() != be) return nullptr;
    be = &a.storage->owner();
  }
  return be && backend::use_fused(*be, backend::Capability::Elementwise) ? be : nullptr;
}

// Longer rows than this stay unfused: a chain runs blocks of whole rows, and a few huge rows
// would leave the threads idle.
constexpr int64_t kMaxRowLength = 1 << 16;

// The row length an elementwise call needs (1 when any fits), or -1 when it cannot join a
// chain: its output must be dense, its inputs must each fit a layout, and those with rows
// must agree on their length.
int64_t row_length_of(const Instruction& instr) {
  // A call inside a branch or loop body stays as recorded: it runs conditionally or repeatedly.
  if (!instr.elementwise || instr.guard || instr.draw >= 0 || instr.num_outputs != 1 ||
      instr.region > 0)
    return -1;
  const int64_t n = instr.arrays[0].numel();
  if (n == 0) return -1;
  int64_t p = 1;
  for (size_t k = 0; k < instr.arrays.size(); ++k) {
    const Array& a = instr.arrays[k];
    if (a.numel() != n) return -1;
    const View v = view_of(a);
    const bool written = static_cast<int>(k) < instr.num_outputs;
    if (!v.ok || (written && v.layout != backend::ChainLayout::Dense)) return -1;
    if (v.layout == backend::ChainLayout::Row || v.layout == backend::ChainLayout::Column) {
      if (v.row_length > kMaxRowLength || (p != 1 && p != v.row_length)) return -1;
      p = v.row_length;
    }
  }
  return p;
}

// What a run does with one buffer so far.
struct SlotUse {
  View view;
  bool consistent = true;  // every array of it in the run is `view`
  bool written = false;
  bool read_first = false;  // read before the run writes it: it is an input of the chain
  int refs = 0;
};

class Run {
 public:
  /// Adds a fusable call unless the run would then read a buffer it writes through two views.
  bool try_add(const Instruction& instr) {
    std::unordered_map<int, SlotUse> changed;
    auto touch = [&](int k, bool write) {
      const int s = instr.slots[k];
      auto it = changed.find(s);
      if (it == changed.end()) {
        auto found = uses_.find(s);
        it = changed
                 .emplace(s, found != uses_.end() ? found->second
                                                  : SlotUse{view_of(instr.arrays[k])})
                 .first;
      }
      SlotUse& u = it->second;
      u.consistent = u.consistent && u.view == view_of(instr.arrays[k]);
      if (write)
        u.written = true;
      else if (!u.written)
        u.read_first = true;
      ++u.refs;
    };
    // Inputs are read before the output is written; a call that reads its output reads first.
    if (instr.reads_outputs) touch(0, false), --changed.at(instr.slots[0]).refs;
    for (size_t k = 1; k < instr.arrays.size(); ++k) touch(static_cast<int>(k), false);
    touch(0, true);
    for (const auto& [s, u] : changed)
      if (u.written && !(u.consistent && u.view.layout == backend::ChainLayout::Dense))
        return false;
    for (auto& [s, u] : changed) uses_[s] = u;
    return true;
  }
  const std::unordered_map<int, SlotUse>& uses() const { return uses_; }

 private:
  std::unordered_map<int, SlotUse> uses_;
};

// The registers of a chain: external arrays (written ones first), then temporaries.
struct Registers {
  std::vector<Array> arrays;
  std::vector<int> slots;
  std::vector<backend::ChainLayout> layouts;
  int num_written = 0;
  std::map<std::tuple<int, int64_t, DType, backend::ChainLayout>, int> external;  // slot, view
  std::map<int, int> temp;                                        // slot -> temporary index
  std::vector<DType> temp_dtypes;
};

// Temporaries whose lives do not overlap share a register (a step may write the register it
// last reads: every kernel reads element i before it writes element i), so a chain's scratch
// memory is what is live at once, not one block per intermediate.
void share_temporaries(ElementwiseChain& chain) {
  const int first_temp = chain.num_arrays;
  const size_t n = chain.temp_dtypes.size();
  std::vector<int> last_read(n, -1);
  for (size_t i = 0; i < chain.steps.size(); ++i)
    for (int r : chain.steps[i].in)
      if (r >= first_temp) last_read[r - first_temp] = static_cast<int>(i);
  std::vector<int> renamed(n, -1);
  std::vector<DType> shared_dtypes;
  std::map<DType, std::vector<int>> free_registers;
  for (size_t i = 0; i < chain.steps.size(); ++i) {
    ElementwiseStep& step = chain.steps[i];
    for (int& r : step.in) {
      if (r < first_temp) continue;
      const int t = r - first_temp;
      r = first_temp + renamed[t];
      if (last_read[t] == static_cast<int>(i)) {
        free_registers[chain.temp_dtypes[t]].push_back(renamed[t]);
        last_read[t] = -2;  // returned once, even when this step reads it twice
      }
    }
    if (step.out < first_temp) continue;
    const int t = step.out - first_temp;
    if (renamed[t] < 0) {
      std::vector<int>& free = free_registers[chain.temp_dtypes[t]];
      if (!free.empty()) {
        renamed[t] = free.back();
        free.pop_back();
      } else {
        renamed[t] = static_cast<int>(shared_dtypes.size());
        shared_dtypes.push_back(chain.temp_dtypes[t]);
      }
    }
    step.out = first_temp + renamed[t];
  }
  chain.temp_dtypes = std::move(shared_dtypes);
}

// A temporary that a step computes only for the next step to copy into another register (an
// assign of the value just computed) is not needed: the step writes that register itself, one
// pass over memory fewer (Adam's update: three of fifteen). The same values: the copy converts
// nothing (one dtype), and a step may write a register it reads (element i before element i).
size_t write_copied_values_in_place(ElementwiseChain& chain,
                                    const std::vector<DType>& external_dtypes) {
  using Kind = ElementwiseStep::Kind;
  const int first_temp = chain.num_arrays;
  auto dtype_of = [&](int r) {
    return r < first_temp ? external_dtypes[r] : chain.temp_dtypes[r - first_temp];
  };
  auto used_after = [&](size_t i, int r) {
    for (size_t j = i; j < chain.steps.size(); ++j) {
      const ElementwiseStep& s = chain.steps[j];
      if (s.out == r || std::find(s.in.begin(), s.in.end(), r) != s.in.end()) return true;
    }
    return false;
  };
  std::vector<ElementwiseStep> kept;
  size_t removed = 0;
  for (size_t i = 0; i < chain.steps.size(); ++i) {
    ElementwiseStep step = chain.steps[i];
    if (i + 1 < chain.steps.size()) {
      const ElementwiseStep& next = chain.steps[i + 1];
      if (step.out >= first_temp && next.kind == Kind::Copy &&
          next.op == static_cast<uint8_t>(backend::CopyMode::Assign) && next.in[0] == step.out &&
          dtype_of(next.out) == dtype_of(step.out) && !used_after(i + 2, step.out)) {
        step.out = next.out;
        kept.push_back(step);
        ++i;
        ++removed;
        continue;
      }
    }
    kept.push_back(step);
  }
  chain.steps = std::move(kept);
  return removed;
}

class ChainBuilder {
 public:
  ChainBuilder(const Trace& trace, const std::vector<int>& total_refs,
               const std::unordered_set<int>& result_slots)
      : trace_(trace), total_refs_(total_refs), result_slots_(result_slots) {}

  /// The one call that replaces code[begin, end).
  Instruction build(const std::vector<Instruction>& code, size_t begin, size_t end,
                    const Run& run, int64_t row_length, FusionStats& stats) {
    Registers regs;
    // A buffer only this run touches, written before it is read: a temporary of the chain.
    for (const auto& [s, u] : run.uses())
      if (trace_.kinds[s] == SlotKind::Allocated && !result_slots_.count(s) && u.written &&
          !u.read_first && u.refs == total_refs_[s]) {
        regs.temp.emplace(s, static_cast<int>(regs.temp_dtypes.size()));
        regs.temp_dtypes.push_back(u.view.dtype);
      }
    for (int pass = 0; pass < 2; ++pass)  // written buffers first, then read-only ones
      for (size_t i = begin; i < end; ++i)
        for (size_t k = 0; k < code[i].arrays.size(); ++k) {
          const int s = code[i].slots[k];
          if (regs.temp.count(s) || run.uses().at(s).written != (pass == 0)) continue;
          const View v = view_of(code[i].arrays[k]);
          auto key = std::make_tuple(s, v.offset, v.dtype, v.layout);
          if (regs.external.count(key)) continue;
          regs.external.emplace(key, static_cast<int>(regs.arrays.size()));
          regs.arrays.push_back(code[i].arrays[k]);
          regs.layouts.push_back(v.layout);
          regs.slots.push_back(s);
          if (pass == 0) ++regs.num_written;
        }
    auto chain = std::make_shared<ElementwiseChain>();
    chain->numel = code[begin].arrays[0].numel();
    chain->row_length = row_length;
    chain->num_arrays = static_cast<int>(regs.arrays.size());
    chain->layouts = regs.layouts;
    chain->temp_dtypes = regs.temp_dtypes;
    auto reg = [&](const Instruction& instr, size_t k) {
      const int s = instr.slots[k];
      if (auto t = regs.temp.find(s); t != regs.temp.end()) return chain->num_arrays + t->second;
      const View v = view_of(instr.arrays[k]);
      return regs.external.at(std::make_tuple(s, v.offset, v.dtype, v.layout));
    };
    bool reads_outputs = false;
    for (size_t i = begin; i < end; ++i) {
      ElementwiseStep step = *code[i].elementwise;
      step.out = reg(code[i], 0);
      for (size_t k = 1; k < code[i].arrays.size(); ++k) step.in[k - 1] = reg(code[i], k);
      chain->steps.push_back(step);
    }
    std::vector<DType> external_dtypes;
    for (const Array& a : regs.arrays) external_dtypes.push_back(a.dtype);
    stats.copies_in_place += write_copied_values_in_place(*chain, external_dtypes);
    share_temporaries(*chain);
    for (int r = 0; r < regs.num_written; ++r)
      reads_outputs = reads_outputs || run.uses().at(regs.slots[r]).read_first;
    Instruction fused;
    fused.key = KeyWriter("elementwise").take();
    fused.arrays = std::move(regs.arrays);
    fused.slots = std::move(regs.slots);
    fused.num_outputs = regs.num_written;
    fused.reads_outputs = reads_outputs;
    fused.run = [chain](backend::Backend& be, const Array* a,
                        const std::pair<uint64_t, uint64_t>*) {
      be.elementwise(*chain, std::span<const Array>(a, static_cast<size_t>(chain->num_arrays)));
    };
    ++stats.chains;
    stats.fused_calls += end - begin;
    return fused;
  }

 private:
  const Trace& trace_;
  const std::vector<int>& total_refs_;
  const std::unordered_set<int>& result_slots_;
};

}  // namespace

ElementwiseFusionOff::ElementwiseFusionOff() : previous_(fusion_off) { fusion_off = true; }
ElementwiseFusionOff::~ElementwiseFusionOff() { fusion_off = previous_; }

FusionStats fuse_elementwise(Trace& trace) {
  FusionStats stats;
  if (fusion_off) return stats;
  std::vector<Instruction>& code = trace.instructions;
  std::vector<int> total_refs(trace.slots.size(), 0);
  for (const Instruction& instr : code)
    for (int s : instr.slots)
      if (s >= 0) ++total_refs[s];
  const std::unordered_set<int> result_slots(trace.output_slots.begin(),
                                             trace.output_slots.end());
  ChainBuilder builder(trace, total_refs, result_slots);

  std::vector<Instruction> out;
  size_t begin = 0;
  Run run;
  backend::Backend* run_backend = nullptr;
  int64_t run_rows = 1;  // the run's row length (1 while none of its arrays has rows)
  auto close = [&](size_t end) {
    if (end - begin >= 2) {
      out.push_back(builder.build(code, begin, end, run, run_rows, stats));
    } else {
      for (size_t i = begin; i < end; ++i) out.push_back(std::move(code[i]));
    }
    begin = end;
    run = Run();
    run_backend = nullptr;
    run_rows = 1;
  };
  for (size_t i = 0; i < code.size(); ++i) {
    const int64_t p = row_length_of(code[i]);
    backend::Backend* be = p > 0 ? fusing_backend(code[i]) : nullptr;
    const bool joins = be && be == run_backend &&
                       code[i].arrays[0].numel() == code[begin].arrays[0].numel() &&
                       (p == 1 || run_rows == 1 || p == run_rows) && run.try_add(code[i]);
    if (joins) {
      run_rows = std::max(run_rows, p);
      continue;
    }
    close(i);
    if (be && run.try_add(code[i])) {
      run_backend = be;
      run_rows = p;
    } else {
      out.push_back(std::move(code[i]));
      begin = i + 1;
    }
  }
  close(code.size());
  code = std::move(out);
  return stats;
}

}  // namespace keras::compiler::detail
