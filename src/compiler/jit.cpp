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

struct Entry {
  std::unique_ptr<Trace> reference;  // the first trace, waiting for a second to agree
  std::unique_ptr<Program> program;
  int mismatches = 0;
  bool eager = false;
  uint64_t last_used = 0;
};

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
    be.copy(c.array(), t.array(), backend::CopyMode::Assign);
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
  Function fn;
  std::string name;
  std::recursive_mutex mutex;  // a function may call itself eagerly
  std::map<std::string, Entry, std::less<>> entries;
  uint64_t clock = 0;
  int64_t traces = 0;
  int64_t replays = 0;
  std::string fallback;

  bool warned = false;

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

  std::lock_guard<std::recursive_mutex> lock(s.mutex);
  const std::string signature = signature_of(inputs, static_key);
  if (s.entries.size() >= kMaxSignatures && !s.entries.count(signature)) {
    auto oldest = s.entries.begin();
    for (auto it = s.entries.begin(); it != s.entries.end(); ++it)
      if (it->second.last_used < oldest->second.last_used) oldest = it;
    s.entries.erase(oldest);
  }
  Entry& e = s.entries[signature];
  e.last_used = ++s.clock;
  if (e.eager) return s.fn(inputs);
  if (e.program) {
    ++s.replays;
    return e.program->replay(inputs);
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
  e.program = std::make_unique<Program>(std::move(trace));
  return e.program->traced_results();
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
