#include "torch_cuda.h"

#include <ATen/Context.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <dlfcn.h>
#include <unistd.h>

#include <memory>
#include <mutex>

#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/torch/cuda.h"
#include "torch_backend.h"

namespace keras::torch_backend {
namespace {

std::mutex reason_mutex;
std::string& reason() {
  static std::string* r = new std::string("the torch backend has not looked for CUDA yet");
  return *r;
}

void set_reason(std::string why) {
  std::lock_guard<std::mutex> lock(reason_mutex);
  reason() = std::move(why);
}

// The folder holding libtorch_cpu.so: ATen's global context is an object inside it (a function's
// address could be the executable's PLT entry instead).
std::string torch_library_folder() {
  Dl_info info{};
  if (!dladdr(static_cast<const void*>(&at::globalContext()), &info) || !info.dli_fname) return "";
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// Loads libtorch_cuda.so (its static initializers register ATen's CUDA kernels, allocator and
// device guard); "" on success, else why not.
std::string load_torch_cuda() {
  const std::string folder = torch_library_folder();
  const std::string path = folder + "libtorch_cuda.so";
  if (folder.empty() || ::access(path.c_str(), F_OK) != 0)
    return "LibTorch" + (folder.empty() ? std::string() : " in " + folder) +
           " has no libtorch_cuda.so: it is a CPU-only build (Debian's libtorch-dev is); build "
           "against a CUDA LibTorch, such as a PyTorch wheel's (docs/backends.md)";
  if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    const char* error = dlerror();
    return keras::detail::cat(path, " does not load: ", error ? error : "unknown error",
                              " (LibTorch's CUDA libraries are missing: on a machine with a GPU, "
                              "install the PyTorch wheel's nvidia-* packages beside it)");
  }
  return "";
}

}  // namespace

void register_cuda_backends() {
  if (std::string why = load_torch_cuda(); !why.empty()) return set_reason(std::move(why));
  if (!at::hasCUDA()) return set_reason("LibTorch has CUDA but sees no GPU (or no driver)");
  const int devices = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->deviceCount();
  for (int d = 0; d < devices; ++d) {
    const std::string name = d == 0 ? "torch:cuda" : keras::detail::cat("torch:cuda:", d);
    const c10::Device device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(d));
    backend::register_backend(
        name, [device, name] { return std::make_unique<TorchBackend>(device, name); });
  }
  if (devices > 0) backend::register_alias("torch:cuda:0", "torch:cuda");
  set_reason(devices > 0 ? "" : "LibTorch has CUDA but sees no GPU");
}

std::string cuda_unavailable_reason() {
  std::lock_guard<std::mutex> lock(reason_mutex);
  return reason();
}

}  // namespace keras::torch_backend

namespace keras::torch_interop {

std::string torch_cuda_unavailable_reason() {
  return torch_backend::cuda_unavailable_reason();
}

}  // namespace keras::torch_interop
