// Memory of the torch backend, its registration, and which fused kernels it has.
//
// Storage is a block from ATen's own allocator for the device (its DataPtr kept alive by the
// Storage), so the interop functions can hand the same buffer to LibTorch code and back without
// a copy. The block is taken from the allocator directly, not as a tensor of bytes: one
// allocation per output instead of three (the data, a StorageImpl and a TensorImpl).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <cstring>
#include <memory>
#include <thread>

#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/core/runtime_errors.h"
#include "torch_backend.h"
#include "torch_cuda.h"

namespace keras::torch_backend {
namespace {

void release_aten_block(void* context, void*, size_t) {
  delete static_cast<c10::DataPtr*>(context);
}

// ATen 1.13 warns once per process that scatter_reduce is "in beta"; the backend uses it for
// the scatter primitive's Mul/Max/Min, which ATen 1.13 has in no other form. Every other
// warning goes to ATen's default handler.
class QuietBetaWarnings : public c10::WarningHandler {
 public:
#if TORCH_VERSION_MAJOR >= 2  // LibTorch 2 passes a c10::Warning
  void process(const c10::Warning& warning) override {
    if (warning.msg().find("is in beta") != std::string::npos) return;
    fallback_.process(warning);
  }
#else
  void process(const c10::SourceLocation& where, const std::string& msg, bool verbatim) override {
    if (msg.find("is in beta") != std::string::npos) return;
    fallback_.process(where, msg, verbatim);
  }
#endif

 private:
  c10::WarningHandler fallback_;
};

}  // namespace

TorchBackend::TorchBackend(c10::Device device, std::string name)
    : device_(device), name_(std::move(name)) {
  static QuietBetaWarnings quiet;
#if TORCH_VERSION_MAJOR >= 2
  c10::WarningUtils::set_warning_handler(&quiet);
#else
  c10::Warning::set_warning_handler(&quiet);
#endif
  // ATen's intra-op pool starts at one thread in some builds; use every core, as the cpu
  // backend does, so the two backends are compared on the same hardware.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (at::get_num_threads() < cores) at::set_num_threads(cores);
  if (!device_.is_cpu()) {
    // Float32 products and convolutions in float32, as cpu computes them (the cuda backend
    // too): ATen lets cuDNN use TF32, whose 10-bit mantissa is off by 1e-3. This is process-wide
    // (LibTorch code beside keras-cpp sees it), set when a GPU backend is first used.
    at::globalContext().setAllowTF32CuDNN(false);
    at::globalContext().setFloat32MatmulPrecision("highest");
  }
}

std::string TorchBackend::device() const {
  return device_.is_cpu() ? "cpu:0" : keras::detail::cat("cuda:", int{device_.index()});
}

Ref<backend::Storage> TorchBackend::allocate(size_t nbytes) {
  c10::DataPtr block;
  try {
    if (device_.is_cpu()) {
      block = c10::GetCPUAllocator()->allocate(nbytes);
    } else {
      const c10::DeviceGuard on_device(device_);  // CUDA's allocator serves the current device
      block = c10::GetAllocator(device_.type())->allocate(nbytes);
    }
  } catch (const c10::Error& e) {  // ATen's allocators: "not enough memory", "out of memory"
    throw ResourceExhaustedError(keras::detail::cat(
        "Out of memory: backend '", name_, "' cannot allocate ", nbytes, " bytes (ATen: ",
        e.what_without_backtrace(), "). Free what is no longer needed, or raise the limit."));
  }
  void* data = block.get();
  auto* owner = new c10::DataPtr(std::move(block));
  return make_ref<backend::Storage>(this, data, nbytes, &release_aten_block, owner);
}

// Never called: every Storage of this backend carries release_aten_block as its deleter.
void TorchBackend::deallocate(void*, size_t) {}

namespace {

// `nbytes` bytes at `data` on `device` as an at::Tensor of bytes.
at::Tensor bytes_at(void* data, size_t nbytes, const c10::Device& device) {
  return at::from_blob(data, {static_cast<int64_t>(nbytes)},
                       at::TensorOptions().dtype(at::kByte).device(device));
}

}  // namespace

// On a GPU through ATen's copy, which waits for the kernels queued before it and, from the
// device, until the bytes are on the host.
void TorchBackend::copy_from_host(backend::Storage& dst, size_t byte_offset, const void* src,
                                  size_t nbytes) {
  if (!nbytes) return;
  void* to = static_cast<char*>(dst.data()) + byte_offset;
  if (device_.is_cpu()) {
    std::memcpy(to, src, nbytes);
    return;
  }
  bytes_at(to, nbytes, device_).copy_(bytes_at(const_cast<void*>(src), nbytes, at::kCPU));
}

void TorchBackend::copy_to_host(void* dst, const backend::Storage& src, size_t byte_offset,
                                size_t nbytes) {
  if (!nbytes) return;
  void* from = static_cast<char*>(src.data()) + byte_offset;
  if (device_.is_cpu()) {
    std::memcpy(dst, from, nbytes);
    return;
  }
  bytes_at(dst, nbytes, at::kCPU).copy_(bytes_at(from, nbytes, device_));
}

void TorchBackend::synchronize() {
  if (device_.is_cpu()) return;
  const c10::impl::DeviceGuardImplInterface* impl = c10::impl::getDeviceGuardImpl(device_.type());
  impl->synchronizeStream(impl->getStream(device_));
}

// ATen has a kernel for every fused capability but ConvPool: it has no convolution that pools
// its own output, so the front end runs conv_bias_activation and max pooling as two calls.
bool TorchBackend::supports(backend::Capability cap) const {
  // ATen has no kernel for these two; the front end and the compiler keep their unfused forms.
  // QuantizedMatmul and Int4Matmul: the front end's decompositions (an int32 matmul; the int4
  // kernel unpacked, then a float product) serve torch.
  return cap < backend::Capability::kCount && cap != backend::Capability::ConvPool &&
         cap != backend::Capability::Elementwise && cap != backend::Capability::QuantizedMatmul &&
         cap != backend::Capability::Int4Matmul;
}

// Linking this object (the keras_torch target) is what makes "torch" (alias "torch:cpu") a
// backend name, and "torch:cuda", ... where LibTorch has CUDA and the machine GPUs.
[[maybe_unused]] const bool registered = [] {
  backend::register_backend("torch",
                            [] { return std::make_unique<TorchBackend>(at::kCPU, "torch"); });
  backend::register_alias("torch:cpu", "torch");
  register_cuda_backends();
  return true;
}();

}  // namespace keras::torch_backend
