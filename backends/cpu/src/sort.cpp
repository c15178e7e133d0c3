// Stable sort along the last axis. Ascending puts NaN last; descending puts NaN first.

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"

namespace keras::cpu {
namespace {

template <typename C>
bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  return false;
}

// Strict weak order with NaN above every number.
template <typename C>
bool less_nan_last(C a, C b) {
  if (is_nan(a)) return false;
  if (is_nan(b)) return true;
  return a < b;
}

template <typename T>
void sort_typed(const Array& values, const Array& indices, const Array& x, bool descending) {
  using C = compute_t<T>;
  const int axis = x.rank() - 1;
  const bool want_values = static_cast<bool>(values.storage);
  const bool want_indices = static_cast<bool>(indices.storage);
  const backend::Array* ops[3] = {&x, want_values ? &values : &x, want_indices ? &indices : &x};
  auto lines = make_lines<3>(x.shape, axis, ops);
  const int64_t n = x.shape[axis];
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t vs = want_values ? values.strides[axis] * static_cast<int64_t>(sizeof(T)) : 0;
  const int64_t is = want_indices ? indices.strides[axis] * 8 : 0;
  const char* xb = static_cast<const char*>(x.data());
  char* vb = want_values ? static_cast<char*>(values.data()) : nullptr;
  char* ib = want_indices ? static_cast<char*>(indices.data()) : nullptr;
  for_each_line(lines, n * 16, [&](int64_t, const int64_t (&off)[3]) {
    std::unique_ptr<C[]> v(new C[static_cast<size_t>(n)]);  // not vector<bool>
    std::vector<int64_t> order(static_cast<size_t>(n));
    const char* p = xb + off[0];
    for (int64_t i = 0; i < n; ++i) v[i] = convert<C>(*reinterpret_cast<const T*>(p + i * xs));
    std::iota(order.begin(), order.end(), int64_t{0});
    if (descending) {
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return less_nan_last(v[b], v[a]); });
    } else {
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return less_nan_last(v[a], v[b]); });
    }
    for (int64_t i = 0; i < n; ++i) {
      if (vb) *reinterpret_cast<T*>(vb + off[1] + i * vs) = convert<T>(v[order[i]]);
      if (ib) *reinterpret_cast<int64_t*>(ib + off[2] + i * is) = order[i];
    }
  });
}

}  // namespace

void CpuBackend::sort(const Array& values, const Array& indices, const Array& x, bool descending) {
  visit_dtype(x.dtype, [&](auto tag) { sort_typed<decltype(tag)>(values, indices, x, descending); });
}

}  // namespace keras::cpu
