// Memory of the torch backend, its registration, and which fused kernels it has.
//
// Storage is a block from ATen's own CPU allocator (its DataPtr kept alive by the Storage), so
// the interop functions can hand the same buffer to LibTorch code and back without a copy. The
// block is taken from the allocator directly, not as a tensor of bytes: one allocation per
// output instead of three (the data, a StorageImpl and a TensorImpl).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <cstring>
#include <memory>
#include <thread>

#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/core/runtime_errors.h"
#include "torch_backend.h"

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

TorchBackend::TorchBackend() {
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
}

Ref<backend::Storage> TorchBackend::allocate(size_t nbytes) {
  c10::DataPtr block;
  try {
    block = c10::GetCPUAllocator()->allocate(nbytes);
  } catch (const c10::Error& e) {  // ATen's allocator: "not enough memory"
    throw ResourceExhaustedError(keras::detail::cat(
        "Out of memory: backend 'torch' cannot allocate ", nbytes, " bytes (ATen: ",
        e.what_without_backtrace(), "). Free what is no longer needed, or raise the limit."));
  }
  void* data = block.get();
  auto* owner = new c10::DataPtr(std::move(block));
  return make_ref<backend::Storage>(this, data, nbytes, &release_aten_block, owner);
}

// Never called: every Storage of this backend carries release_aten_block as its deleter.
void TorchBackend::deallocate(void*, size_t) {}

void TorchBackend::copy_from_host(backend::Storage& dst, size_t byte_offset, const void* src,
                                  size_t nbytes) {
  if (nbytes) std::memcpy(static_cast<char*>(dst.data()) + byte_offset, src, nbytes);
}

void TorchBackend::copy_to_host(void* dst, const backend::Storage& src, size_t byte_offset,
                                size_t nbytes) {
  if (nbytes) std::memcpy(dst, static_cast<const char*>(src.data()) + byte_offset, nbytes);
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

// Linking this object (the keras_torch target) is what makes "torch" a backend name.
[[maybe_unused]] const bool registered = [] {
  backend::register_backend("torch", [] { return std::make_unique<TorchBackend>(); });
  return true;
}();

}  // namespace keras::torch_backend
