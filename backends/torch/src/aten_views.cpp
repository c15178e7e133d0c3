#include "aten_views.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "keras/core/errors.h"
#include "torch_backend.h"

namespace keras::torch_backend {
namespace {

// A forwards-only view of `a` and the axes that had to be turned around.
at::Tensor forward_view(const Array& a, std::vector<int64_t>& flipped) {
  const int r = a.rank();
  std::vector<int64_t> sizes(r), strides(r);
  char* base = static_cast<char*>(a.data());
  const int64_t item = static_cast<int64_t>(itemsize(a.dtype));
  for (int d = 0; d < r; ++d) {
    sizes[d] = a.shape[d];
    int64_t s = a.strides[d];
    if (s < 0) {
      base += (a.shape[d] - 1) * s * item;
      s = -s;
      flipped.push_back(d);
    }
    strides[d] = s;
  }
  return at::from_blob(base, sizes, strides, options_beside(a, scalar_type(a.dtype)));
}

// Whether the memory blocks of two arrays overlap (interop can wrap one buffer twice).
bool share_memory(const Array& a, const Array& b) {
  const char* a0 = static_cast<const char*>(a.storage->data());
  const char* b0 = static_cast<const char*>(b.storage->data());
  return a0 < b0 + b.storage->nbytes() && b0 < a0 + a.storage->nbytes();
}

}  // namespace

at::ScalarType scalar_type(DType dtype) {
  switch (dtype) {
    case DType::Bool: return at::kBool;
    case DType::Int8: return at::kChar;
    case DType::Int16: return at::kShort;
    case DType::Int32: return at::kInt;
    case DType::Int64: return at::kLong;
    case DType::UInt8: return at::kByte;
    case DType::Float16: return at::kHalf;
    case DType::BFloat16: return at::kBFloat16;
    case DType::Float32: return at::kFloat;
    case DType::Float64: return at::kDouble;
    case DType::Complex64:
    case DType::Complex128:
      keras::detail::throw_complex_not_supported(dtype);  // kernels see real views only
    case DType::String:
      keras::detail::throw_string_not_supported();  // strings live on their own host backend
  }
  throw RuntimeError("torch backend: unknown dtype");
}

at::Device device_of(const Array& a) {
  if (!a.storage) return at::kCPU;
  const backend::Backend& owner = a.storage->owner();
  if (owner.is_host()) return at::kCPU;  // one virtual call on the CPU's path
  const auto* torch = dynamic_cast<const TorchBackend*>(&owner);
  check(torch != nullptr, "torch backend: an array of backend '", owner.name(),
        "' reached it; move the tensor with .to(\"torch\") first.");
  return torch->aten_device();
}

at::TensorOptions options_beside(const Array& a, at::ScalarType type) {
  return at::TensorOptions().dtype(type).device(device_of(a));
}

at::ScalarType compute_type(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16 ? at::kFloat : scalar_type(dtype);
}

std::vector<int64_t> sizes_of(const Array& a) {
  return std::vector<int64_t>(a.shape.begin(), a.shape.end());
}

at::Tensor view(const Array& a) {
  if (a.numel() == 0) return at::empty(sizes_of(a), options_beside(a, scalar_type(a.dtype)));
  std::vector<int64_t> flipped;
  at::Tensor t = forward_view(a, flipped);
  return flipped.empty() ? t : t.flip(flipped);
}

at::Tensor compute_view(const Array& a) {
  at::Tensor t = view(a);
  const at::ScalarType c = compute_type(a.dtype);
  return t.scalar_type() == c ? t : t.to(c);
}

at::Tensor writable_view(const Array& out) {
  if (out.numel() == 0 || compute_type(out.dtype) != scalar_type(out.dtype)) return {};
  for (int d = 0; d < out.rank(); ++d)
    if (out.strides[d] < 0) return {};
  std::vector<int64_t> flipped;
  return forward_view(out, flipped);
}

// With the axes sorted by stride, each stride must clear the span of all the smaller ones.
bool may_overlap(const Array& a) {
  std::vector<std::pair<int64_t, int64_t>> axes;  // (|stride|, extent)
  for (int d = 0; d < a.rank(); ++d)
    if (a.shape[d] > 1) axes.emplace_back(std::abs(a.strides[d]), a.shape[d]);
  std::sort(axes.begin(), axes.end());
  int64_t span = 0;  // reach of the axes so far, in elements
  for (const auto& [stride, extent] : axes) {
    if (stride <= span) return true;
    span += stride * (extent - 1);
  }
  return false;
}

namespace {

// out_view() and elementwise_out_view(): an input sharing out's memory rules out a view, unless
// `same_view_ok` and it is out itself (same memory, same view).
at::Tensor output_view(const Array& out, std::initializer_list<const Array*> inputs,
                       bool same_view_ok) {
  for (const Array* in : inputs) {
    if (!in->storage || !share_memory(*in, out)) continue;
    const bool same = in->storage->data() == out.storage->data() && in->offset == out.offset &&
                      in->dtype == out.dtype && in->shape == out.shape &&
                      in->strides == out.strides;
    if (!same_view_ok || !same) return {};
  }
  if (may_overlap(out)) return {};
  return writable_view(out);
}

}  // namespace

at::Tensor out_view(const Array& out, std::initializer_list<const Array*> inputs) {
  return output_view(out, inputs, false);
}

at::Tensor elementwise_out_view(const Array& out, std::initializer_list<const Array*> inputs) {
  return output_view(out, inputs, true);
}

void assign(const Array& out, const at::Tensor& value) {
  if (out.numel() == 0) return;
  std::vector<int64_t> flipped;
  at::Tensor dst = forward_view(out, flipped);
  at::Tensor src = value.sizes() == dst.sizes() ? value : value.reshape(dst.sizes());
  if (!flipped.empty()) src = src.flip(flipped);
  if (src.is_same(dst)) return;
  dst.copy_(src);
}

}  // namespace keras::torch_backend
