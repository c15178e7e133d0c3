#include "keras/backend/trace_hook.h"

#include <vector>

#include "keras/backend/backend.h"

namespace keras::backend {
namespace detail {

std::atomic<int> active_traces{0};

namespace {
thread_local TraceObserver* observer = nullptr;
thread_local bool backend_call = false;
}  // namespace

TraceObserver* thread_observer() { return observer; }

TraceObserver* set_thread_observer(TraceObserver* next) {
  TraceObserver* previous = observer;
  if (!previous && next) active_traces.fetch_add(1);
  if (previous && !next) active_traces.fetch_sub(1);
  observer = next;
  return previous;
}

bool in_backend_call() { return backend_call; }

bool set_in_backend_call(bool value) {
  bool previous = backend_call;
  backend_call = value;
  return previous;
}

Backend& route_slow(Backend& inner) {
  // A backend running a recorded call reaches its own primitives directly.
  if (!observer || backend_call) return inner;
  return observer->route(inner);
}

void note_host_access_slow(const Array& array) {
  if (observer && !backend_call) observer->on_host_access(array);
}

}  // namespace detail

void run_host_kernel(std::string_view name, std::span<const Array> arrays, size_t num_outputs,
                     const HostKernel& kernel) {
  if (TraceObserver* o = detail::front_end_observer()) {
    o->on_host_kernel(name, arrays, num_outputs, kernel);  // records, then runs it
    return;
  }
  kernel(arrays.data());
}

void run_host_check(const Array& array, const std::function<void(const void* host)>& check) {
  if (TraceObserver* o = detail::front_end_observer()) {
    o->on_host_check(array, check);  // records, then checks once now
    return;
  }
  std::vector<char> host(array.nbytes());
  array.backend().copy_to_host(host.data(), *array.storage,
                               static_cast<size_t>(array.offset) * itemsize(array.dtype),
                               host.size());
  check(host.data());
}

void mark_untraceable(std::string_view reason) {
  if (TraceObserver* o = detail::front_end_observer()) o->on_untraceable(reason);
}

void LayerTraceScope::enter(std::string_view name) {
  if (TraceObserver* o = detail::thread_observer()) {
    o->on_layer(name);
    entered_ = true;
  }
}

void LayerTraceScope::leave() {
  if (TraceObserver* o = detail::thread_observer()) o->on_layer({});
}

}  // namespace keras::backend
