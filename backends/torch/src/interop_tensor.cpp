// to_torch / from_torch: one buffer seen from both libraries. Each side keeps the other's
// memory alive through a deleter: at::from_blob's deleter holds a Ref<Storage>, and a keras
// Storage made from an at::Tensor owns a copy of that handle.

#include <ATen/ATen.h>
#include <torch/version.h>

#include <optional>
#include <sstream>

#include "keras/backend/backend.h"
#include "keras/backend/registry.h"
#include "keras/torch/interop.h"
#include "torch_backend.h"

namespace keras::torch_interop {
namespace {

void release_aten_tensor(void* context, void*, size_t) {
  delete static_cast<at::Tensor*>(context);
}

// Where ATen sees `b`'s memory: the CPU for a host backend, a torch backend's GPU; none for
// device memory of another library (the cuda backend's).
std::optional<c10::Device> aten_device_of(const backend::Backend& b) {
  if (b.is_host()) return c10::Device(at::kCPU);
  if (const auto* torch = dynamic_cast<const torch_backend::TorchBackend*>(&b))
    return torch->aten_device();
  return std::nullopt;
}

std::string aten_name(at::ScalarType type) {
  std::ostringstream out;
  out << type;
  return out.str();
}

}  // namespace

DType dtype_from_torch(at::ScalarType type) {
  switch (type) {
    case at::kBool:
      return DType::Bool;
    case at::kChar:
      return DType::Int8;
    case at::kShort:
      return DType::Int16;
    case at::kInt:
      return DType::Int32;
    case at::kLong:
      return DType::Int64;
    case at::kByte:
      return DType::UInt8;
    case at::kHalf:
      return DType::Float16;
    case at::kBFloat16:
      return DType::BFloat16;
    case at::kFloat:
      return DType::Float32;
    case at::kDouble:
      return DType::Float64;
    case at::kComplexFloat:
      return DType::Complex64;
    case at::kComplexDouble:
      return DType::Complex128;
    default:
      throw TypeError(keras::detail::cat(
          "from_torch: the LibTorch dtype ", aten_name(type),
          " has no keras-cpp equivalent (keras-cpp has bool, int8/16/32/64, uint8, float16, "
          "bfloat16, float32, float64, complex64, complex128). Convert it first, e.g. "
          "t.to(torch::kFloat)."));
  }
}

at::ScalarType dtype_to_torch(DType dtype) {
  switch (dtype) {
    case DType::Bool:
      return at::kBool;
    case DType::Int8:
      return at::kChar;
    case DType::Int16:
      return at::kShort;
    case DType::Int32:
      return at::kInt;
    case DType::Int64:
      return at::kLong;
    case DType::UInt8:
      return at::kByte;
    case DType::Float16:
      return at::kHalf;
    case DType::BFloat16:
      return at::kBFloat16;
    case DType::Float32:
      return at::kFloat;
    case DType::Float64:
      return at::kDouble;
    case DType::Complex64:
      return at::kComplexFloat;
    case DType::Complex128:
      return at::kComplexDouble;
    case DType::String:
      throw TypeError("to_torch: LibTorch tensors hold no strings; turn them into numbers with "
                      "the text layers first (docs/strings.md).");
  }
  throw TypeError("to_torch: unknown keras-cpp dtype");
}

at::Tensor to_torch(const Tensor& x) {
  check(x.defined(), "to_torch: the tensor is undefined.");
  const backend::Array& array = x.array();
  const std::optional<c10::Device> device =
      aten_device_of(array.storage ? array.storage->owner() : x.backend());
  check(device.has_value(), "to_torch: the tensor lives on backend '", x.backend_name(),
        "', whose memory ATen cannot see; move it with .to(\"torch:cuda\") or .to(\"cpu\") "
        "first.");
  const backend::Array& a = x.array();
  const at::TensorOptions options =
      at::TensorOptions().dtype(dtype_to_torch(a.dtype)).device(*device);
  std::vector<int64_t> sizes(a.shape.begin(), a.shape.end());
  if (a.numel() == 0) return at::empty(sizes, options);
  for (int64_t s : a.strides)
    if (s < 0) return to_torch(x.contiguous());  // ATen has no negative strides
  std::vector<int64_t> strides(a.strides.begin(), a.strides.end());
  // The deleter owns a reference to the keras storage, so either side may be dropped first.
  auto* keep = new Ref<backend::Storage>(a.storage);
  return at::from_blob(
      a.data(), sizes, strides, [keep](void*) { delete keep; }, options);
}

Tensor from_torch(const at::Tensor& t, std::string_view backend_name) {
  check(t.defined(), "from_torch: the at::Tensor is undefined.");
  backend::Backend& target = backend::get(backend_name);
  const std::optional<c10::Device> home_device = aten_device_of(target);
  check(home_device.has_value(), "from_torch: backend '", backend_name,
        "' keeps tensors in memory ATen cannot see; use \"torch\", \"torch:cuda\" or a host "
        "backend (\"cpu\") and move the result with .to().");
  // Memory ATen wrote is no backend call a compiled step could replay.
  backend::mark_untraceable("it imports a LibTorch tensor (from_torch)");
  at::Tensor src = t;
  // Copies happen only here: memory that is not a dense buffer on the backend's device, or a
  // quantized encoding.
  if (src.is_quantized()) src = src.dequantize();
  if (src.layout() != at::kStrided) src = src.to_dense();
  if (src.device() != *home_device) src = src.to(*home_device);
  src = src.resolve_conj().resolve_neg();  // lazy flags of views are materialized
  const DType dtype = dtype_from_torch(src.scalar_type());

  backend::Array a;
  a.dtype = dtype;
  a.shape = Shape(src.sizes().begin(), src.sizes().end());
  a.strides = Strides(src.strides().begin(), src.strides().end());
  if (src.numel() == 0 || !src.has_storage()) {
    a.storage = target.allocate(0);
    a.strides = Strides(a.shape.rank(), 0);
  } else {
    const c10::Storage& storage = src.storage();
    // A new handle on the same storage: a later set_data() on the caller's tensor (which
    // swaps the storage of that handle) cannot pull this memory away.
    auto* owner = new at::Tensor(src.detach());
    // The backend itself, not the recording wrapper a compiler trace routes `target` to (the
    // storage outlives the trace).
    backend::Backend& home = target.allocate(0)->owner();
#if TORCH_VERSION_MAJOR >= 2  // data() is const there; mutable_data() materializes a lazy clone
    void* data = storage.mutable_data();
#else
    void* data = storage.data();
#endif
    a.storage =
        make_ref<backend::Storage>(&home, data, storage.nbytes(), &release_aten_tensor, owner);
    a.offset = src.storage_offset();
  }
  return Tensor(make_ref<keras::detail::TensorImpl>(std::move(a)));
}

}  // namespace keras::torch_interop
