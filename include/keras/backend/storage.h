#pragma once
// Storage is a block of memory owned by one backend; Array is a strided window onto it.
// Backends see only these two types: no autograd, no handles, no front-end policy.

#include <cstddef>
#include <cstdint>

#include "keras/core/dtype.h"
#include "keras/core/ref.h"
#include "keras/core/shape.h"
#include "keras/backend/trace_hook.h"

#pragma GCC visibility push(default)
namespace keras::backend {

class Backend;

/// A block of backend memory. Freed through its backend (or its own deleter) when the last
/// Array that uses it is gone.
class Storage : public RefCounted {
 public:
  /// Frees memory owned by someone else; called with the constructor's `context`, `data`, `nbytes`.
  using Deleter = void (*)(void* context, void* data, size_t nbytes);

  /// Memory from `backend`'s allocator; returned to it on destruction.
  Storage(Backend* backend, void* data, size_t nbytes);
  /// Memory owned by someone else (a LibTorch tensor, a user buffer); `deleter` runs on
  /// destruction, with `context` (may be null).
  Storage(Backend* backend, void* data, size_t nbytes, Deleter deleter, void* context);
  ~Storage() override;

  /// The block's address (a device address on device backends).
  void* data() const { return data_; }
  /// The block's size in bytes.
  size_t nbytes() const { return nbytes_; }
  /// The owning backend (under a trace, its recording wrapper).
  Backend& backend() const { return detail::route(*backend_); }
  /// The owning backend itself, never a wrapper.
  Backend& owner() const { return *backend_; }

 private:
  Backend* backend_;
  void* data_;
  size_t nbytes_;
  Deleter deleter_ = nullptr;
  void* context_ = nullptr;
};

/// A strided view of a Storage: what every primitive reads and writes.
struct Array {
  /// The memory the view reads; shared by every view of it.
  Ref<Storage> storage;
  /// Where element 0 of the view lies in the storage, in elements (not bytes).
  int64_t offset = 0;  // in elements
  /// The element type.
  DType dtype = DType::Float32;
  /// The view's shape.
  Shape shape;
  /// The step between neighbours along each axis, in elements; 0 broadcasts and negative flips.
  Strides strides;  // in elements; 0 broadcasts, negative flips

  /// The number of axes.
  int rank() const { return shape.rank(); }
  /// The number of elements (the product of the shape).
  int64_t numel() const { return shape.numel(); }
  /// The size of numel() elements in bytes (the view's extent only when it is contiguous).
  size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(dtype); }
  /// The backend that owns the storage (under a trace, its recording wrapper).
  Backend& backend() const { return storage->backend(); }
  /// Address of the first element (host backends only; device backends return a device address).
  void* data() const {
    detail::note_host_access(*this);
    return static_cast<char*>(storage->data()) + offset * static_cast<int64_t>(itemsize(dtype));
  }
  template <typename T>
  /// data() as a `T*`; `T` must match dtype.
  T* data_as() const {
    return static_cast<T*>(data());
  }
  /// True when the elements are laid out densely in row-major order.
  bool is_contiguous() const;
};

}  // namespace keras::backend

#pragma GCC visibility pop
