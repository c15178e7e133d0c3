#pragma once
// The seam the compiler (keras/compiler/jit.h) traces through. While a step is being traced on
// a thread, every backend the front end reaches (through Storage::backend() or the registry)
// is routed to a recording wrapper, and the few front-end actions that are not backend calls
// (reading a variable, drawing a random seed, touching host memory directly) are reported.
// With no trace active anywhere, each hook costs one relaxed atomic load.

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <utility>

#pragma GCC visibility push(default)
namespace keras {
class Variable;  // reported by the autograd layer; the observer only keeps the handle
}

namespace keras::backend {

class Backend;
struct Array;

/// A loop the front end runs over host memory, given its arrays (outputs first).
using HostKernel = std::function<void(const Array* arrays)>;

/// A control instruction of a traced step (ops::cond, ops::while_loop record these instead of
/// reading their predicate on the host): the place a label names, a jump to it, or a jump to it
/// taken when a one-element bool array holds false.
enum class ControlOp : uint8_t { Label, Jump, JumpIfFalse };

/// What a trace listens to (implemented by the compiler).
class TraceObserver {
 public:
  virtual ~TraceObserver() = default;
  /// The backend the front end should call instead of `inner` (a recording wrapper).
  virtual Backend& route(Backend& inner) = 0;
  /// The front end touched the memory of `array` outside a backend call (a host read or loop
  /// the trace cannot see).
  virtual void on_host_access(const Array& array) = 0;
  /// A host loop over `arrays` (the first `num_outputs` written) that the front end runs
  /// itself (see run_host_kernel).
  virtual void on_host_kernel(std::string_view name, std::span<const Array> arrays,
                              size_t num_outputs, const HostKernel& kernel) = 0;
  /// A variable was read or is about to be assigned; `current` is its value's array.
  virtual void on_variable(const Variable& variable, const Array& current) = 0;
  /// A variable was created (lazy building): this call is not representative of later ones.
  virtual void on_variable_created() = 0;
  /// A guard of the front end: `check` throws on bad values of `array` (read on the host).
  virtual void on_host_check(const Array& array,
                             const std::function<void(const void* host)>& check) = 0;
  /// The front end keeps state a replay would not update (`reason` says which).
  virtual void on_untraceable(std::string_view reason) = 0;
  /// A layer call begins (`name`) or ends (empty name): for messages that name the layer.
  virtual void on_layer(std::string_view name) = 0;
  /// A random draw took (seed, counter); `redraw` takes the next pair from the same source.
  virtual void on_draw(uint64_t seed, uint64_t counter,
                       std::function<std::pair<uint64_t, uint64_t>()> redraw) = 0;

  // ---- structured control flow ----
  /// A label number no control instruction of this trace uses yet.
  virtual int new_label() = 0;
  /// Records a control instruction (`pred`: the JumpIfFalse's bool array, else null).
  virtual void on_control(ControlOp op, int label, const Array* pred) = 0;
  /// Calls recorded between on_region(true) and on_region(false) run conditionally or
  /// repeatedly: one that assigns a variable or draws a random seed makes the trace give up.
  virtual void on_region(bool enter) = 0;
  /// Removes the control instructions of `labels`: the calls between them run every time (a
  /// cond whose result needs a gradient becomes a select of both branches).
  virtual void drop_labels(std::span<const int> labels) = 0;
};

namespace detail {

/// Number of traces running on any thread (the cheap first test of every hook).
extern std::atomic<int> active_traces;
/// The observer tracing on this thread, or null.
TraceObserver* thread_observer();
/// Makes `observer` this thread's (null ends it); returns the previous one.
TraceObserver* set_thread_observer(TraceObserver* observer);

/// True while a backend call made through a recording wrapper runs on this thread (its own
/// memory accesses are the backend's, not the front end's).
bool in_backend_call();
/// Sets the mark in_backend_call() reads; returns the previous one.
bool set_in_backend_call(bool value);

/// The observer of the trace running on this thread when the caller is the front end (not a
/// backend call the trace records already), else null: the test every front-end hook makes.
inline TraceObserver* front_end_observer() {
  if (!active_traces.load(std::memory_order_relaxed)) return nullptr;
  TraceObserver* o = thread_observer();
  return o && !in_backend_call() ? o : nullptr;
}

Backend& route_slow(Backend& inner);
void note_host_access_slow(const Array& array);

/// `inner`, or the recording wrapper of the trace running on this thread.
inline Backend& route(Backend& inner) {
  return active_traces.load(std::memory_order_relaxed) ? route_slow(inner) : inner;
}

/// Reports direct host access to `array` to the trace running on this thread, if any.
inline void note_host_access(const Array& array) {
  if (active_traces.load(std::memory_order_relaxed)) note_host_access_slow(array);
}

}  // namespace detail

/// Runs `kernel` on `arrays`, a loop the front end writes itself over their host memory (the
/// first `num_outputs` are written, the rest read; an empty Array stands for an absent one).
/// Under a trace it is recorded as one instruction; a replay calls `kernel` again with the
/// arrays where the program keeps them (its memory planning may move them). Arrays in device
/// memory (a backend whose is_host() is false) reach the kernel as host copies, and the outputs
/// are copied back after it.
void run_host_kernel(std::string_view name, std::span<const Array> arrays, size_t num_outputs,
                     const HostKernel& kernel);

/// Runs `check` on a host copy of `array` (contiguous): a guard that throws on bad input.
/// Under a trace it is recorded, so every replay copies the new values and checks them again.
void run_host_check(const Array& array, const std::function<void(const void* host)>& check);

/// Tells the trace running on this thread, if any, that this call keeps state outside
/// variables (a replay would not update it): the function then runs eagerly, naming `reason`.
void mark_untraceable(std::string_view reason);

/// Hides this thread's trace while alive: what runs meanwhile is neither recorded nor checked
/// (the values a recorded region needs at trace time, such as a loop's later iterations).
class UntracedScope {
 public:
  UntracedScope() : saved_(detail::set_thread_observer(nullptr)) {}
  ~UntracedScope() { detail::set_thread_observer(saved_); }
  UntracedScope(const UntracedScope&) = delete;
  UntracedScope& operator=(const UntracedScope&) = delete;

 private:
  TraceObserver* saved_;
};

/// Reports a layer call to the trace running on this thread (for messages), if any.
class LayerTraceScope {
 public:
  /// Tells the trace that layer `name` begins; the destructor tells it that the call ended.
  explicit LayerTraceScope(std::string_view name) {
    if (detail::active_traces.load(std::memory_order_relaxed)) enter(name);
  }
  ~LayerTraceScope() {
    if (entered_) leave();
  }
  LayerTraceScope(const LayerTraceScope&) = delete;
  LayerTraceScope& operator=(const LayerTraceScope&) = delete;

 private:
  void enter(std::string_view name);
  void leave();
  bool entered_ = false;
};

}  // namespace keras::backend

#pragma GCC visibility pop
