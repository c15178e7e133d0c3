#include "compiler/program.h"

#include <map>

#include "compiler/assign_in_place.h"
#include "compiler/fold_batch_norm.h"
#include "compiler/fuse_conv_pool.h"
#include "compiler/fuse_elementwise.h"
#include "compiler/fuse_linear.h"
#include "keras/autograd/node.h"
#include "keras/tensor/tensor_impl.h"
#include "ops/detail/op_utils.h"

namespace keras::compiler::detail {
namespace {

backend::Backend* backend_of(const Instruction& instr) {
  for (const backend::Array& a : instr.arrays)
    if (a.storage) return &a.storage->owner();
  return nullptr;
}

Tensor copy_of(const backend::Array& a) {
  backend::Backend& be = a.storage->owner();
  Tensor out = ops::detail::empty(a.shape, a.dtype, be);
  ops::detail::copy_into(be, out.array(), a);
  return out;
}

// Per instruction, the index of the Label a Jump or JumpIfFalse goes to (else -1).
std::vector<int> jump_targets(const std::vector<Instruction>& code) {
  std::map<int, int> labels;
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i].control == backend::ControlOp::Label) labels[code[i].label] = static_cast<int>(i);
  std::vector<int> target(code.size(), -1);
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i].control && *code[i].control != backend::ControlOp::Label)
      target[i] = labels.at(code[i].label);
  return target;
}

// Whether a JumpIfFalse's one-element bool holds false.
bool is_false(backend::Backend& be, const backend::Array& pred) {
  uint8_t value = 0;
  be.copy_to_host(&value, *pred.storage, static_cast<size_t>(pred.offset), 1);
  return value == 0;
}

}  // namespace

Program::Program(std::unique_ptr<Trace> trace) : trace_(std::move(trace)) {
  stats_.traced_calls = trace_->instructions.size();
  write_back_variables();
  forward_variable_copies();
  std::vector<bool> constant_slot(trace_->slots.size(), false);
  fold_constants(constant_slot);
  remove_dead_calls();
  stats_.folded_batch_norms = fold_batch_norm(*trace_).folds;
  const LinearFusionStats linear = fuse_linear(*trace_);
  stats_.fused_linears = linear.linear + linear.conv;
  const ConvPoolFusionStats conv_pool = fuse_conv_pool(*trace_);
  stats_.fused_conv_pools = conv_pool.pairs;
  stats_.fused_conv_pool_backwards = conv_pool.backward;
  constant_slot.resize(trace_->slots.size(), false);  // the pattern passes add buffers
  const FusionStats fusion = fuse_elementwise(*trace_);
  stats_.fused_chains = fusion.chains;
  stats_.fused_calls = fusion.fused_calls;
  stats_.chain_copies_in_place = fusion.copies_in_place;
  stats_.assigns_in_place = assign_in_place(*trace_);
  plan_memory(constant_slot);
  for (const Tensor& t : trace_->inputs) input_homes_.push_back(t.array());
  draw_values_.resize(trace_->draws.size());
  stats_.replayed_calls = trace_->instructions.size();
  bind_backends_and_homes();
  if (auto* recorder =
          dynamic_cast<backend::GraphCapture*>(backends_.empty() ? nullptr : backends_[0])) {
    stats_.graph_problem = prepare_recording();
    if (stats_.graph_problem.empty()) recorder_ = recorder;
  }
}

// A variable an assign rebound to new memory goes back to the memory the step read it from:
// the trace copies its final value there, so every replay reads and writes one place.
void Program::write_back_variables() {
  Trace& t = *trace_;
  for (const Trace::VariableState& v : t.variables) {
    const Tensor current = v.variable.value();
    const backend::Array& final_array = current.array();
    if (final_array.storage == v.home.storage && final_array.offset == v.home.offset) continue;
    backend::Backend& be = v.home.storage->owner();
    ops::detail::copy_into(be, v.home, final_array);
    Instruction copy;
    copy.key = KeyWriter("copy").take();
    copy.arrays = {v.home, final_array};
    copy.slots = {v.slot, t.slot_of(final_array, false)};
    copy.num_outputs = 1;
    copy.write_back = true;
    copy.run = [](backend::Backend& b, const backend::Array* a,
                  const std::pair<uint64_t, uint64_t>*) { ops::detail::copy_into(b, a[0], a[1]); };
    t.instructions.push_back(std::move(copy));
    Home h{v.variable, v.home, {}, 0};
    adopt_home(h, current);
  }
}

// An assign that made a new tensor F costs two copies in the program: the assign's own copy
// into F and the write-back from F home. When nothing after F's writer touches the home memory
// (the step reads the variable's new value through F), that writer writes home directly, F's
// readers read home, and the write-back goes: one copy per assign, as in eager mode.
void Program::forward_variable_copies() {
  Trace& t = *trace_;
  auto& code = t.instructions;
  std::vector<bool> drop(code.size(), false);
  for (size_t w = 0; w < code.size(); ++w) {
    if (!code[w].write_back) continue;
    const int home = code[w].slots[0], final_slot = code[w].slots[1];
    // F's only writer, a whole-buffer write with the home's layout that does not read home.
    int writer = -1;
    bool single = true;
    for (size_t i = 0; i < w; ++i)
      if (code[i].writes(final_slot)) {
        single = single && writer < 0;
        writer = static_cast<int>(i);
      }
    if (!single || writer < 0 || code[writer].num_outputs != 1 || code[writer].reads_outputs)
      continue;
    const backend::Array& out = code[writer].arrays[0];
    const backend::Array& home_array = code[w].arrays[0];
    if (out.offset != 0 || !out.is_contiguous() || out.dtype != home_array.dtype ||
        out.shape != home_array.shape || home_array.offset != 0 || !home_array.is_contiguous() ||
        out.nbytes() != t.slots[final_slot]->nbytes())
      continue;
    bool touches_home = false;
    for (size_t i = writer; i < code.size() && !touches_home; ++i) {
      if (i == w) continue;
      for (int s : code[i].slots) touches_home = touches_home || s == home;
    }
    if (touches_home) continue;
    for (size_t i = writer; i < code.size(); ++i)
      for (size_t k = 0; k < code[i].slots.size(); ++k)
        if (code[i].slots[k] == final_slot) {
          code[i].slots[k] = home;
          code[i].arrays[k].storage = home_array.storage;
        }
    for (size_t k = 0; k < t.output_slots.size(); ++k)
      if (t.output_slots[k] == final_slot) {
        t.output_slots[k] = home;
        t.outputs[k].storage = home_array.storage;
      }
    drop[w] = true;
  }
  std::vector<Instruction> kept;
  for (size_t i = 0; i < code.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(code[i]));
  stats_.forwarded_copies = code.size() - kept.size();
  code = std::move(kept);
}

// Calls whose inputs never change between replays (constants, folds of constants) ran once in
// the trace; their results stay where they are and the replay skips them.
void Program::fold_constants(std::vector<bool>& constant_slot) {
  Trace& t = *trace_;
  std::vector<bool> dynamic_slot(t.slots.size(), false);
  for (size_t s = 0; s < t.slots.size(); ++s)
    dynamic_slot[s] = t.kinds[s] == SlotKind::Input || t.kinds[s] == SlotKind::Variable;
  // What a branch or loop body writes changes with the control flow, whatever it reads; so
  // does every other write to the same memory (a loop variable's first value).
  std::vector<bool> control_written(t.slots.size(), false);
  for (const Instruction& instr : t.instructions)
    if (instr.region > 0)
      for (int k = 0; k < instr.num_outputs; ++k)
        if (instr.slots[k] >= 0) control_written[instr.slots[k]] = true;
  std::vector<bool> dynamic_call(t.instructions.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < t.instructions.size(); ++i) {
      if (dynamic_call[i]) continue;
      const Instruction& instr = t.instructions[i];
      bool dyn = instr.draw >= 0 || instr.guard || instr.control || instr.region > 0;
      for (int s : instr.slots) dyn = dyn || (s >= 0 && dynamic_slot[s]);
      for (int k = 0; k < instr.num_outputs; ++k)
        dyn = dyn || (instr.slots[k] >= 0 && control_written[instr.slots[k]]);
      if (!dyn) continue;
      dynamic_call[i] = true;
      changed = true;
      for (int k = 0; k < instr.num_outputs; ++k)
        if (instr.slots[k] >= 0) dynamic_slot[instr.slots[k]] = true;
    }
  }
  std::vector<Instruction> kept;
  for (size_t i = 0; i < t.instructions.size(); ++i) {
    if (dynamic_call[i]) {
      kept.push_back(std::move(t.instructions[i]));
      continue;
    }
    ++stats_.folded_calls;
    for (int s : t.instructions[i].slots)
      if (s >= 0) constant_slot[s] = true;
  }
  t.instructions = std::move(kept);
}

// Backward liveness over buffers: a call stays when a later call, a variable or a result reads
// what it writes. Writes may be partial, so a buffer once live stays live.
void Program::remove_dead_calls() {
  Trace& t = *trace_;
  std::vector<bool> live(t.slots.size(), false);
  for (size_t s = 0; s < t.slots.size(); ++s) live[s] = t.kinds[s] == SlotKind::Variable;
  for (int s : t.output_slots) live[s] = true;
  std::vector<bool> keep(t.instructions.size(), false);
  for (size_t i = t.instructions.size(); i-- > 0;) {
    const Instruction& instr = t.instructions[i];
    // Control instructions and what they enclose stay: a loop body's last write is read by
    // the next iteration, which comes earlier in this order.
    bool needed = instr.guard || instr.control || instr.region > 0;
    for (int k = 0; k < instr.num_outputs; ++k)
      needed = needed || (instr.slots[k] >= 0 && live[instr.slots[k]]);
    if (!needed) continue;
    keep[i] = true;
    for (size_t k = instr.reads_outputs ? 0 : instr.num_outputs; k < instr.slots.size(); ++k)
      if (instr.slots[k] >= 0) live[instr.slots[k]] = true;
  }
  std::vector<Instruction> kept;
  for (size_t i = 0; i < t.instructions.size(); ++i) {
    if (keep[i])
      kept.push_back(std::move(t.instructions[i]));
    else
      ++stats_.dead_calls;
  }
  t.instructions = std::move(kept);
}

// Greedy planning over the replay order: a buffer the step allocated lives from its first to
// its last use; a dead buffer's memory serves the next one that fits (smallest first). Inputs,
// variables, constants and results keep their own memory.
void Program::plan_memory(const std::vector<bool>& constant_slot) {
  Trace& t = *trace_;
  const size_t n = t.slots.size();
  std::vector<bool> planned(n, false);
  for (size_t s = 0; s < n; ++s) planned[s] = t.kinds[s] == SlotKind::Allocated && !constant_slot[s];
  for (int s : t.output_slots) planned[s] = false;
  const size_t count = t.instructions.size();
  std::vector<int> first(n, -1), last(n, -1);
  for (size_t i = 0; i < count; ++i)
    for (int s : t.instructions[i].slots) {
      if (s < 0 || !planned[s]) continue;
      if (first[s] < 0) first[s] = static_cast<int>(i);
      last[s] = static_cast<int>(i);
    }
  // A buffer used inside a loop lives through the whole loop: the next iteration reads it again.
  const std::vector<int> target = jump_targets(t.instructions);
  for (size_t j = 0; j < count; ++j) {
    if (target[j] < 0 || target[j] > static_cast<int>(j)) continue;  // not a back edge
    const int head = target[j], tail = static_cast<int>(j);
    for (size_t s = 0; s < n; ++s)
      if (first[s] >= 0 && first[s] <= tail && last[s] >= head)
        first[s] = std::min(first[s], head), last[s] = std::max(last[s], tail);
  }
  std::vector<std::vector<int>> starting(count), ending(count);
  for (size_t s = 0; s < n; ++s)
    if (first[s] >= 0) starting[first[s]].push_back(static_cast<int>(s)), ending[last[s]].push_back(static_cast<int>(s));
  using FreeKey = std::pair<backend::Backend*, size_t>;
  std::multimap<FreeKey, Ref<backend::Storage>> free_buffers;
  std::vector<Ref<backend::Storage>> assigned(n);
  for (size_t i = 0; i < count; ++i) {
    for (int s : starting[i]) {
      backend::Backend* be = &t.slots[s]->owner();
      const size_t need = t.slots[s]->nbytes();
      stats_.traced_bytes += need;
      auto it = free_buffers.lower_bound({be, need});
      if (it != free_buffers.end() && it->first.first == be) {
        assigned[s] = it->second;
        free_buffers.erase(it);
      } else {
        assigned[s] = be->allocate(need);
        stats_.arena_bytes += need;
      }
    }
    for (int s : ending[i])
      free_buffers.emplace(FreeKey{&assigned[s]->owner(), assigned[s]->nbytes()}, assigned[s]);
  }
  for (Instruction& instr : t.instructions)
    for (size_t k = 0; k < instr.slots.size(); ++k) {
      const int s = instr.slots[k];
      if (s >= 0 && planned[s]) instr.arrays[k].storage = assigned[s];
    }
  for (size_t s = 0; s < n; ++s)
    if (planned[s]) t.slots[s] = assigned[s];
}

void Program::bind_backends_and_homes() {
  Trace& t = *trace_;
  backend::Backend* fallback = nullptr;  // for a host loop over empty arrays only
  for (const Instruction& instr : t.instructions)
    if (!fallback) fallback = backend_of(instr);
  targets_ = jump_targets(t.instructions);
  backends_.clear();
  for (const Instruction& instr : t.instructions) {
    backend::Backend* be = backend_of(instr);
    backends_.push_back(be ? be : fallback);
  }
  homes_.clear();
  read_only_ = t.draws.empty();
  for (Trace::VariableState& v : t.variables) {
    Home h{v.variable, v.home, {}, 0};
    for (Instruction& instr : t.instructions) {
      h.written = h.written || instr.writes(v.slot);
      for (size_t k = 0; k < instr.slots.size(); ++k)
        if (instr.slots[k] == v.slot) h.uses.push_back(&instr.arrays[k]);
    }
    for (size_t k = 0; k < t.outputs.size(); ++k)
      if (t.output_slots[k] == v.slot) h.uses.push_back(&t.outputs[k]);
    read_only_ = read_only_ && !h.written;
    homes_.push_back(std::move(h));
  }
  for (Home& h : homes_) h.expected_refs = h.array.storage->use_count();
  input_uses_.assign(input_homes_.size(), InputUses{});
  for (size_t s = 0; s < t.slots.size(); ++s) {
    if (t.kinds[s] != SlotKind::Input) continue;
    InputUses& in = input_uses_[t.owner[s]];
    const int64_t base = input_homes_[t.owner[s]].offset;
    auto use = [&](backend::Array& a) {
      in.uses.push_back(&a);
      in.offsets.push_back(a.offset - base);
    };
    for (Instruction& instr : t.instructions) {
      in.read_only = in.read_only && !instr.writes(static_cast<int>(s));
      for (size_t k = 0; k < instr.slots.size(); ++k)
        if (instr.slots[k] == static_cast<int>(s)) use(instr.arrays[k]);
    }
    for (size_t k = 0; k < t.outputs.size(); ++k)
      if (t.output_slots[k] == static_cast<int>(s)) use(t.outputs[k]);
  }
}

// Zero copy where possible: the private copies the trace made are contiguous, so a caller's
// contiguous tensor on the same backend can stand in for one, unless it is memory the step
// writes (a variable's value passed in as an input). A recording (program_recording.cpp) reads
// the private copies only (in_place false): its calls keep the addresses they were made with.
void Program::bind_inputs(const TensorList& inputs, bool in_place) {
  for (size_t i = 0; i < input_homes_.size(); ++i) {
    const backend::Array& given = inputs[i].array();
    const backend::Array& home = input_homes_[i];
    InputUses& in = input_uses_[i];
    bool written_by_step = false;
    for (const Home& h : homes_)
      written_by_step = written_by_step || h.array.storage.get() == given.storage.get();
    if (in_place && in.read_only && !written_by_step && given.storage &&
        &given.storage->owner() == &home.storage->owner() && given.is_contiguous()) {
      for (size_t k = 0; k < in.uses.size(); ++k) {
        in.uses[k]->storage = given.storage;
        in.uses[k]->offset = given.offset + in.offsets[k];
      }
      continue;
    }
    ops::detail::copy_into(home.storage->owner(), home, given);
  }
}

// Back to the private copies, so the program holds no caller memory between calls.
void Program::unbind_inputs() {
  for (size_t i = 0; i < input_homes_.size(); ++i) {
    InputUses& in = input_uses_[i];
    for (size_t k = 0; k < in.uses.size(); ++k) {
      in.uses[k]->storage = input_homes_[i].storage;
      in.uses[k]->offset = input_homes_[i].offset + in.offsets[k];
    }
  }
}

// The variable's value becomes a tensor on the home memory (keeping its place in autograd).
void Program::adopt_home(Home& home, const Tensor& current) {
  auto impl = make_ref<keras::detail::TensorImpl>(home.array);
  impl->grad_fn = current.impl()->grad_fn;
  impl->output_nr = current.impl()->output_nr;
  home.variable.exchange_value(Tensor(std::move(impl)));
}

TensorList Program::copies_of_outputs() const {
  TensorList out;
  for (const backend::Array& a : trace_->outputs) out.push_back(copy_of(a));
  return out;
}

TensorList Program::traced_results() const { return copies_of_outputs(); }

// A variable the step only reads is read where it is now. Nothing is copied or swapped into the
// variable: another Program of the same variables (another batch size, another thread's copy)
// and eager calls on other threads may be reading it at the same time. It may have moved since
// the last replay (an eager assign, or a training step's copy on write): the uses follow it, or,
// when its layout is not the traced one, read a private copy of it.
void Program::follow_variable(size_t v) {
  Trace& t = *trace_;
  Home& h = homes_[v];
  const Tensor& value = h.variable.stored_value();
  const backend::Array& now = value.array();
  if (now.storage.get() == h.array.storage.get() && now.offset == h.array.offset) return;
  backend::Backend& be = h.array.storage->owner();
  check(&now.storage->owner() == &be, "keras::jit: variable '", h.variable.path(),
        "' moved from backend '", be.name(), "' to '", value.backend_name(),
        "' after this function was compiled; call it with inputs on '", value.backend_name(),
        "' (a new signature), or move the variable back.");
  backend::Array next = h.array;
  if (now.dtype == h.array.dtype && now.shape == h.array.shape && now.strides == h.array.strides) {
    next.storage = now.storage;
    next.offset = now.offset;
  } else {
    next.storage = be.allocate(h.array.storage->nbytes());
    ops::detail::copy_into(be, next, now);
  }
  for (backend::Array* use : h.uses) {
    use->storage = next.storage;
    use->offset += next.offset - h.array.offset;
  }
  t.slots[t.variables[v].slot] = next.storage;
  t.variables[v].home = next;
  h.array = next;
}

TensorList Program::replay(const TensorList& inputs) {
  Trace& t = *trace_;
  const bool recordable = recorder_ && recorder_->capture_enabled();
  bind_inputs(inputs, /*in_place=*/!recordable);
  // Copy on write, as an eager assign does: when someone else holds the memory of a variable the
  // step writes (or an eager assign moved the variable), the program moves to fresh memory
  // first.
  for (size_t v = 0; v < homes_.size(); ++v) {
    Home& h = homes_[v];
    if (!h.written) {
      follow_variable(v);
      continue;
    }
    // The stored tensor itself (value() returns a new handle, which would count as a holder).
    const Tensor& value = h.variable.stored_value();
    const int refs = h.array.storage->use_count();
    if (value.array().storage.get() == h.array.storage.get() && value.impl()->use_count() == 1 &&
        refs <= h.expected_refs) {
      h.expected_refs = refs;  // holders left over from the traced call may have gone since
      continue;
    }
    const Tensor current = value;
    backend::Backend& be = h.array.storage->owner();
    check(&current.array().storage->owner() == &be, "keras::jit: variable '",
          h.variable.path(), "' moved from backend '", be.name(), "' to '",
          current.backend_name(), "' after this function was compiled; call it with inputs on '",
          current.backend_name(), "' (a new signature), or move the variable back.");
    backend::Array fresh = h.array;
    fresh.storage = be.allocate(h.array.storage->nbytes());
    ops::detail::copy_into(be, fresh, current.array());
    for (backend::Array* use : h.uses) use->storage = fresh.storage;
    t.slots[t.variables[v].slot] = fresh.storage;
    t.variables[v].home = fresh;
    h.array = fresh;
    adopt_home(h, current);
    h.expected_refs = fresh.storage->use_count();
  }
  for (size_t d = 0; d < t.draws.size(); ++d) draw_values_[d] = t.draws[d].redraw();
  if (recordable) return replay_recorded();
  try {
    run_instructions();
    TensorList results = copies_of_outputs();
    unbind_inputs();
    return results;
  } catch (...) {  // a guard that throws: the next call starts from the private copies too
    unbind_inputs();
    throw;
  }
}

void Program::run_instructions(bool recording) {
  Trace& t = *trace_;
  for (size_t i = 0; i < t.instructions.size(); ++i) {
    const Instruction& instr = t.instructions[i];
    if (instr.guard && recording) continue;
    if (instr.draw >= 0 && recording) {
      backend::Array key = draw_keys_;
      key.shape = Shape{2};
      key.offset = 2 * instr.draw;
      recorder_->random_from(instr.arrays[0], *instr.random_kind, key, instr.stream << 48);
      continue;
    }
    if (instr.control) {
      const bool jump = *instr.control == backend::ControlOp::Jump ||
                        (*instr.control == backend::ControlOp::JumpIfFalse &&
                         is_false(*backends_[i], instr.arrays[0]));
      if (jump) i = static_cast<size_t>(targets_[i]);  // the Label, a no-op
      continue;
    }
    instr.run(*backends_[i], instr.arrays.data(),
              instr.draw >= 0 ? &draw_values_[instr.draw] : nullptr);
  }
}

}  // namespace keras::compiler::detail
