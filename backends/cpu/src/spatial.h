#pragma once
// Shared by the convolution and pooling kernels: the geometry of a sliding-window op over
// 1 to 3 spatial dimensions, normalized to 3 (missing leading dimensions have extent 1), and
// contiguous scratch arrays from the backend's caching allocator.

#include <cstdint>

#include "keras/backend/backend.h"

namespace keras::cpu {

/// Where the windows of an op fall and how its input is laid out (strides in elements).
struct WindowGeometry {
  int64_t n = 0, c = 0;  // batch and channels of the input
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t window[3] = {1, 1, 1}, stride[3] = {1, 1, 1}, dilation[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};  // padding before; padding after only shapes `out`
  int64_t xs_n = 0, xs_c = 0, xs[3] = {0, 0, 0};

  int64_t taps() const { return window[0] * window[1] * window[2]; }
  int64_t positions() const { return out[0] * out[1] * out[2]; }
};

/// Strides of a (N, *s, C) or (N, C, *s) array as (batch, channel, spatial x3) in elements.
struct LayoutStrides {
  int64_t n = 0, c = 0, s[3] = {0, 0, 0};
};

inline LayoutStrides layout_strides(const backend::Array& a, int spatial_dims, bool channels_last) {
  LayoutStrides l;
  const int r = a.rank(), lead = 3 - spatial_dims;
  l.n = a.strides[0];
  l.c = channels_last ? a.strides[r - 1] : a.strides[1];
  for (int i = 0; i < spatial_dims; ++i) l.s[lead + i] = a.strides[(channels_last ? 1 : 2) + i];
  return l;
}

/// The geometry of x under (window, stride, dilation, pad_before) with output `out`.
template <typename Spec>
WindowGeometry make_geometry(const backend::Array& x, const backend::Array& out, const Spec& window,
                             const Spec& stride, const Spec& dilation, const Spec& pad,
                             int spatial_dims, bool channels_last) {
  WindowGeometry g;
  const int r = x.rank(), lead = 3 - spatial_dims, first = channels_last ? 1 : 2;
  g.n = x.shape[0];
  g.c = channels_last ? x.shape[r - 1] : x.shape[1];
  for (int i = 0; i < spatial_dims; ++i) {
    g.in[lead + i] = x.shape[first + i];
    g.out[lead + i] = out.shape[first + i];
    g.window[lead + i] = window[i];
    g.stride[lead + i] = stride[i];
    g.dilation[lead + i] = dilation.empty() ? 1 : dilation[i];
    g.pad[lead + i] = pad[i];
  }
  LayoutStrides l = layout_strides(x, spatial_dims, channels_last);
  g.xs_n = l.n;
  g.xs_c = l.c;
  for (int i = 0; i < 3; ++i) g.xs[i] = l.s[i];
  return g;
}

/// Calls fn(tap, inside, i0, i1, i2) for every tap of the window at output position p (flat
/// over the 3 spatial dims): the tap's input coordinates, and whether they are inside the input
/// (false in the padding).
template <typename Fn>
inline void for_each_tap_index(const WindowGeometry& g, int64_t p, Fn fn) {
  const int64_t o2 = p % g.out[2], o1 = (p / g.out[2]) % g.out[1], o0 = p / (g.out[1] * g.out[2]);
  int64_t tap = 0;
  for (int64_t k0 = 0; k0 < g.window[0]; ++k0) {
    const int64_t i0 = o0 * g.stride[0] - g.pad[0] + k0 * g.dilation[0];
    const bool ok0 = i0 >= 0 && i0 < g.in[0];
    for (int64_t k1 = 0; k1 < g.window[1]; ++k1) {
      const int64_t i1 = o1 * g.stride[1] - g.pad[1] + k1 * g.dilation[1];
      const bool ok1 = ok0 && i1 >= 0 && i1 < g.in[1];
      for (int64_t k2 = 0; k2 < g.window[2]; ++k2, ++tap) {
        const int64_t i2 = o2 * g.stride[2] - g.pad[2] + k2 * g.dilation[2];
        fn(tap, ok1 && i2 >= 0 && i2 < g.in[2], i0, i1, i2);
      }
    }
  }
}

/// Calls fn(tap, offset) for every tap of the window at output position p, with offset the
/// tap's element offset in its image for the given spatial strides, or -1 in the padding.
template <typename Fn>
inline void for_each_tap(const WindowGeometry& g, int64_t p, const int64_t (&strides)[3], Fn fn) {
  for_each_tap_index(g, p, [&](int64_t tap, bool inside, int64_t i0, int64_t i1, int64_t i2) {
    fn(tap, inside ? i0 * strides[0] + i1 * strides[1] + i2 * strides[2] : int64_t{-1});
  });
}

/// Element offset of output position p (flat over the 3 spatial dims) for strides `l`.
inline int64_t position_offset(const WindowGeometry& g, int64_t p, const LayoutStrides& l) {
  const int64_t o2 = p % g.out[2], o1 = (p / g.out[2]) % g.out[1], o0 = p / (g.out[1] * g.out[2]);
  return o0 * l.s[0] + o1 * l.s[1] + o2 * l.s[2];
}

/// A contiguous array of `dtype` and `shape` in memory from `backend`'s allocator.
inline backend::Array scratch(backend::Backend& backend, DType dtype, const Shape& shape) {
  backend::Array a;
  a.dtype = dtype;
  a.shape = shape;
  a.strides = contiguous_strides(shape);
  a.storage = backend.allocate(a.nbytes());
  return a;
}

/// The same memory seen with another shape and strides (for copies between layouts).
inline backend::Array restride(const backend::Array& a, const Shape& shape,
                               const Strides& strides) {
  backend::Array v = a;
  v.shape = shape;
  v.strides = strides;
  return v;
}

/// Strides that lay a (N, *s, C) or (N, C, *s) shape out as rows (N * P, C): channels_last
/// order in memory, whatever the logical layout.
inline Strides rows_strides(const Shape& shape, bool channels_last) {
  if (channels_last) return contiguous_strides(shape);
  const int r = shape.rank();
  Strides s(static_cast<size_t>(r), 0);
  int64_t step = shape[1];
  s[1] = 1;
  for (int d = r - 1; d >= 2; --d) {
    s[d] = step;
    step *= shape[d];
  }
  s[0] = step;
  return s;
}

}  // namespace keras::cpu
