#include "device_emulator.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "keras/backend/backend.h"
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

class DeviceEmulator final : public backend::Backend {
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
    if (n) std::memcpy(static_cast<char*>(real(dst.data())) + off, src, n);
  }
  void copy_to_host(void* dst, const Storage& src, size_t off, size_t n) override {
    if (n) std::memcpy(dst, static_cast<const char*>(real(src.data())) + off, n);
  }

  void fill(const Array& out, const Scalar& value) override { cpu_.fill(Host(*this)(out), value); }
  void arange(const Array& out, double start, double step) override {
    cpu_.arange(Host(*this)(out), start, step);
  }
  void random(const Array& out, backend::RandomKind kind, uint64_t seed,
              uint64_t counter) override {
    cpu_.random(Host(*this)(out), kind, seed, counter);
  }
  void copy(const Array& dst, const Array& src, backend::CopyMode mode) override {
    Host h(*this);
    cpu_.copy(h(dst), h(src), mode);
  }
  void unary(backend::UnaryOp op, const Array& out, const Array& x, double p0, double p1) override {
    Host h(*this);
    cpu_.unary(op, h(out), h(x), p0, p1);
  }
  void binary(backend::BinaryOp op, const Array& out, const Array& a, const Array& b) override {
    Host h(*this);
    cpu_.binary(op, h(out), h(a), h(b));
  }
  void where(const Array& out, const Array& cond, const Array& a, const Array& b) override {
    Host h(*this);
    cpu_.where(h(out), h(cond), h(a), h(b));
  }
  void reduce(backend::ReduceOp op, const Array& out, const Array& x, uint64_t axes) override {
    Host h(*this);
    cpu_.reduce(op, h(out), h(x), axes);
  }
  void arg_reduce(backend::ArgReduceOp op, const Array& out, const Array& x, int axis) override {
    Host h(*this);
    cpu_.arg_reduce(op, h(out), h(x), axis);
  }
  void scan(backend::ScanOp op, const Array& out, const Array& x, int axis) override {
    Host h(*this);
    cpu_.scan(op, h(out), h(x), axis);
  }
  void sort(const Array& values, const Array& indices, const Array& x, bool descending) override {
    Host h(*this);
    cpu_.sort(h(values), h(indices), h(x), descending);
  }
  void gather(const Array& out, const Array& x, const Array& index, int axis) override {
    Host h(*this);
    cpu_.gather(h(out), h(x), h(index), axis);
  }
  void scatter(const Array& out, const Array& index, const Array& src, int axis,
               backend::ScatterReduce reduce) override {
    Host h(*this);
    cpu_.scatter(h(out), h(index), h(src), axis, reduce);
  }
  void matmul(const Array& out, const Array& a, const Array& b) override {
    Host h(*this);
    cpu_.matmul(h(out), h(a), h(b));
  }

  // The fused capabilities: cpu's, so the front end's fused paths run on a device too.
  bool supports(backend::Capability cap) const override { return cpu_.supports(cap); }
  void conv(const Array& out, const Array& x, const Array& kernel,
            const backend::ConvSpec& spec) override {
    Host h(*this);
    cpu_.conv(h(out), h(x), h(kernel), spec);
  }
  void conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                           const backend::ConvSpec& spec) override {
    Host h(*this);
    cpu_.conv_backward_input(h(dx), h(dy), h(kernel), spec);
  }
  void conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                            const backend::ConvSpec& spec) override {
    Host h(*this);
    cpu_.conv_backward_kernel(h(dkernel), h(x), h(dy), spec);
  }
  void pool(const Array& out, const Array& x, const backend::PoolSpec& spec) override {
    Host h(*this);
    cpu_.pool(h(out), h(x), spec);
  }
  void pool_backward(const Array& dx, const Array& dy, const Array& x, const Array& out,
                     const backend::PoolSpec& spec) override {
    Host h(*this);
    cpu_.pool_backward(h(dx), h(dy), h(x), h(out), spec);
  }
  void softmax(const Array& out, const Array& x, int axis, bool log) override {
    Host h(*this);
    cpu_.softmax(h(out), h(x), axis, log);
  }
  void linear(const Array& out, const Array& x, const Array& w, const Array& bias,
              backend::Activation activation) override {
    Host h(*this);
    cpu_.linear(h(out), h(x), h(w), h(bias), activation);
  }
  void int8_matmul(const Array& out, const Array& a, const Array& b) override {
    Host h(*this);
    cpu_.int8_matmul(h(out), h(a), h(b));
  }
  void quantize_rows_int8(const Array& q, const Array& scale, const Array& x, float lo, float hi,
                          float epsilon) override {
    Host h(*this);
    cpu_.quantize_rows_int8(h(q), h(scale), h(x), lo, hi, epsilon);
  }
  void int8_linear(const Array& out, const Array& a, const Array& b, const Array& a_scale,
                   const Array& b_scale, const Array& bias,
                   backend::Activation activation) override {
    Host h(*this);
    cpu_.int8_linear(h(out), h(a), h(b), h(a_scale), h(b_scale), h(bias), activation);
  }
  void int4_matmul(const Array& out, const Array& x, const Array& packed, const Array& scale,
                   const Array& zero, const Array& g_idx) override {
    Host h(*this);
    cpu_.int4_matmul(h(out), h(x), h(packed), h(scale), h(zero), h(g_idx));
  }
  void conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                            const Array& bias, backend::Activation activation,
                            const backend::ConvSpec& spec) override {
    Host h(*this);
    cpu_.conv_bias_activation(h(out), h(x), h(kernel), h(bias), activation, spec);
  }
  void bias_activation_backward(const Array& dz, const Array& db, const Array& y, const Array& g,
                                backend::Activation activation) override {
    Host h(*this);
    cpu_.bias_activation_backward(h(dz), h(db), h(y), h(g), activation);
  }
  void conv_bias_activation_max_pool(const Array& out, const Array& argmax, const Array& x,
                                     const Array& kernel, const Array& bias,
                                     backend::Activation activation,
                                     const backend::ConvSpec& spec) override {
    Host h(*this);
    cpu_.conv_bias_activation_max_pool(h(out), h(argmax), h(x), h(kernel), h(bias), activation,
                                       spec);
  }
  void conv_bias_activation_max_pool_backward(const Array& dx, const Array& dkernel,
                                              const Array& db, const Array& x, const Array& kernel,
                                              const Array& y, const Array& g, const Array& argmax,
                                              backend::Activation activation,
                                              const backend::ConvSpec& spec) override {
    Host h(*this);
    cpu_.conv_bias_activation_max_pool_backward(h(dx), h(dkernel), h(db), h(x), h(kernel), h(y),
                                                h(g), h(argmax), activation, spec);
  }
  void elementwise(const backend::ElementwiseChain& chain, std::span<const Array> arrays) override {
    Host h(*this);
    std::vector<Array> on_host;
    on_host.reserve(arrays.size());
    for (const Array& a : arrays) on_host.push_back(h(a));
    cpu_.elementwise(chain, on_host);
  }

  bool cholesky(const Array& out, const Array& x, bool upper) override {
    Host h(*this);
    return cpu_.cholesky(h(out), h(x), upper);
  }
  void lu_factor(const Array& lu, const Array& pivots, const Array& x) override {
    Host h(*this);
    cpu_.lu_factor(h(lu), h(pivots), h(x));
  }
  void triangular_solve(const Array& out, const Array& a, const Array& b, bool lower, bool left,
                        bool transpose_a, bool unit_diagonal) override {
    Host h(*this);
    cpu_.triangular_solve(h(out), h(a), h(b), lower, left, transpose_a, unit_diagonal);
  }
  void qr(const Array& q, const Array& r, const Array& x, bool complete) override {
    Host h(*this);
    cpu_.qr(h(q), h(r), h(x), complete);
  }
  void svd(const Array& u, const Array& s, const Array& vt, const Array& x,
           bool full_matrices) override {
    Host h(*this);
    cpu_.svd(h(u), h(s), h(vt), h(x), full_matrices);
  }
  void eigh(const Array& values, const Array& vectors, const Array& x, bool lower) override {
    Host h(*this);
    cpu_.eigh(h(values), h(vectors), h(x), lower);
  }
  bool eig(const Array& values, const Array& vectors, const Array& x) override {
    Host h(*this);
    return cpu_.eig(h(values), h(vectors), h(x));
  }

 private:
  // One call's arrays as cpu sees them: the same views over the real addresses. Arrays that
  // share a storage get one host storage, so cpu's checks for shared memory still see it.
  class Host {
   public:
    explicit Host(DeviceEmulator& emulator) : emulator_(emulator) {}
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
};

}  // namespace

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
