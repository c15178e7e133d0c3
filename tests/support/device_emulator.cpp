#include "device_emulator.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "keras/backend/backend.h"
#include "keras/backend/capture.h"
#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/core/runtime_errors.h"

namespace keras::testing {
namespace {

using backend::Array;
using backend::Storage;

// Bit 62 set makes an x86-64 user address non-canonical: dereferencing it faults, while the
// arithmetic the front end may do on data() (offsets) still works.
constexpr uintptr_t kTag = uintptr_t{1} << 62;

void* tagged(void* p) {
  return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) | kTag);
}
void* real(const void* p) {
  return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) & ~kTag);
}

void borrowed(void*, void*, size_t) {}  // the emulator's storage owns the memory

std::atomic<bool> fail_next{false};  // fail_next_recording()

class DeviceEmulator final : public backend::Backend, public backend::GraphCapture {
 public:
  explicit DeviceEmulator(backend::Backend& cpu) : cpu_(cpu) {}

  std::string_view name() const override { return kDeviceEmulator; }
  std::string device() const override { return "emulated:0"; }
  bool is_host() const override { return false; }

  Ref<Storage> allocate(size_t nbytes) override {
    const size_t rounded = (std::max<size_t>(nbytes, 1) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p)
      throw ResourceExhaustedError(
          keras::detail::cat("device_emulator: cannot allocate ", nbytes, " bytes"));
    return make_ref<Storage>(this, tagged(p), nbytes);
  }
  void deallocate(void* data, size_t) override { std::free(real(data)); }
  void copy_from_host(Storage& dst, size_t off, const void* src, size_t n) override {
    refuse_while_recording("a copy from the host");
    if (n) std::memcpy(static_cast<char*>(real(dst.data())) + off, src, n);
  }
  void copy_to_host(void* dst, const Storage& src, size_t off, size_t n) override {
    refuse_while_recording("a copy to the host");
    if (n) std::memcpy(dst, static_cast<const char*>(real(src.data())) + off, n);
  }

  // Recording (backend/capture.h), as CUDA stream capture does it: the recording thread's calls
  // are kept with their arguments (the real addresses, not the storages: memory freed while a
  // recording still uses it is a use after free that AddressSanitizer reports) and run at each
  // launch. Its kernels take no scratch, so it needs no memory of its own for a recording.
  bool capture_enabled() const override { return true; }
  void begin_capture() override {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [this] { return !recording_; });
    recording_ = std::make_unique<Recording>();
    recording_thread_ = std::this_thread::get_id();
  }
  std::unique_ptr<backend::CapturedWork> end_capture() override {
    std::unique_ptr<Recording> done = finish_recording();
    if (fail_next.exchange(false))
      throw RuntimeError("device_emulator: told to fail this recording (fail_next_recording)");
    if (done->calls.empty()) throw RuntimeError("device_emulator: an empty recording");
    return done;
  }
  void abort_capture() noexcept override { finish_recording(); }
  // The key is read when the call runs, as a kernel reading it from device memory would.
  void random_from(const Array& out, backend::RandomKind kind, const Array& key,
                   uint64_t counter_offset) override {
    Host h(*this);
    submit([this, o = h(out), k = h(key), kind, counter_offset] {
      const auto* words = static_cast<const uint64_t*>(k.storage->data()) + k.offset;
      cpu_.random(o, kind, words[0], words[1] + counter_offset);
    });
  }

  void fill(const Array& out, const Scalar& value) override { on_cpu(&Backend::fill, out, value); }
  void arange(const Array& out, double start, double step) override {
    on_cpu(&Backend::arange, out, start, step);
  }
  void random(const Array& out, backend::RandomKind kind, uint64_t seed,
              uint64_t counter) override {
    on_cpu(&Backend::random, out, kind, seed, counter);
  }
  void copy(const Array& dst, const Array& src, backend::CopyMode mode) override {
    on_cpu(&Backend::copy, dst, src, mode);
  }
  void unary(backend::UnaryOp op, const Array& out, const Array& x, double p0, double p1) override {
    on_cpu(&Backend::unary, op, out, x, p0, p1);
  }
  void binary(backend::BinaryOp op, const Array& out, const Array& a, const Array& b) override {
    on_cpu(&Backend::binary, op, out, a, b);
  }
  void where(const Array& out, const Array& cond, const Array& a, const Array& b) override {
    on_cpu(&Backend::where, out, cond, a, b);
  }
  void reduce(backend::ReduceOp op, const Array& out, const Array& x, uint64_t axes) override {
    on_cpu(&Backend::reduce, op, out, x, axes);
  }
  void arg_reduce(backend::ArgReduceOp op, const Array& out, const Array& x, int axis) override {
    on_cpu(&Backend::arg_reduce, op, out, x, axis);
  }
  void scan(backend::ScanOp op, const Array& out, const Array& x, int axis) override {
    on_cpu(&Backend::scan, op, out, x, axis);
  }
  void sort(const Array& values, const Array& indices, const Array& x, bool descending) override {
    on_cpu(&Backend::sort, values, indices, x, descending);
  }
  void gather(const Array& out, const Array& x, const Array& index, int axis) override {
    on_cpu(&Backend::gather, out, x, index, axis);
  }
  void scatter(const Array& out, const Array& index, const Array& src, int axis,
               backend::ScatterReduce reduce) override {
    on_cpu(&Backend::scatter, out, index, src, axis, reduce);
  }
  void matmul(const Array& out, const Array& a, const Array& b) override {
    on_cpu(&Backend::matmul, out, a, b);
  }

  // The fused capabilities: cpu's, so the front end's fused paths run on a device too.
  bool supports(backend::Capability cap) const override { return cpu_.supports(cap); }
  void conv(const Array& out, const Array& x, const Array& kernel,
            const backend::ConvSpec& spec) override {
    on_cpu(&Backend::conv, out, x, kernel, spec);
  }
  void conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                           const backend::ConvSpec& spec) override {
    on_cpu(&Backend::conv_backward_input, dx, dy, kernel, spec);
  }
  void conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                            const backend::ConvSpec& spec) override {
    on_cpu(&Backend::conv_backward_kernel, dkernel, x, dy, spec);
  }
  void pool(const Array& out, const Array& x, const backend::PoolSpec& spec) override {
    on_cpu(&Backend::pool, out, x, spec);
  }
  void pool_backward(const Array& dx, const Array& dy, const Array& x, const Array& out,
                     const backend::PoolSpec& spec) override {
    on_cpu(&Backend::pool_backward, dx, dy, x, out, spec);
  }
  void softmax(const Array& out, const Array& x, int axis, bool log) override {
    on_cpu(&Backend::softmax, out, x, axis, log);
  }
  void linear(const Array& out, const Array& x, const Array& w, const Array& bias,
              backend::Activation activation) override {
    on_cpu(&Backend::linear, out, x, w, bias, activation);
  }
  void int8_matmul(const Array& out, const Array& a, const Array& b) override {
    on_cpu(&Backend::int8_matmul, out, a, b);
  }
  void quantize_rows_int8(const Array& q, const Array& scale, const Array& x, float lo, float hi,
                          float epsilon) override {
    on_cpu(&Backend::quantize_rows_int8, q, scale, x, lo, hi, epsilon);
  }
  void int8_linear(const Array& out, const Array& a, const Array& b, const Array& a_scale,
                   const Array& b_scale, const Array& bias,
                   backend::Activation activation) override {
    on_cpu(&Backend::int8_linear, out, a, b, a_scale, b_scale, bias, activation);
  }
  void int4_matmul(const Array& out, const Array& x, const Array& packed, const Array& scale,
                   const Array& zero, const Array& g_idx) override {
    on_cpu(&Backend::int4_matmul, out, x, packed, scale, zero, g_idx);
  }
  void conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                            const Array& bias, backend::Activation activation,
                            const backend::ConvSpec& spec) override {
    on_cpu(&Backend::conv_bias_activation, out, x, kernel, bias, activation, spec);
  }
  void bias_activation_backward(const Array& dz, const Array& db, const Array& y, const Array& g,
                                backend::Activation activation) override {
    on_cpu(&Backend::bias_activation_backward, dz, db, y, g, activation);
  }
  void conv_bias_activation_max_pool(const Array& out, const Array& argmax, const Array& x,
                                     const Array& kernel, const Array& bias,
                                     backend::Activation activation,
                                     const backend::ConvSpec& spec) override {
    on_cpu(&Backend::conv_bias_activation_max_pool, out, argmax, x, kernel, bias, activation, spec);
  }
  void conv_bias_activation_max_pool_backward(const Array& dx, const Array& dkernel,
                                              const Array& db, const Array& x, const Array& kernel,
                                              const Array& y, const Array& g, const Array& argmax,
                                              backend::Activation activation,
                                              const backend::ConvSpec& spec) override {
    on_cpu(&Backend::conv_bias_activation_max_pool_backward, dx, dkernel, db, x, kernel, y, g,
           argmax, activation, spec);
  }
  void elementwise(const backend::ElementwiseChain& chain, std::span<const Array> arrays) override {
    Host h(*this);
    std::vector<Array> on_host;
    on_host.reserve(arrays.size());
    for (const Array& a : arrays) on_host.push_back(h(a));
    submit([this, chain, on_host] { cpu_.elementwise(chain, on_host); });
  }

  bool cholesky(const Array& out, const Array& x, bool upper) override {
    refuse_while_recording("cholesky (its result is read on the host)");
    Host h(*this);
    return cpu_.cholesky(h(out), h(x), upper);
  }
  void lu_factor(const Array& lu, const Array& pivots, const Array& x) override {
    on_cpu(&Backend::lu_factor, lu, pivots, x);
  }
  void triangular_solve(const Array& out, const Array& a, const Array& b, bool lower, bool left,
                        bool transpose_a, bool unit_diagonal) override {
    on_cpu(&Backend::triangular_solve, out, a, b, lower, left, transpose_a, unit_diagonal);
  }
  void qr(const Array& q, const Array& r, const Array& x, bool complete) override {
    on_cpu(&Backend::qr, q, r, x, complete);
  }
  void svd(const Array& u, const Array& s, const Array& vt, const Array& x,
           bool full_matrices) override {
    on_cpu(&Backend::svd, u, s, vt, x, full_matrices);
  }
  void eigh(const Array& values, const Array& vectors, const Array& x, bool lower) override {
    on_cpu(&Backend::eigh, values, vectors, x, lower);
  }
  bool eig(const Array& values, const Array& vectors, const Array& x) override {
    refuse_while_recording("eig (its result is read on the host)");
    Host h(*this);
    return cpu_.eig(h(values), h(vectors), h(x));
  }

 private:
  struct Recording final : backend::CapturedWork {
    std::vector<std::function<void()>> calls;
    void launch() override {
      for (const auto& call : calls) call();
    }
  };

  bool recording_here() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return recording_ && recording_thread_ == std::this_thread::get_id();
  }
  void refuse_while_recording(const char* what) const {
    if (recording_here())
      throw RuntimeError(keras::detail::cat("device_emulator: ", what, " cannot be recorded"));
  }
  std::unique_ptr<Recording> finish_recording() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::unique_ptr<Recording> done = std::move(recording_);
    idle_.notify_all();
    return done;
  }
  // Runs the call now, or records it while this thread records.
  void submit(std::function<void()> call) {
    if (!recording_here()) return call();
    std::lock_guard<std::mutex> lock(mutex_);
    recording_->calls.push_back(std::move(call));
  }
  // cpu's `method` on the host views of the arrays among `args` (other arguments as given).
  template <typename... Params, typename... Args>
  void on_cpu(void (Backend::*method)(Params...), const Args&... args) {
    Host h(*this);
    submit([this, method, ... host = h.view(args)] { (cpu_.*method)(host...); });
  }

  // One call's arrays as cpu sees them: the same views over the real addresses. Arrays that
  // share a storage get one host storage, so cpu's checks for shared memory still see it.
  class Host {
   public:
    explicit Host(DeviceEmulator& emulator) : emulator_(emulator) {}
    template <typename T>
    const T& view(const T& value) {
      return value;
    }
    Array view(const Array& a) { return (*this)(a); }
    Array operator()(const Array& a) {
      if (!a.storage || &a.storage->owner() != &emulator_) return a;
      Array view = a;
      for (const auto& [device, host] : seen_) {
        if (device == a.storage.get()) {
          view.storage = host;
          return view;
        }
      }
      view.storage = make_ref<Storage>(&emulator_.cpu_, real(a.storage->data()),
                                       a.storage->nbytes(), &borrowed, nullptr);
      seen_.emplace_back(a.storage.get(), view.storage);
      return view;
    }

   private:
    DeviceEmulator& emulator_;
    std::vector<std::pair<const Storage*, Ref<Storage>>> seen_;
  };

  backend::Backend& cpu_;
  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::unique_ptr<Recording> recording_;
  std::thread::id recording_thread_;
};

}  // namespace

void fail_next_recording() {
  fail_next = true;
}

void register_device_emulator() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Looked up here: the registry calls factories under its lock. cpu itself, not the
    // recording wrapper get() returns under a compiled trace.
    backend::Backend& cpu = backend::get("cpu").allocate(0)->owner();
    backend::register_backend(kDeviceEmulator,
                              [&cpu] { return std::make_unique<DeviceEmulator>(cpu); });
  });
}

}  // namespace keras::testing
