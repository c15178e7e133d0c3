// The cuda backend's max and average pooling, forward and backward, with cpu's arithmetic
// (backends/cpu/src/pool.cpp): taps in row-major window order, padded positions skipped, NaN
// winning the max, the average the sum over the real taps divided by their count. The backward
// pass runs one thread per input element over the windows holding it (pool_geometry.h), in
// output order: max pooling gives a window's gradient to its first tap equal to the window's
// output (NaN matching NaN), average pooling dy * (1 / count) to every real tap.

#include <cmath>
#include <limits>

#include "element_access.cuh"
#include "kernels.h"
#include "launch.h"
#include "pool_geometry.h"
#include "stream.h"

namespace keras::cuda {
namespace {

template <typename C>
__device__ C lowest_value() {
  if constexpr (std::is_floating_point_v<C>)
    return -INFINITY;
  else
    return std::numeric_limits<C>::lowest();
}

// NaN wins and stays.
template <typename C>
__device__ C max_step(C acc, C v) {
  if constexpr (std::is_floating_point_v<C>)
    return (v > acc || v != v) ? v : acc;
  else
    return v > acc ? v : acc;
}

__device__ int64_t offset_of(const PoolStrides& s, int64_t n, int64_t c, const int64_t (&p)[3]) {
  return n * s.n + c * s.c + p[0] * s.s[0] + p[1] * s.s[1] + p[2] * s.s[2];
}

// The taps of window o inside the input, [t0, t1) along each axis.
__device__ void window_taps(const PoolGeometry& g, const int64_t (&o)[3], int64_t (&t0)[3],
                            int64_t (&t1)[3]) {
  for (int d = 0; d < 3; ++d)
    taps_inside(o[d], g.in[d], g.window[d], g.stride[d], g.pad[d], t0[d], t1[d]);
}

// The input position of tap (a, b, e) of window o.
__device__ void tap_position(const PoolGeometry& g, const int64_t (&o)[3], int64_t a, int64_t b,
                             int64_t e, int64_t (&at)[3]) {
  const int64_t t[3] = {a, b, e};
  for (int d = 0; d < 3; ++d) at[d] = o[d] * g.stride[d] - g.pad[d] + t[d];
}

// (n, p0, p1, p2, c) of flat index i over (n, extents, c), row-major.
__device__ void decode(int64_t i, const PoolGeometry& g, const int64_t (&extent)[3], int64_t& n,
                       int64_t (&p)[3], int64_t& c) {
  c = i % g.c;
  i /= g.c;
  for (int d = 2; d >= 0; --d) {
    p[d] = i % extent[d];
    i /= extent[d];
  }
  n = i;
}

template <typename C>
__global__ void pool_kernel(PoolGeometry g, Operand x, PoolStrides xs, Operand y, PoolStrides ys) {
  const int64_t total = g.n * g.out[0] * g.out[1] * g.out[2] * g.c;
  const int64_t xsize = element_bytes(x.dtype), ysize = element_bytes(y.dtype);
  KERAS_GRID_STRIDE(i, total) {
    int64_t n, c, o[3], t0[3], t1[3];
    decode(i, g, g.out, n, o, c);
    window_taps(g, o, t0, t1);
    C acc = g.is_max ? lowest_value<C>() : C(0);
    int64_t count = 0;
    for (int64_t a = t0[0]; a < t1[0]; ++a)
      for (int64_t b = t0[1]; b < t1[1]; ++b)
        for (int64_t e = t0[2]; e < t1[2]; ++e) {
          int64_t at[3];
          tap_position(g, o, a, b, e, at);
          const C v = load<C>(x.base + offset_of(xs, n, c, at) * xsize, x.dtype);
          acc = g.is_max ? max_step(acc, v) : static_cast<C>(acc + v);
          ++count;
        }
    if (!g.is_max && count > 0) acc = static_cast<C>(acc / static_cast<C>(count));
    store(y.base + offset_of(ys, n, c, o) * ysize, y.dtype, acc);
  }
}

template <typename C>
__global__ void pool_backward_kernel(PoolGeometry g, Operand dx, PoolStrides dxs, Operand dy,
                                     PoolStrides dys, Operand x, PoolStrides xs, Operand y,
                                     PoolStrides ys) {
  const int64_t total = g.n * g.in[0] * g.in[1] * g.in[2] * g.c;
  const int64_t xsize = element_bytes(x.dtype), ysize = element_bytes(y.dtype);
  const int64_t dysize = element_bytes(dy.dtype), dxsize = element_bytes(dx.dtype);
  KERAS_GRID_STRIDE(idx, total) {
    int64_t n, c, p[3], lo[3], hi[3];
    decode(idx, g, g.in, n, p, c);
    for (int d = 0; d < 3; ++d)
      windows_holding(p[d], g.out[d], g.window[d], g.stride[d], g.pad[d], lo[d], hi[d]);
    C grad = 0;
    for (int64_t o0 = lo[0]; o0 <= hi[0]; ++o0)
      for (int64_t o1 = lo[1]; o1 <= hi[1]; ++o1)
        for (int64_t o2 = lo[2]; o2 <= hi[2]; ++o2) {
          const int64_t o[3] = {o0, o1, o2};
          int64_t t0[3], t1[3];
          window_taps(g, o, t0, t1);
          const C gy = load<C>(dy.base + offset_of(dys, n, c, o) * dysize, dy.dtype);
          if (!g.is_max) {
            const int64_t count = (t1[0] - t0[0]) * (t1[1] - t0[1]) * (t1[2] - t0[2]);
            grad = static_cast<C>(grad + gy * (C(1) / static_cast<C>(count)));
            continue;
          }
          // Is this element the window's first tap equal to its maximum?
          const C peak = load<C>(y.base + offset_of(ys, n, c, o) * ysize, y.dtype);
          bool found = false, mine = false;
          for (int64_t a = t0[0]; a < t1[0] && !found; ++a)
            for (int64_t b = t0[1]; b < t1[1] && !found; ++b)
              for (int64_t e = t0[2]; e < t1[2] && !found; ++e) {
                int64_t at[3];
                tap_position(g, o, a, b, e, at);
                const C v = load<C>(x.base + offset_of(xs, n, c, at) * xsize, x.dtype);
                if (v == peak || (v != v && peak != peak)) {
                  found = true;
                  mine = at[0] == p[0] && at[1] == p[1] && at[2] == p[2];
                }
              }
          if (mine) grad = static_cast<C>(grad + gy);
        }
    store(dx.base + offset_of(dxs, n, c, p) * dxsize, dx.dtype, grad);
  }
}

}  // namespace

void launch_pool(const PoolGeometry& g, const Operand& x, const PoolStrides& xs, const Operand& y,
                 const PoolStrides& ys) {
  const int64_t blocks = blocks_for(g.n * g.out[0] * g.out[1] * g.out[2] * g.c);
  if (!blocks) return;
  if (x.dtype == DType::Bool || (!g.is_max && !is_float(x.dtype)))
    throw NotImplementedError(
        "cuda backend: average pooling of integers and pooling of bool "
        "(the front end casts them)");
  if (x.dtype == DType::Float64)
    pool_kernel<double><<<blocks, kThreads, 0, launch_stream()>>>(g, x, xs, y, ys);
  else if (is_float(x.dtype))
    pool_kernel<float><<<blocks, kThreads, 0, launch_stream()>>>(g, x, xs, y, ys);
  else
    pool_kernel<int64_t><<<blocks, kThreads, 0, launch_stream()>>>(g, x, xs, y, ys);
  check_launch("pool");
}

void launch_pool_backward(const PoolGeometry& g, const Operand& dx, const PoolStrides& dxs,
                          const Operand& dy, const PoolStrides& dys, const Operand& x,
                          const PoolStrides& xs, const Operand& y, const PoolStrides& ys) {
  const int64_t blocks = blocks_for(g.n * g.in[0] * g.in[1] * g.in[2] * g.c);
  if (!blocks) return;
  if (!is_float(dy.dtype))
    throw NotImplementedError("cuda backend: pool_backward of " +
                              std::string(dtype_name(dy.dtype)) + " (floating dtypes only)");
  if (dy.dtype == DType::Float64)
    pool_backward_kernel<double>
        <<<blocks, kThreads, 0, launch_stream()>>>(g, dx, dxs, dy, dys, x, xs, y, ys);
  else
    pool_backward_kernel<float>
        <<<blocks, kThreads, 0, launch_stream()>>>(g, dx, dxs, dy, dys, x, xs, y, ys);
  check_launch("pool_backward");
}

}  // namespace keras::cuda
