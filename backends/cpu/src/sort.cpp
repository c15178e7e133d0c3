// Stable sort along the last axis. Ascending puts NaN last; descending puts NaN first.
//
// Every value maps to an unsigned key whose order is the sort order (NaN above +inf, -0 equal
// to +0; inverted for descending). Long lines sort by LSD radix on the keys (stable, linear,
// skipping the bytes all keys share); short ones by std::sort on (key, index) pairs, which
// orders exactly as a stable sort.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>

#include "allocator.h"
#include "backend/scalar_math.h"
#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

// Lines shorter than this sort by comparison; radix passes cost 256 buckets each.
constexpr int64_t kRadixMinLength = 128;

// Uninitialized scratch memory from the caching allocator: fresh pages from the system would
// cost a page fault per 4 KiB on every call.
template <typename T>
class Scratch {
 public:
  explicit Scratch(int64_t n)
      : bytes_(static_cast<size_t>(n) * sizeof(T)), data_(static_cast<T*>(cached_alloc(bytes_))) {}
  ~Scratch() { cached_free(data_, bytes_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* get() const { return data_; }

 private:
  size_t bytes_;
  T* data_;
};

template <typename C>
using key_t = backend::math::sort_key_t<C>;
using backend::math::sort_key;

// The permutation that stably sorts keys[0..n) (n >= 1) into order[0..n). The pointers are
// swapped with the scratch ones as passes run; keys are clobbered.
template <typename K>
void radix_order(int64_t n, K*& keys, int64_t*& order, K*& key_tmp, int64_t*& order_tmp) {
  constexpr int kPasses = sizeof(K);
  std::array<std::array<int64_t, 256>, kPasses> counts{};
  for (int64_t i = 0; i < n; ++i)
    for (int p = 0; p < kPasses; ++p) ++counts[p][(keys[i] >> (8 * p)) & 0xff];
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  for (int p = 0; p < kPasses; ++p) {
    auto& c = counts[p];
    if (c[(keys[0] >> (8 * p)) & 0xff] == n) continue;  // every key shares this byte
    int64_t sum = 0;
    for (auto& v : c) {
      int64_t t = v;
      v = sum;
      sum += t;
    }
    for (int64_t i = 0; i < n; ++i) {
      int64_t dst = c[(keys[i] >> (8 * p)) & 0xff]++;
      key_tmp[dst] = keys[i];
      order_tmp[dst] = order[i];
    }
    std::swap(keys, key_tmp);
    std::swap(order, order_tmp);
  }
}

template <typename T>
void sort_typed(const Array& values, const Array& indices, const Array& x, bool descending) {
  using C = compute_t<T>;
  using K = key_t<C>;
  const int axis = x.rank() - 1;
  const bool want_values = static_cast<bool>(values.storage);
  const bool want_indices = static_cast<bool>(indices.storage);
  const backend::Array* ops[3] = {&x, want_values ? &values : &x, want_indices ? &indices : &x};
  const auto lines = make_lines<3>(x.shape, axis, ops);
  const int64_t n = x.shape[axis];
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t vs = want_values ? values.strides[axis] * static_cast<int64_t>(sizeof(T)) : 0;
  const int64_t is = want_indices ? indices.strides[axis] * 8 : 0;
  const char* xb = static_cast<const char*>(x.data());
  char* vb = want_values ? static_cast<char*>(values.data()) : nullptr;
  char* ib = want_indices ? static_cast<char*>(indices.data()) : nullptr;
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n * 8, 1));

  parallel_for(lines.count, grain, [&](int64_t begin, int64_t end) {
    const bool radix = n >= kRadixMinLength;
    Scratch<K> key_buf(n), key_tmp_buf(radix ? n : 0);
    Scratch<int64_t> order_buf(n), order_tmp_buf(radix ? n : 0);
    Scratch<std::pair<K, int64_t>> pairs(radix ? 0 : n);
    int64_t off[3];
    for (int64_t line = begin; line < end; ++line) {
      lines.offsets(line, off);
      const char* p = xb + off[0];
      K* keys = key_buf.get();
      int64_t* order = order_buf.get();
      for (int64_t i = 0; i < n; ++i) {
        K k = sort_key<C>(convert<C>(*reinterpret_cast<const T*>(p + i * xs)));
        keys[i] = descending ? ~k : k;
      }
      if (radix) {
        K* key_tmp = key_tmp_buf.get();
        int64_t* order_tmp = order_tmp_buf.get();
        radix_order(n, keys, order, key_tmp, order_tmp);
      } else {
        auto* pr = pairs.get();
        for (int64_t i = 0; i < n; ++i) pr[i] = {keys[i], i};
        std::sort(pr, pr + n);
        for (int64_t i = 0; i < n; ++i) order[i] = pr[i].second;
      }
      for (int64_t i = 0; i < n; ++i) {
        if (vb) std::memcpy(vb + off[1] + i * vs, p + order[i] * xs, sizeof(T));
        if (ib) *reinterpret_cast<int64_t*>(ib + off[2] + i * is) = order[i];
      }
    }
  });
}

}  // namespace

void CpuBackend::sort(const Array& values, const Array& indices, const Array& x, bool descending) {
  visit_dtype(x.dtype,
              [&](auto tag) { sort_typed<decltype(tag)>(values, indices, x, descending); });
}

}  // namespace keras::cpu
