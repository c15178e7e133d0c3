#pragma once
// A vector that keeps up to N elements inline, so shapes and strides of ordinary tensors
// (rank <= 8) never touch the heap on the hot path of an op.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

#pragma GCC visibility push(default)
namespace keras {

/// Vector of trivially copyable values stored inline up to N elements.
template <typename T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values");

 public:
  /// The element type.
  using value_type = T;
  /// A mutable iterator: a plain pointer.
  using iterator = T*;
  /// A read-only iterator: a plain pointer.
  using const_iterator = const T*;

  SmallVector() = default;
  /// `n` copies of `value`.
  explicit SmallVector(size_t n, T value = T()) { assign(n, value); }
  /// The listed elements.
  SmallVector(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <typename It, typename = decltype(*std::declval<It>())>
  /// The elements of `[first, last)`, each converted to T.
  SmallVector(It first, It last) {
    assign(first, last);
  }
  /// A copy of `other`'s elements.
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  /// Takes `other`'s elements (its heap buffer, if any, without copying), leaving it empty.
  SmallVector(SmallVector&& other) noexcept { steal(other); }
  /// Replaces the elements with a copy of `other`'s.
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  /// Replaces the elements with `other`'s, leaving it empty.
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      release();
      steal(other);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  /// The number of elements.
  size_t size() const { return size_; }
  /// True when there are no elements.
  bool empty() const { return size_ == 0; }
  /// The first element's address (inline storage or the heap).
  T* data() { return ptr_; }
  /// The first element's address, read-only.
  const T* data() const { return ptr_; }
  /// An iterator to the first element.
  T* begin() { return ptr_; }
  /// An iterator past the last element.
  T* end() { return ptr_ + size_; }
  /// A read-only iterator to the first element.
  const T* begin() const { return ptr_; }
  /// A read-only iterator past the last element.
  const T* end() const { return ptr_ + size_; }
  /// Element `i`, unchecked: `i` must be below size().
  T& operator[](size_t i) { return ptr_[i]; }
  /// Element `i`, read-only and unchecked.
  const T& operator[](size_t i) const { return ptr_[i]; }
  /// The last element; the vector must not be empty.
  T& back() { return ptr_[size_ - 1]; }
  /// The last element, read-only; the vector must not be empty.
  const T& back() const { return ptr_[size_ - 1]; }
  /// The first element; the vector must not be empty.
  T& front() { return ptr_[0]; }
  /// The first element, read-only; the vector must not be empty.
  const T& front() const { return ptr_[0]; }

  /// Removes every element, keeping the capacity.
  void clear() { size_ = 0; }
  /// Makes room for `n` elements (moving to the heap past N) without changing size().
  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  /// Grows to `n` elements filled with `value`, or drops the elements past `n`.
  void resize(size_t n, T value = T()) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) ptr_[i] = value;
    size_ = n;
  }
  /// Appends `value`.
  void push_back(T value) {
    if (size_ == capacity_) grow(capacity_ * 2);
    ptr_[size_++] = value;
  }
  /// Removes the last element; the vector must not be empty.
  void pop_back() { --size_; }
  /// Inserts `value` before element `pos` (`pos` at most size()).
  void insert(size_t pos, T value) {
    push_back(value);
    std::rotate(ptr_ + pos, ptr_ + size_ - 1, ptr_ + size_);
  }
  /// Removes element `pos` (below size()), shifting the rest down.
  void erase(size_t pos) {
    std::memmove(static_cast<void*>(ptr_ + pos), ptr_ + pos + 1, (size_ - pos - 1) * sizeof(T));
    --size_;
  }
  /// Replaces the elements with `n` copies of `value`.
  void assign(size_t n, T value) {
    size_ = 0;
    resize(n, value);
  }
  template <typename It>
  /// Replaces the elements with those of `[first, last)`, each converted to T.
  void assign(It first, It last) {
    size_t n = static_cast<size_t>(std::distance(first, last));
    size_ = 0;
    reserve(n);
    size_t i = 0;
    for (; first != last; ++first) ptr_[i++] = static_cast<T>(*first);
    size_ = n;
  }

  /// True when both hold equal elements in the same order.
  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  /// True when the elements differ.
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  void grow(size_t n) {
    n = std::max<size_t>(n, N * 2);
    T* fresh = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!fresh) throw std::bad_alloc();
    if (size_) std::memcpy(static_cast<void*>(fresh), ptr_, size_ * sizeof(T));
    release();
    ptr_ = fresh;
    capacity_ = n;
  }
  void release() {
    if (ptr_ != inline_) std::free(ptr_);
    ptr_ = inline_;
    capacity_ = N;
  }
  void steal(SmallVector& other) {
    if (other.ptr_ == other.inline_) {
      std::memcpy(static_cast<void*>(inline_), other.inline_, other.size_ * sizeof(T));
      ptr_ = inline_;
      capacity_ = N;
    } else {
      ptr_ = other.ptr_;
      capacity_ = other.capacity_;
      other.ptr_ = other.inline_;
      other.capacity_ = N;
    }
    size_ = other.size_;
    other.size_ = 0;
  }

  T* ptr_ = inline_;
  size_t size_ = 0;
  size_t capacity_ = N;
  T inline_[N];
};

}  // namespace keras

#pragma GCC visibility pop
