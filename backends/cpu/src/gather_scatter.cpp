// gather (take_along_axis) and scatter with a reduction, along one axis.

#include <cstring>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"
#include "scalar_math.h"

namespace keras::cpu {
namespace {

template <typename I>
int64_t index_at(const char* p) {
  return static_cast<int64_t>(*reinterpret_cast<const I*>(p));
}

template <typename T, typename I>
void gather_typed(const Array& out, const Array& x, const Array& index, int axis) {
  const backend::Array* ops[3] = {&out, &x, &index};
  auto lines = make_lines<3>(out.shape, axis, ops);
  const int64_t n = out.shape[axis];
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t is = index.strides[axis] * static_cast<int64_t>(sizeof(I));
  char* ob = static_cast<char*>(out.data());
  const char* xb = static_cast<const char*>(x.data());
  const char* ib = static_cast<const char*>(index.data());
  for_each_line(lines, n, [&](int64_t, const int64_t (&off)[3]) {
    char* o = ob + off[0];
    const char* xl = xb + off[1];
    const char* il = ib + off[2];
    for (int64_t j = 0; j < n; ++j) {
      int64_t k = index_at<I>(il + j * is);
      std::memcpy(o + j * os, xl + k * xs, sizeof(T));
    }
  });
}

template <typename T, typename I>
void scatter_typed(const Array& out, const Array& index, const Array& src, int axis,
                   backend::ScatterReduce reduce) {
  using C = compute_t<T>;
  const backend::Array* ops[3] = {&src, &out, &index};
  auto lines = make_lines<3>(src.shape, axis, ops);
  const int64_t n = src.shape[axis];
  const int64_t ss = src.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t is = index.strides[axis] * static_cast<int64_t>(sizeof(I));
  const char* sb = static_cast<const char*>(src.data());
  char* ob = static_cast<char*>(out.data());
  const char* ib = static_cast<const char*>(index.data());
  // Lines never collide: they differ in an axis other than `axis`, which scatter keeps.
  for_each_line(lines, n, [&](int64_t, const int64_t (&off)[3]) {
    const char* s = sb + off[0];
    char* o = ob + off[1];
    const char* il = ib + off[2];
    for (int64_t j = 0; j < n; ++j) {
      T& dst = *reinterpret_cast<T*>(o + index_at<I>(il + j * is) * os);
      C v = convert<C>(*reinterpret_cast<const T*>(s + j * ss));
      C cur = convert<C>(dst);
      switch (reduce) {
        case backend::ScatterReduce::Assign: cur = v; break;
        case backend::ScatterReduce::Add:
          if constexpr (std::is_same_v<C, bool>) cur = cur || v;
          else cur = static_cast<C>(cur + v);
          break;
        case backend::ScatterReduce::Mul:
          if constexpr (std::is_same_v<C, bool>) cur = cur && v;
          else cur = static_cast<C>(cur * v);
          break;
        case backend::ScatterReduce::Max: cur = math::nan_max(cur, v); break;
        case backend::ScatterReduce::Min: cur = math::nan_min(cur, v); break;
        default: break;
      }
      dst = convert<T>(cur);
    }
  });
}

}  // namespace

void CpuBackend::gather(const Array& out, const Array& x, const Array& index, int axis) {
  visit_dtype(x.dtype, [&](auto tag) {
    using T = decltype(tag);
    if (index.dtype == DType::Int64) gather_typed<T, int64_t>(out, x, index, axis);
    else gather_typed<T, int32_t>(out, x, index, axis);
  });
}

void CpuBackend::scatter(const Array& out, const Array& index, const Array& src, int axis,
                         backend::ScatterReduce reduce) {
  visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    if (index.dtype == DType::Int64) scatter_typed<T, int64_t>(out, index, src, axis, reduce);
    else scatter_typed<T, int32_t>(out, index, src, axis, reduce);
  });
}

}  // namespace keras::cpu
