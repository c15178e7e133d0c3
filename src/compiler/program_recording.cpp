// Program's recordings (program.h, backend/capture.h): whether a step can be recorded, the
// guards that run before each launch, the addresses a recording depends on, and a replay
// through one.

#include "compiler/program.h"

#include <atomic>
#include <iostream>

#include "ops/detail/op_utils.h"

namespace keras::compiler::detail {

// A recording replays the calls with the arguments they were recorded with, so everything the
// host decides per replay rules it out.
std::string Program::prepare_recording() {
  const Trace& t = *trace_;
  if (t.instructions.empty()) return "it makes no backend calls";
  for (size_t i = 0; i < t.instructions.size(); ++i) {
    const Instruction& instr = t.instructions[i];
    if (backends_[i] != backends_[0])
      return "it runs on more than one backend ('" + std::string(backends_[0]->name()) + "' and '" +
             std::string(backends_[i]->name()) + "')";
    if (instr.control) return "it has control flow (ops::cond, ops::while_loop)";
    if (instr.host_kernel)
      return "it runs a host kernel (" + instr.key.substr(0, instr.key.find('\0')) + ")";
    if (instr.draw >= 0 && !instr.random_kind)
      return "it draws random numbers outside a random primitive";
  }
  for (const backend::Array& home : input_homes_)
    if (&home.storage->owner() != backends_[0]) return "an input lives on another backend";
  if (std::string problem = plan_guard_prefix(); !problem.empty()) return problem;
  if (!t.draws.empty()) {
    draw_keys_.dtype = DType::Int64;
    draw_keys_.shape = Shape{static_cast<int64_t>(2 * t.draws.size())};
    draw_keys_.strides = Strides{1};
    draw_keys_.storage = backends_[0]->allocate(2 * t.draws.size() * sizeof(int64_t));
  }
  return "";
}

// The guards with every call they depend on, in program order: run before a launch they check
// this replay's inputs. They may read only what exists before the step (inputs, constants,
// variables the step does not write), so running them first sees what the step would.
std::string Program::plan_guard_prefix() {
  const Trace& t = *trace_;
  const auto& code = t.instructions;
  std::vector<bool> needed(t.slots.size(), false), in_prefix(code.size(), false);
  for (size_t i = code.size(); i-- > 0;) {
    const Instruction& instr = code[i];
    bool include = instr.guard;
    for (int k = 0; k < instr.num_outputs && !include; ++k)
      include = instr.slots[k] >= 0 && needed[instr.slots[k]];
    if (!include) continue;
    in_prefix[i] = true;
    for (size_t k = instr.guard ? 0 : static_cast<size_t>(instr.num_outputs);
         k < instr.slots.size(); ++k)
      if (instr.slots[k] >= 0) needed[instr.slots[k]] = true;
  }
  for (size_t v = 0; v < homes_.size(); ++v)
    if (homes_[v].written && needed[t.variables[v].slot])
      return "it checks on the host values computed from variable '" + homes_[v].variable.path() +
             "', which it also writes";
  guard_prefix_.clear();
  for (size_t i = 0; i < code.size(); ++i) {
    if (!in_prefix[i]) continue;
    if (code[i].draw >= 0) return "it checks random numbers on the host";
    guard_prefix_.push_back(i);
  }
  return "";
}

// Where the variables are now: the only memory of a replay that can move between calls (the
// arena, the inputs' copies and the constants stay where the program put them).
std::vector<std::pair<const void*, int64_t>> Program::bindings() const {
  std::vector<std::pair<const void*, int64_t>> at;
  at.reserve(homes_.size());
  for (const Home& h : homes_) at.emplace_back(h.array.storage->data(), h.array.offset);
  return at;
}

// One plain replay at the current addresses first (it warms what cannot be recorded, such as
// cuDNN's choice of algorithm), then a recording, launched now and by every later replay until
// a variable moves. A step whose variables keep moving stops recording after a few tries.
TensorList Program::replay_recorded() {
  constexpr size_t kMaxRecordings = 8;
  const auto at = bindings();
  if (recording_ && at != recorded_at_) recording_.reset();
  if (!recording_ && last_plain_at_ == at && stats_.graph_captures >= kMaxRecordings) {
    stats_.graph_problem = "its variables moved to new memory between calls " +
                           std::to_string(kMaxRecordings) + " times";
    recorder_ = nullptr;
  }
  if (!recording_ && last_plain_at_ == at && recorder_) {
    bool recording = false;
    try {
      recorder_->begin_capture();
      recording = true;
      run_instructions(/*recording=*/true);
      recording = false;
      recording_ = recorder_->end_capture();
      recorded_at_ = at;
      ++stats_.graph_captures;
    } catch (const std::exception& e) {  // nothing ran: the calls run one by one below
      if (recording) recorder_->abort_capture();
      stats_.graph_problem = e.what();
      recorder_ = nullptr;
      static std::atomic<bool> warned{false};  // unexpected: once per process
      if (!warned.exchange(true))
        std::cerr << "UserWarning: keras::jit: a compiled step could not be recorded on '"
                  << backends_[0]->name() << "' and replays call by call: " << e.what() << "\n";
    }
  }
  if (recording_) {
    for (size_t i : guard_prefix_) {  // a guard throws before the step changes anything
      const Instruction& instr = trace_->instructions[i];
      instr.run(*backends_[i], instr.arrays.data(), nullptr);
    }
    write_draw_keys();
    recording_->launch();
    ++stats_.graph_launches;
  } else {
    run_instructions();
    last_plain_at_ = at;
  }
  return copies_of_outputs();
}

// This replay's draws where the recording's random calls read them (queued before the launch,
// as fills: no wait for the device).
void Program::write_draw_keys() {
  backend::Backend& be = *backends_[0];
  backend::Array word = draw_keys_;
  word.shape = Shape{1};
  for (size_t d = 0; d < draw_values_.size(); ++d) {
    word.offset = static_cast<int64_t>(2 * d);
    be.fill(word, Scalar(static_cast<int64_t>(draw_values_[d].first)));
    word.offset += 1;
    be.fill(word, Scalar(static_cast<int64_t>(draw_values_[d].second)));
  }
}

}  // namespace keras::compiler::detail
