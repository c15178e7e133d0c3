#include "keras/compiler/jit.h"

#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <utility>

#include "compiler/program.h"
#include "compiler/trace.h"
#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "ops/detail/op_utils.h"

namespace keras {
namespace {

using compiler::detail::Program;
using compiler::detail::Trace;

// Two traces that disagree this many times in a row mean the function's calls depend on
// something besides its inputs and variables.
constexpr int kMaxMismatches = 3;
// Programs kept per function: each holds its arena, and a caller with ever new shapes (a
// server predicting any batch size) must not grow memory without bound. The least recently
// used signature goes first (it traces again if it comes back).
constexpr size_t kMaxSignatures = 32;

// Built by hand, not with a stream: it is on every call's path.
std::string signature_of(const TensorList& inputs, std::string_view static_key) {
  std::string key(static_key);
  for (const Tensor& t : inputs) {
    key += '|';
    key += t.backend_name();
    key += ':';
    key += dtype_name(t.dtype());
    for (int64_t d : t.shape()) {
      key += ',';
      key += std::to_string(d);
    }
  }
  return key;
}

// Private contiguous copies the traced call reads: their memory becomes the input slots.
TensorList private_copies(const TensorList& inputs) {
  TensorList out;
  for (const Tensor& t : inputs) {
    backend::Backend& be = t.array().storage->owner();
    Tensor c = ops::detail::empty(t.shape(), t.dtype(), be);
    ops::detail::copy_into(be, c.array(), t.array());  // complex arrays as their real views
    out.push_back(c);
  }
  return out;
}

// KERAS_DISABLE_JIT=1 (as JAX_DISABLE_JIT): every compiled function runs eagerly, for
// debugging and for the tests that compare both modes. Read once.
bool jit_disabled() {
  static const bool disabled = [] {
    const char* v = std::getenv("KERAS_DISABLE_JIT");
    return v && *v && std::string_view(v) != "0" && std::string_view(v) != "false";
  }();
  return disabled;
}

}  // namespace

struct CompiledFunction::State {
  struct Entry {
    std::unique_ptr<Trace> reference;  // the first trace, waiting for a second to agree
    // The signature's programs that no call is replaying. A program owns its arena, inputs and
    // outputs, so it replays one call at a time. A read-only one (an inference step) replays
    // outside the lock: a call that finds every copy busy traces one more, so N threads calling
    // at once end up with N copies, each made once. Any other program stays alone in `idle` and
    // replays under the lock.
    std::vector<std::unique_ptr<Program>> idle;
    bool compiled = false;
    bool concurrent = false;
    int mismatches = 0;
    bool eager = false;
    uint64_t last_used = 0;
  };

  Function fn;
  std::string name;
  std::recursive_mutex mutex;  // a function may call itself eagerly
  // Shared: a call replaying outside the lock keeps its entry even if the entry is evicted.
  std::map<std::string, std::shared_ptr<Entry>, std::less<>> entries;
  uint64_t clock = 0;
  int64_t traces = 0;
  int64_t replays = 0;
  std::string fallback;

  bool warned = false;

  // Another copy of a concurrent entry's program, from a trace of this call (run eagerly while
  // it records, under the lock). Null when this trace cannot make one; `results` then holds the
  // call's answer.
  std::unique_ptr<Program> another_program(const TensorList& inputs, TensorList& results) {
    auto trace = std::make_unique<Trace>(private_copies(inputs));
    try {
      results = fn(trace->inputs);
    } catch (...) {
      trace->stop();
      throw;
    }
    trace->stop();
    trace->set_outputs(results);
    if (!trace->problem.empty() || trace->created_variables) return nullptr;
    auto program = std::make_unique<Program>(std::move(trace));
    if (!program->read_only()) return nullptr;
    return program;
  }

  void give_up(Entry& e, const std::string& reason) {
    e.eager = true;
    e.reference.reset();
    fallback = reason;
    if (std::exchange(warned, true)) return;  // one warning per function, not per signature
    std::cerr << "UserWarning: keras::jit: '" << name
              << "' runs eagerly for this input signature: " << reason
              << ". Branch on tensor values with keras::ops::cond/while_loop, keep state in "
                 "variables, and validate inputs before the step to let it compile.\n";
  }
};

CompiledFunction::CompiledFunction(Function fn, std::string name)
    : state_(std::make_shared<State>()) {
  check(static_cast<bool>(fn), "keras::jit: the function is empty.");
  state_->fn = std::move(fn);
  state_->name = std::move(name);
}

CompiledFunction jit(CompiledFunction::Function fn, std::string name) {
  return CompiledFunction(std::move(fn), std::move(name));
}

TensorList CompiledFunction::operator()(const TensorList& inputs,
                                        std::string_view static_key) const {
  check(defined(), "keras::jit: this CompiledFunction holds no function.");
  State& s = *state_;
  for (const Tensor& t : inputs)
    check(t.defined(), "keras::jit: '", s.name, "' got an undefined input tensor.");
  // Part of an outer trace: the outer program records these calls itself.
  if (backend::detail::thread_observer()) return s.fn(inputs);
  // Under a GradientTape (value_and_grad around the call): a replay would give results with no
  // gradient, so the function runs eagerly and the tape sees every op it makes.
  if (autograd::is_recording() || jit_disabled()) return s.fn(inputs);

  std::unique_lock<std::recursive_mutex> lock(s.mutex);
  const std::string signature = signature_of(inputs, static_key);
  if (s.entries.size() >= kMaxSignatures && !s.entries.count(signature)) {
    auto oldest = s.entries.begin();
    for (auto it = s.entries.begin(); it != s.entries.end(); ++it)
      if (it->second->last_used < oldest->second->last_used) oldest = it;
    s.entries.erase(oldest);
  }
  std::shared_ptr<State::Entry>& slot = s.entries[signature];
  if (!slot) slot = std::make_shared<State::Entry>();
  const std::shared_ptr<State::Entry> entry = slot;
  State::Entry& e = *entry;
  e.last_used = ++s.clock;
  if (e.eager) return s.fn(inputs);
  if (e.compiled && !e.concurrent) {
    ++s.replays;
    return e.idle.front()->replay(inputs);
  }
  if (e.compiled) {
    std::unique_ptr<Program> program;
    if (!e.idle.empty()) {
      program = std::move(e.idle.back());
      e.idle.pop_back();
    } else {
      TensorList results;
      program = s.another_program(inputs, results);
      if (!program) return results;
    }
    ++s.replays;
    lock.unlock();
    // Back to the entry after the replay, also when a guard throws.
    struct GiveBack {
      std::recursive_mutex& mutex;
      State::Entry& entry;
      std::unique_ptr<Program>& program;
      ~GiveBack() {
        std::lock_guard<std::recursive_mutex> relock(mutex);
        entry.idle.push_back(std::move(program));
      }
    } give_back{s.mutex, e, program};
    return program->replay(inputs);
  }

  auto trace = std::make_unique<Trace>(private_copies(inputs));
  TensorList results;
  try {
    results = s.fn(trace->inputs);
  } catch (...) {
    trace->stop();
    throw;
  }
  trace->stop();
  trace->set_outputs(results);
  if (!trace->problem.empty()) {
    s.give_up(e, trace->problem);
    return results;
  }
  if (trace->created_variables) return results;  // a building call: not like the next ones
  if (!e.reference) {
    trace->release_buffers();
    e.reference = std::move(trace);
    ++s.traces;
    return results;
  }
  const std::string diff = compiler::detail::difference(*e.reference, *trace);
  if (!diff.empty()) {
    if (++e.mismatches >= kMaxMismatches) {
      s.give_up(e, "two calls with the same signature did different work (" + diff + ")");
    } else {
      trace->release_buffers();
      e.reference = std::move(trace);
    }
    return results;
  }
  e.reference.reset();
  results.clear();
  auto program = std::make_unique<Program>(std::move(trace));
  e.compiled = true;
  e.concurrent = program->read_only();
  results = program->traced_results();
  e.idle.push_back(std::move(program));
  return results;
}

int64_t CompiledFunction::tracing_count() const {
  if (!state_) return 0;
  std::lock_guard<std::recursive_mutex> lock(state_->mutex);
  return state_->traces;
}

int64_t CompiledFunction::replay_count() const {
  if (!state_) return 0;
  std::lock_guard<std::recursive_mutex> lock(state_->mutex);
  return state_->replays;
}

std::string CompiledFunction::fallback_reason() const {
  if (!state_) return {};
  std::lock_guard<std::recursive_mutex> lock(state_->mutex);
  return state_->fallback;
}

}  // namespace keras
