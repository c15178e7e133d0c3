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
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  explicit SmallVector(size_t n, T value = T()) { assign(n, value); }
  SmallVector(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <typename It, typename = decltype(*std::declval<It>())>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { steal(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      release();
      steal(other);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  T* begin() { return ptr_; }
  T* end() { return ptr_ + size_; }
  const T* begin() const { return ptr_; }
  const T* end() const { return ptr_ + size_; }
  T& operator[](size_t i) { return ptr_[i]; }
  const T& operator[](size_t i) const { return ptr_[i]; }
  T& back() { return ptr_[size_ - 1]; }
  const T& back() const { return ptr_[size_ - 1]; }
  T& front() { return ptr_[0]; }
  const T& front() const { return ptr_[0]; }

  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  void resize(size_t n, T value = T()) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) ptr_[i] = value;
    size_ = n;
  }
  void push_back(T value) {
    if (size_ == capacity_) grow(capacity_ * 2);
    ptr_[size_++] = value;
  }
  void pop_back() { --size_; }
  void insert(size_t pos, T value) {
    push_back(value);
    std::rotate(ptr_ + pos, ptr_ + size_ - 1, ptr_ + size_);
  }
  void erase(size_t pos) {
    std::memmove(static_cast<void*>(ptr_ + pos), ptr_ + pos + 1, (size_ - pos - 1) * sizeof(T));
    --size_;
  }
  void assign(size_t n, T value) {
    size_ = 0;
    resize(n, value);
  }
  template <typename It>
  void assign(It first, It last) {
    size_t n = static_cast<size_t>(std::distance(first, last));
    size_ = 0;
    reserve(n);
    size_t i = 0;
    for (; first != last; ++first) ptr_[i++] = static_cast<T>(*first);
    size_ = n;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
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
