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
  using Deleter = void (*)(void* context, void* data, size_t nbytes);

  /// Memory from `backend`'s allocator; returned to it on destruction.
  Storage(Backend* backend, void* data, size_t nbytes);
  /// Memory owned by someone else (a LibTorch tensor, a user buffer); `deleter` runs on
  /// destruction, with `context` (may be null).
  Storage(Backend* backend, void* data, size_t nbytes, Deleter deleter, void* context);
  ~Storage() override;

  void* data() const { return data_; }
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
  Ref<Storage> storage;
  int64_t offset = 0;  // in elements
  DType dtype = DType::Float32;
  Shape shape;
  Strides strides;  // in elements; 0 broadcasts, negative flips

  int rank() const { return shape.rank(); }
  int64_t numel() const { return shape.numel(); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(dtype); }
  Backend& backend() const { return storage->backend(); }
  /// Address of the first element (host backends only; device backends return a device address).
  void* data() const {
    detail::note_host_access(*this);
    return static_cast<char*>(storage->data()) + offset * static_cast<int64_t>(itemsize(dtype));
  }
  template <typename T>
  T* data_as() const {
    return static_cast<T*>(data());
  }
  /// True when the elements are laid out densely in row-major order.
  bool is_contiguous() const;
};

}  // namespace keras::backend

#pragma GCC visibility pop
