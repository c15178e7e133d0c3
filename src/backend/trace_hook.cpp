#include "keras/backend/trace_hook.h"

#include <cstddef>
#include <utility>
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

namespace {

// The elements [first, last) of its storage that `a` reaches (strides may be negative or 0).
std::pair<int64_t, int64_t> reach(const Array& a) {
  int64_t first = a.offset, last = a.offset;
  for (int d = 0; d < a.rank(); ++d) {
    const int64_t span = (a.shape[d] - 1) * a.strides[d];
    (span < 0 ? first : last) += span;
  }
  return {first, last + 1};
}

// `kernel` for arrays of any backend: those in device memory are copied to the host (the part
// of their storage they reach, so gaps of a strided output keep their values), the kernel runs
// on the copies, and the first num_outputs are copied back. Decided per call, since a replay
// passes the arrays where the program keeps them. Each array gets its own copy, even two views
// of one storage: host kernels read their inputs and write their outputs as separate arrays.
HostKernel through_host_copies(HostKernel kernel, size_t count, size_t num_outputs) {
  return [kernel = std::move(kernel), count, num_outputs](const Array* arrays) {
    std::vector<Array> host(arrays, arrays + count);
    std::vector<std::vector<std::byte>> buffers(count);
    std::vector<Ref<Storage>> storages(count);
    bool staged = false;
    for (size_t i = 0; i < count; ++i) {
      const Array& a = arrays[i];
      if (!a.storage || a.numel() == 0 || a.storage->owner().is_host()) continue;
      const auto [first, last] = reach(a);
      const size_t item = itemsize(a.dtype);
      buffers[i].resize(static_cast<size_t>(last - first) * item);
      a.storage->owner().copy_to_host(buffers[i].data(), *a.storage,
                                      static_cast<size_t>(first) * item, buffers[i].size());
      // Host memory under the array's own view; the buffer owns it, nothing to free.
      storages[i] = make_ref<Storage>(
          &a.storage->owner(), buffers[i].data(), buffers[i].size(), [](void*, void*, size_t) {},
          nullptr);
      host[i].storage = storages[i];
      host[i].offset = a.offset - first;
      staged = true;
    }
    kernel(staged ? host.data() : arrays);
    if (!staged) return;
    for (size_t i = 0; i < num_outputs && i < count; ++i) {
      if (buffers[i].empty()) continue;
      const Array& a = arrays[i];
      a.storage->owner().copy_from_host(*a.storage,
                                        static_cast<size_t>(reach(a).first) * itemsize(a.dtype),
                                        buffers[i].data(), buffers[i].size());
    }
  };
}

bool in_host_memory(std::span<const Array> arrays) {
  for (const Array& a : arrays)
    if (a.storage && !a.storage->owner().is_host()) return false;
  return true;
}

void run_host_kernel_as_is(std::string_view name, std::span<const Array> arrays, size_t num_outputs,
                           const HostKernel& kernel) {
  if (TraceObserver* o = detail::front_end_observer()) {
    o->on_host_kernel(name, arrays, num_outputs, kernel);  // records, then runs it
    return;
  }
  kernel(arrays.data());
}

}  // namespace

void run_host_kernel(std::string_view name, std::span<const Array> arrays, size_t num_outputs,
                     const HostKernel& kernel) {
  // Host arrays go to the kernel as they are (a replay keeps them on the same backend).
  if (!in_host_memory(arrays)) {
    const HostKernel staged = through_host_copies(kernel, arrays.size(), num_outputs);
    return run_host_kernel_as_is(name, arrays, num_outputs, staged);
  }
  run_host_kernel_as_is(name, arrays, num_outputs, kernel);
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
