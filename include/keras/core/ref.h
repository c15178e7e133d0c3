#pragma once
// Intrusive reference counting: one atomic in the object, no separate control block, so a
// tensor handle is one pointer and copying it is one atomic increment.

#include <atomic>
#include <cstdint>
#include <utility>

#pragma GCC visibility push(default)
namespace keras {

/// Base for objects owned through Ref<T>.
class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;
  virtual ~RefCounted() = default;

  /// Adds an owner (Ref calls it; a relaxed atomic increment).
  void retain() const { count_.fetch_add(1, std::memory_order_relaxed); }
  /// Drops an owner; deletes the object when it was the last.
  void release() const {
    if (count_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  /// Current number of owners (exact only while no other thread changes it).
  int32_t use_count() const { return count_.load(std::memory_order_acquire); }

 private:
  mutable std::atomic<int32_t> count_{0};
};

/// Owning pointer to a RefCounted object.
template <typename T>
class Ref {
 public:
  Ref() = default;
  /// A null Ref, so `nullptr` converts to one.
  Ref(std::nullptr_t) {}  // NOLINT
  /// Becomes an owner of `p` (null allowed); safe for an object other Refs already own.
  explicit Ref(T* p) : p_(p) {
    if (p_) p_->retain();
  }
  /// Another owner of `o`'s object.
  Ref(const Ref& o) : p_(o.p_) {
    if (p_) p_->retain();
  }
  /// Takes over `o`'s ownership, leaving `o` null.
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  /// Another owner of `o`'s object, as a Ref to a base class.
  Ref(const Ref<U>& o) : p_(o.get()) {  // NOLINT
    if (p_) p_->retain();
  }
  /// Releases the current object and shares `o`'s.
  Ref& operator=(const Ref& o) {
    Ref(o).swap(*this);
    return *this;
  }
  /// Releases the current object and takes over `o`'s, leaving `o` null.
  Ref& operator=(Ref&& o) noexcept {
    Ref(std::move(o)).swap(*this);
    return *this;
  }
  ~Ref() {
    if (p_) p_->release();
  }

  /// The raw pointer (null for a null Ref); ownership stays with the Ref.
  T* get() const { return p_; }
  /// Member access on the object; the Ref must not be null.
  T* operator->() const { return p_; }
  /// The object; the Ref must not be null.
  T& operator*() const { return *p_; }
  /// True when the Ref is not null.
  explicit operator bool() const { return p_ != nullptr; }
  /// Exchanges the objects of two Refs without touching the counts.
  void swap(Ref& o) noexcept { std::swap(p_, o.p_); }
  /// Releases the object and becomes null.
  void reset() { Ref().swap(*this); }

  /// True when both point to the same object (or both are null).
  friend bool operator==(const Ref& a, const Ref& b) { return a.p_ == b.p_; }
  /// True when they point to different objects.
  friend bool operator!=(const Ref& a, const Ref& b) { return a.p_ != b.p_; }

 private:
  T* p_ = nullptr;
};

/// Allocates a T and returns the first owner.
template <typename T, typename... Args>
Ref<T> make_ref(Args&&... args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

}  // namespace keras

#pragma GCC visibility pop
