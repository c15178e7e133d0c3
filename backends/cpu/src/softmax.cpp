// Fused softmax / log_softmax along one axis: one pass for the max, one for the sum, one to
// write, instead of five separate primitives.

#include <cmath>
#include <vector>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"

namespace keras::cpu {
namespace {

template <typename T>
void softmax_typed(const Array& out, const Array& x, int axis, bool log) {
  using C = compute_t<T>;
  const backend::Array* ops[2] = {&x, &out};
  auto lines = make_lines<2>(x.shape, axis, ops);
  const int64_t n = x.shape[axis];
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const char* xb = static_cast<const char*>(x.data());
  char* ob = static_cast<char*>(out.data());
  for_each_line(lines, n * 4, [&](int64_t, const int64_t (&off)[2]) {
    const char* p = xb + off[0];
    char* q = ob + off[1];
    auto at = [&](int64_t i) { return convert<C>(*reinterpret_cast<const T*>(p + i * xs)); };
    C m = -INFINITY;
    for (int64_t i = 0; i < n; ++i) m = std::max(m, at(i));
    if (std::isinf(m) && m < 0) m = 0;  // all -inf: avoid inf - inf
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<double>(at(i) - m));
    if (log) {
      C lse = static_cast<C>(std::log(sum));
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<T*>(q + i * os) = convert<T>(static_cast<C>(at(i) - m - lse));
    } else {
      double inv = 1.0 / sum;
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<T*>(q + i * os) =
            convert<T>(static_cast<C>(std::exp(static_cast<double>(at(i) - m)) * inv));
    }
  });
}

}  // namespace

void CpuBackend::softmax(const Array& out, const Array& x, int axis, bool log) {
  visit_dtype(x.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_float_v<T>) {
      softmax_typed<T>(out, x, axis, log);
    } else {
      unsupported("softmax on integer tensors (the front end casts to float)");
    }
  });
}

}  // namespace keras::cpu
