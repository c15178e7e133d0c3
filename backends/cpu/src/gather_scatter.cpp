// gather (take_along_axis) and scatter with a reduction, along one axis.
//
// Two paths. The general one walks 1-d lines along the axis. The row path serves the common
// index_select pattern (take, embedding lookups and their gradients): the index is constant
// across every other axis and the axes after `axis` form one contiguous block in every
// operand, so each index moves a whole row with memcpy or a vectorizable loop.

#include <algorithm>
#include <cstring>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "lines.h"
#include "backend/scalar_math.h"

namespace keras::cpu {
namespace {

template <typename I>
int64_t index_at(const char* p) {
  return static_cast<int64_t>(*reinterpret_cast<const I*>(p));
}

// The row layout: `outer` positions (the axes before `axis`) times `n` index entries, each
// moving `inner` contiguous elements.
struct Rows {
  int64_t inner = 1;
  int outer_dims = 0;
  int64_t outer_size[kMaxLoopDims];
  int64_t outer_stride[3][kMaxLoopDims];  // bytes, per operand
  int64_t outer_count = 1;

  void offsets(int64_t o, int64_t (&off)[3], int operands) const {
    for (int k = 0; k < 3; ++k) off[k] = 0;
    for (int d = outer_dims - 1; d >= 0; --d) {
      int64_t i = o % outer_size[d];
      o /= outer_size[d];
      for (int k = 0; k < operands; ++k) off[k] += i * outer_stride[k][d];
    }
  }
};

// Whether the row path applies: `index` has stride 0 on every axis but `axis`, and the axes
// after `axis` are laid out contiguously (row-major) in each of `data`.
template <int N>
bool make_rows(const Shape& shape, int axis, const Array& index,
               const backend::Array* const (&data)[N], Rows& rows) {
  for (int d = 0; d < shape.rank(); ++d)
    if (d != axis && shape[d] != 1 && index.strides[d] != 0) return false;
  int64_t expected = 1;
  for (int d = shape.rank() - 1; d > axis; --d) {
    if (shape[d] == 1) continue;
    for (int k = 0; k < N; ++k)
      if (data[k]->strides[d] != expected) return false;
    expected *= shape[d];
  }
  rows.inner = expected;
  // Rows shorter than a few elements gain nothing over the line walk.
  if (rows.inner < 4) return false;
  for (int d = 0; d < axis; ++d) {
    if (shape[d] == 1) continue;
    if (rows.outer_dims == kMaxLoopDims) return false;
    rows.outer_size[rows.outer_dims] = shape[d];
    for (int k = 0; k < N; ++k)
      rows.outer_stride[k][rows.outer_dims] =
          data[k]->strides[d] * static_cast<int64_t>(itemsize(data[k]->dtype));
    rows.outer_count *= shape[d];
    ++rows.outer_dims;
  }
  return true;
}

template <typename T, typename I>
void gather_rows(const Array& out, const Array& x, const Array& index, int axis,
                 const Rows& rows) {
  const int64_t n = out.shape[axis];
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t xs = x.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t is = index.strides[axis] * static_cast<int64_t>(sizeof(I));
  const size_t row_bytes = static_cast<size_t>(rows.inner) * sizeof(T);
  char* ob = static_cast<char*>(out.data());
  const char* xb = static_cast<const char*>(x.data());
  const char* ib = static_cast<const char*>(index.data());
  // Every (outer, j) pair writes its own row: no two chunks touch the same memory.
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / rows.inner);
  parallel_for(rows.outer_count * n, grain, [&](int64_t b, int64_t e) {
    int64_t off[3];
    for (int64_t r = b; r < e; ++r) {
      const int64_t o = r / n, j = r % n;
      rows.offsets(o, off, 2);
      const int64_t k = index_at<I>(ib + j * is);
      std::memcpy(ob + off[0] + j * os, xb + off[1] + k * xs, row_bytes);
    }
  });
}

template <typename T>
void combine_row(T* dst, const T* src, int64_t count, backend::ScatterReduce reduce) {
  using C = compute_t<T>;
  switch (reduce) {
    case backend::ScatterReduce::Assign:
      std::memcpy(dst, src, static_cast<size_t>(count) * sizeof(T));
      break;
    case backend::ScatterReduce::Add:
      for (int64_t t = 0; t < count; ++t) {
        if constexpr (std::is_same_v<C, bool>) dst[t] = dst[t] || src[t];
        else dst[t] = convert<T>(static_cast<C>(convert<C>(dst[t]) + convert<C>(src[t])));
      }
      break;
    case backend::ScatterReduce::Mul:
      for (int64_t t = 0; t < count; ++t) {
        if constexpr (std::is_same_v<C, bool>) dst[t] = dst[t] && src[t];
        else dst[t] = convert<T>(static_cast<C>(convert<C>(dst[t]) * convert<C>(src[t])));
      }
      break;
    case backend::ScatterReduce::Max:
      for (int64_t t = 0; t < count; ++t)
        dst[t] = convert<T>(backend::math::nan_max(convert<C>(dst[t]), convert<C>(src[t])));
      break;
    case backend::ScatterReduce::Min:
      for (int64_t t = 0; t < count; ++t)
        dst[t] = convert<T>(backend::math::nan_min(convert<C>(dst[t]), convert<C>(src[t])));
      break;
    default:
      break;
  }
}

template <typename T, typename I>
void scatter_rows(const Array& out, const Array& index, const Array& src, int axis,
                  backend::ScatterReduce reduce, const Rows& rows) {
  const int64_t n = src.shape[axis];
  const int64_t ss = src.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t os = out.strides[axis] * static_cast<int64_t>(sizeof(T));
  const int64_t is = index.strides[axis] * static_cast<int64_t>(sizeof(I));
  const char* sb = static_cast<const char*>(src.data());
  char* ob = static_cast<char*>(out.data());
  const char* ib = static_cast<const char*>(index.data());
  // Entries j may repeat an index, so they run in order; the work splits over outer positions
  // and over column blocks of the rows instead, which never overlap.
  const int64_t block = std::max<int64_t>(
      1024, (rows.inner + static_cast<int64_t>(num_threads()) - 1) / num_threads());
  const int64_t blocks = (rows.inner + block - 1) / block;
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, n * block));
  parallel_for(rows.outer_count * blocks, grain, [&](int64_t b, int64_t e) {
    int64_t off[3];
    for (int64_t r = b; r < e; ++r) {
      const int64_t o = r / blocks, c0 = (r % blocks) * block;
      const int64_t count = std::min(block, rows.inner - c0);
      rows.offsets(o, off, 2);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t k = index_at<I>(ib + j * is);
        combine_row(reinterpret_cast<T*>(ob + off[1] + k * os) + c0,
                    reinterpret_cast<const T*>(sb + off[0] + j * ss) + c0, count, reduce);
      }
    }
  });
}

template <typename T, typename I>
void gather_typed(const Array& out, const Array& x, const Array& index, int axis) {
  const backend::Array* data[2] = {&out, &x};
  Rows rows;
  if (make_rows<2>(out.shape, axis, index, data, rows))
    return gather_rows<T, I>(out, x, index, axis, rows);
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
  const backend::Array* data[2] = {&src, &out};
  Rows rows;
  if (make_rows<2>(src.shape, axis, index, data, rows))
    return scatter_rows<T, I>(out, index, src, axis, reduce, rows);
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
        case backend::ScatterReduce::Max: cur = backend::math::nan_max(cur, v); break;
        case backend::ScatterReduce::Min: cur = backend::math::nan_min(cur, v); break;
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
