#include "compiler/trace.h"

#include <algorithm>
#include <mutex>

#include "compiler/backend_call.h"
#include "compiler/recording_backend.h"
#include "keras/core/errors.h"

namespace keras::compiler::detail {
namespace {

// Wrappers outlive their trace (see RecordingBackend::detach()): a few bytes per trace, kept
// reachable until exit.
RecordingBackend* keep_forever(std::unique_ptr<RecordingBackend> wrapper) {
  static std::mutex mutex;
  static auto* kept = new std::vector<std::unique_ptr<RecordingBackend>>();
  std::lock_guard<std::mutex> lock(mutex);
  kept->push_back(std::move(wrapper));
  return kept->back().get();
}

std::string describe(const backend::Array& a) {
  return keras::detail::cat("a ", a.shape, " ", dtype_name(a.dtype), " tensor");
}

}  // namespace

Trace::Trace(const TensorList& step_inputs) : inputs(step_inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    const backend::Array& a = inputs[i].array();
    const int s = slot_of(a, false);
    kinds[s] = SlotKind::Input;
    owner[s] = static_cast<int>(i);
  }
  previous_ = backend::detail::set_thread_observer(this);
}

Trace::~Trace() { stop(); }

void Trace::stop() {
  if (stopped_) return;
  stopped_ = true;
  backend::detail::set_thread_observer(previous_);
  for (RecordingBackend* w : wrappers_) w->detach();
}

int Trace::slot_of(const backend::Array& array, bool written) {
  if (!array.storage) return -1;
  auto [it, fresh] = slot_index_.try_emplace(array.storage.get(), static_cast<int>(slots.size()));
  if (fresh) {
    slots.push_back(array.storage);
    kinds.push_back(SlotKind::Captured);
    owner.push_back(-1);
    // Memory that existed before the step is written only through variables.
    if (written)
      fail(keras::detail::cat("it writes into ", describe(array),
                              " that existed before the step and is not a variable"));
  }
  return it->second;
}

void Trace::release_buffers() {
  slot_bytes_.resize(slots.size());
  for (size_t s = 0; s < slots.size(); ++s) slot_bytes_[s] = slots[s]->nbytes();
  auto own = [&](int s) { return s >= 0 && kinds[s] == SlotKind::Allocated; };
  for (Instruction& instr : instructions)
    for (size_t k = 0; k < instr.arrays.size(); ++k)
      if (own(instr.slots[k])) instr.arrays[k].storage.reset();
  for (size_t k = 0; k < outputs.size(); ++k)
    if (own(output_slots[k])) outputs[k].storage.reset();
  for (size_t s = 0; s < slots.size(); ++s)
    if (own(static_cast<int>(s))) slots[s].reset();
}

void Trace::set_outputs(const TensorList& results) {
  for (const Tensor& t : results) {
    check(t.defined(), "keras::jit: the function returned an undefined tensor.");
    outputs.push_back(t.array());
    output_slots.push_back(slot_of(t.array(), false));
  }
}

void Trace::fail(const std::string& reason) {
  if (!problem.empty()) return;
  problem = reason;
  if (!layers_.empty()) problem += keras::detail::cat(" (in layer '", layers_.back(), "')");
}

// ---- TraceObserver -------------------------------------------------------------------------

backend::Backend& Trace::route(backend::Backend& inner) {
  for (RecordingBackend* w : wrappers_) {
    if (w == &inner) return inner;  // already routed
    if (&w->inner() == &inner) return *w;
  }
  wrappers_.push_back(keep_forever(std::make_unique<RecordingBackend>(*this, inner)));
  return *wrappers_.back();
}

void Trace::on_host_access(const backend::Array& array) {
  fail(keras::detail::cat("it reads ", describe(array), " directly in host memory"));
}

void Trace::on_host_kernel(std::string_view name, std::span<const backend::Array> arrays,
                           size_t num_outputs, const backend::HostKernel& kernel) {
  Instruction instr;
  instr.key = KeyWriter(name).take();
  for (size_t k = 0; k < arrays.size(); ++k) {
    instr.arrays.push_back(arrays[k]);
    instr.slots.push_back(slot_of(arrays[k], k < num_outputs));
  }
  instr.num_outputs = static_cast<int>(num_outputs);
  instr.region = region_depth_;
  instr.host_kernel = true;
  instr.run = [kernel](backend::Backend&, const backend::Array* a,
                       const std::pair<uint64_t, uint64_t>*) { kernel(a); };
  instructions.push_back(instr);
  as_backend_call([&] { kernel(arrays.data()); });
}

void Trace::on_host_check(const backend::Array& array,
                          const std::function<void(const void* host)>& check) {
  Instruction instr;
  instr.key = KeyWriter("host_check").take();
  instr.arrays.push_back(array);
  instr.slots.push_back(slot_of(array, false));
  instr.guard = true;
  instr.region = region_depth_;
  instr.run = [check](backend::Backend& be, const backend::Array* a,
                      const std::pair<uint64_t, uint64_t>*) {
    std::vector<char> host(a[0].nbytes());
    be.copy_to_host(host.data(), *a[0].storage,
                    static_cast<size_t>(a[0].offset) * itemsize(a[0].dtype), host.size());
    check(host.data());
  };
  instructions.push_back(instr);
  as_backend_call([&] { instr.run(array.storage->owner(), &array, nullptr); });
}

// A variable is state of the step when its value lives in memory from before the step. Its
// value may also be an input swapped in (the stateless API) or a buffer the step made (after an
// assign): those are not its home.
void Trace::on_variable(const Variable& variable, const backend::Array& current) {
  const int s = slot_of(current, false);
  if (kinds[s] != SlotKind::Captured || owner[s] >= 0) return;
  auto [it, fresh] =
      variable_index_.try_emplace(variable.identity(), static_cast<int>(variables.size()));
  if (!fresh) return;
  kinds[s] = SlotKind::Variable;
  owner[s] = it->second;
  variables.push_back(VariableState{variable, current, s});
}

void Trace::on_layer(std::string_view name) {
  if (name.empty()) {
    if (!layers_.empty()) layers_.pop_back();
  } else {
    layers_.emplace_back(name);
  }
}

void Trace::on_draw(uint64_t seed, uint64_t counter,
                    std::function<std::pair<uint64_t, uint64_t>()> redraw) {
  if (region_depth_ > 0)
    fail("it draws random numbers inside ops::cond or ops::while_loop (a replay would draw "
         "them whether or not the branch or iteration runs)");
  draws.push_back(Draw{seed, counter, std::move(redraw)});
}

// ---- structured control flow ---------------------------------------------------------------

void Trace::on_control(backend::ControlOp op, int label, const backend::Array* pred) {
  Instruction instr;
  KeyWriter key("control");
  key << op << label;
  instr.key = key.take();
  if (pred) {
    instr.arrays.push_back(*pred);
    instr.slots.push_back(slot_of(*pred, false));
  }
  instr.control = op;
  instr.label = label;
  instr.region = region_depth_;
  instructions.push_back(std::move(instr));
}

void Trace::on_region(bool enter) {
  backend::UntracedScope quiet;  // reading the variables' values here is not the step's
  if (enter) {
    ++region_depth_;
    std::vector<const backend::Storage*> now;
    for (const VariableState& v : variables) now.push_back(v.variable.value().array().storage.get());
    region_variables_.push_back(std::move(now));
    return;
  }
  // An assign that rebinds a variable to new memory inside the region: the replay could not
  // tell which value the variable ends with.
  const std::vector<const backend::Storage*>& before = region_variables_.back();
  for (size_t i = 0; i < variables.size(); ++i) {
    const backend::Storage* expected = i < before.size() ? before[i] : variables[i].home.storage.get();
    if (variables[i].variable.value().array().storage.get() != expected)
      fail(keras::detail::cat("it assigns variable '", variables[i].variable.path(),
                              "' inside ops::cond or ops::while_loop"));
  }
  region_variables_.pop_back();
  --region_depth_;
}

void Trace::drop_labels(std::span<const int> labels) {
  auto dropped = [&](const Instruction& instr) {
    return instr.control && std::find(labels.begin(), labels.end(), instr.label) != labels.end();
  };
  size_t first = instructions.size(), last = 0;
  for (size_t i = 0; i < instructions.size(); ++i)
    if (dropped(instructions[i])) first = std::min(first, i), last = i;
  if (first > last) return;
  std::vector<Instruction> kept;
  for (size_t i = 0; i < instructions.size(); ++i) {
    if (dropped(instructions[i])) continue;
    if (i > first && i < last) --instructions[i].region;
    kept.push_back(std::move(instructions[i]));
  }
  instructions = std::move(kept);
}

// ---- from the recording backend ------------------------------------------------------------

void Trace::record(KeyWriter key, std::initializer_list<const backend::Array*> outs,
                   std::initializer_list<const backend::Array*> ins, Runner run,
                   bool reads_outputs, std::optional<backend::ElementwiseStep> elementwise) {
  Instruction instr;
  instr.key = key.take();
  for (const backend::Array* a : outs) {
    instr.arrays.push_back(*a);
    instr.slots.push_back(slot_of(*a, true));
  }
  for (const backend::Array* a : ins) {
    instr.arrays.push_back(*a);
    instr.slots.push_back(slot_of(*a, false));
  }
  instr.num_outputs = static_cast<int>(outs.size());
  instr.reads_outputs = reads_outputs;
  instr.region = region_depth_;
  if (region_depth_ > 0)
    for (int k = 0; k < instr.num_outputs; ++k)
      if (instr.slots[k] >= 0 && kinds[instr.slots[k]] == SlotKind::Variable)
        fail(keras::detail::cat("it writes variable '", variables[owner[instr.slots[k]]].variable.path(),
                                "' inside ops::cond or ops::while_loop"));
  instr.elementwise = elementwise;
  instr.run = std::move(run);
  instructions.push_back(std::move(instr));
}

void Trace::record_random(const backend::Array& out, backend::RandomKind kind, uint64_t seed,
                          uint64_t counter) {
  // Tie the call to the draw it came from (stream k uses counter + k 2^48), so a replay takes
  // fresh numbers from the same generator.
  int draw = -1;
  uint64_t stream = 0;
  for (int d = static_cast<int>(draws.size()) - 1; d >= 0; --d) {
    const uint64_t delta = counter - draws[d].counter;
    if (draws[d].seed == seed && (delta & ((uint64_t{1} << 48) - 1)) == 0) {
      draw = d;
      stream = delta >> 48;
      break;
    }
  }
  KeyWriter key("random");
  key << kind;
  if (draw < 0) key << seed << counter;  // a fixed integer seed: the same numbers every time
  record(std::move(key), {&out}, {},
         [kind, seed, counter, stream](backend::Backend& be, const backend::Array* a,
                                       const std::pair<uint64_t, uint64_t>* fresh) {
           if (fresh)
             be.random(a[0], kind, fresh->first, fresh->second + (stream << 48));
           else
             be.random(a[0], kind, seed, counter);
         });
  instructions.back().draw = draw;
  instructions.back().stream = stream;
  instructions.back().random_kind = kind;
}

void Trace::note_allocated(const Ref<backend::Storage>& storage) {
  auto [it, fresh] = slot_index_.try_emplace(storage.get(), static_cast<int>(slots.size()));
  if (!fresh) return;
  slots.push_back(storage);
  kinds.push_back(SlotKind::Allocated);
  owner.push_back(-1);
}

void Trace::check_host_source(const void* src, size_t nbytes) {
  const char* p = static_cast<const char*>(src);
  for (const auto& s : slots) {
    if (!s->owner().is_host()) continue;
    const char* base = static_cast<const char*>(s->data());
    if (p < base + s->nbytes() && p + nbytes > base) {
      fail("it copies a traced tensor through host memory");
      return;
    }
  }
}

void Trace::note_host_read(size_t nbytes) {
  fail(keras::detail::cat("it reads ", nbytes, " bytes of a tensor's values on the host"));
}

// ---- comparing two traces ------------------------------------------------------------------

namespace {

bool same_layout(const backend::Array& a, const backend::Array& b) {
  return a.offset == b.offset && a.dtype == b.dtype && a.shape == b.shape &&
         a.strides == b.strides;
}

}  // namespace

std::string difference(const Trace& a, const Trace& b) {
  if (a.variables.size() != b.variables.size())
    return keras::detail::cat("it touched ", a.variables.size(), " variables, then ",
                              b.variables.size());
  for (size_t i = 0; i < a.variables.size(); ++i)
    if (!a.variables[i].variable.is_same(b.variables[i].variable))
      return keras::detail::cat("it touched variable '", a.variables[i].variable.path(),
                                "', then '", b.variables[i].variable.path(), "'");
  if (a.draws.size() != b.draws.size())
    return keras::detail::cat("it drew ", a.draws.size(), " random seeds, then ", b.draws.size());
  if (a.instructions.size() != b.instructions.size())
    return keras::detail::cat("it made ", a.instructions.size(), " backend calls, then ",
                              b.instructions.size());
  if (a.slots.size() != b.slots.size())
    return keras::detail::cat("it used ", a.slots.size(), " buffers, then ", b.slots.size());
  for (size_t s = 0; s < a.slots.size(); ++s) {
    const bool same = a.kinds[s] == b.kinds[s] && a.owner[s] == b.owner[s] &&
                      a.slot_nbytes(static_cast<int>(s)) == b.slot_nbytes(static_cast<int>(s)) &&
                      (a.kinds[s] != SlotKind::Captured || a.slots[s] == b.slots[s]);
    if (!same) {
      static constexpr const char* kKinds[] = {"an input", "a variable", "a captured tensor",
                                               "a buffer of the step"};
      return keras::detail::cat("buffer ", s, " (", kKinds[static_cast<int>(a.kinds[s])], ", ",
                                a.slot_nbytes(static_cast<int>(s)), " bytes) became ",
                                kKinds[static_cast<int>(b.kinds[s])], " of ",
                                b.slot_nbytes(static_cast<int>(s)), " bytes or another tensor");
    }
  }
  for (size_t i = 0; i < a.instructions.size(); ++i) {
    const Instruction& x = a.instructions[i];
    const Instruction& y = b.instructions[i];
    bool same = x.key == y.key && x.slots == y.slots && x.draw == y.draw &&
                x.stream == y.stream && x.arrays.size() == y.arrays.size();
    for (size_t k = 0; same && k < x.arrays.size(); ++k)
      same = same_layout(x.arrays[k], y.arrays[k]);
    if (!same)
      return keras::detail::cat("backend call ", i, " (", primitive_of(x.key), ") became ",
                                primitive_of(y.key), " or changed its arguments");
  }
  if (a.output_slots != b.output_slots) return "its results came from different buffers";
  return {};
}

}  // namespace keras::compiler::detail
