// Max and average pooling by direct loops. With channels innermost (channels_last) a task takes
// output positions and runs over the channels in the inner loop, which vectorizes; other
// layouts take one (image, channel) plane per task. The backward pass of max pooling finds each
// window's first maximum again by comparing the input with the forward output (no argmax is
// stored), then adds the gradient there. Backward tasks own whole images (or planes), so the
// overlapping windows of one image never race. float16/bfloat16 compute in float32.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "pool_2x2.h"
#include "spatial.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

using backend::PoolKind;
using backend::PoolSpec;

WindowGeometry pool_geometry(const Array& x, const Array& y, const PoolSpec& s) {
  return make_geometry(x, y, s.window, s.strides, SmallVector<int64_t, 3>{}, s.pad_before,
                       s.spatial_dims, s.channels_last);
}

template <typename C>
constexpr C lowest() {
  if constexpr (std::numeric_limits<C>::has_infinity)
    return -std::numeric_limits<C>::infinity();
  else
    return std::numeric_limits<C>::lowest();
}

// The max update: NaN wins and stays (bitwise operators keep the loops branch-free).
template <typename C>
inline C max_step(C acc, C v) {
  if constexpr (std::is_floating_point_v<C>)
    return ((v > acc) | (v != v)) ? v : acc;
  else
    return v > acc ? v : acc;
}

// One tap of max pooling's backward pass over `lanes` channels: the first tap equal to the
// window's maximum m (NaN matching NaN) takes the gradient g; `open` (all ones until then)
// clears once taken. Integer flags and selects let the compiler vectorize the loop.
template <typename T, typename F>
inline void take_first_max(const T* __restrict src, F* __restrict dst, const F* __restrict g,
                           const F* __restrict m, int32_t* __restrict open, int64_t lanes) {
  for (int64_t c = 0; c < lanes; ++c) {
    const F v = convert<F>(src[c]), peak = m[c], grad = g[c];
    const int32_t equal = (v == peak) | ((v != v) & (peak != peak));
    const int32_t take = equal & open[c];
    dst[c] += take ? grad : F(0);
    open[c] &= ~take;
  }
}

int64_t grain_for(int64_t work_per_item) {
  return std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(work_per_item, 1));
}

template <typename T>
void forward(const Array& out, const Array& x, const PoolSpec& s) {
  using C = compute_t<T>;
  const WindowGeometry g = pool_geometry(x, out, s);
  const LayoutStrides os = layout_strides(out, s.spatial_dims, s.channels_last);
  const T* xb = static_cast<const T*>(x.data());
  T* yb = static_cast<T*>(out.data());
  const bool is_max = s.kind == PoolKind::Max;
  if constexpr (std::is_same_v<T, float>) {
    if (is_max && s.channels_last && is_max_pool_2x2(g, x.is_contiguous(), out.is_contiguous())) {
      max_pool_2x2(g, xb, yb);
      return;
    }
  }
  const int64_t positions = g.positions();
  if (g.xs_c == 1) {
    parallel_for(g.n * positions, grain_for(g.taps() * g.c), [&](int64_t b, int64_t e) {
      std::vector<C> acc(static_cast<size_t>(g.c));
      for (int64_t r = b; r < e; ++r) {
        const int64_t n = r / positions, p = r % positions;
        const T* xn = xb + n * g.xs_n;
        std::fill(acc.begin(), acc.end(), is_max ? lowest<C>() : C(0));
        int64_t count = 0;
        for_each_tap(g, p, g.xs, [&](int64_t, int64_t off) {
          if (off < 0) return;
          ++count;
          const T* src = xn + off;
          if (is_max) {
            for (int64_t c = 0; c < g.c; ++c) acc[c] = max_step(acc[c], convert<C>(src[c]));
          } else {
            for (int64_t c = 0; c < g.c; ++c) acc[c] += convert<C>(src[c]);
          }
        });
        if (!is_max && count > 0)
          for (int64_t c = 0; c < g.c; ++c) acc[c] /= static_cast<C>(count);
        T* dst = yb + n * os.n + position_offset(g, p, os);
        for (int64_t c = 0; c < g.c; ++c) dst[c * os.c] = convert<T>(acc[c]);
      }
    });
    return;
  }
  parallel_for(g.n * g.c, grain_for(positions * g.taps()), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane) {
      const int64_t n = plane / g.c, c = plane % g.c;
      const T* xn = xb + n * g.xs_n + c * g.xs_c;
      T* yn = yb + n * os.n + c * os.c;
      for (int64_t p = 0; p < positions; ++p) {
        C acc = is_max ? lowest<C>() : C(0);
        int64_t count = 0;
        for_each_tap(g, p, g.xs, [&](int64_t, int64_t off) {
          if (off < 0) return;
          ++count;
          acc = is_max ? max_step(acc, convert<C>(xn[off])) : C(acc + convert<C>(xn[off]));
        });
        if (!is_max && count > 0) acc /= static_cast<C>(count);
        yn[position_offset(g, p, os)] = convert<T>(acc);
      }
    }
  });
}

// The backward pass into acc (type F, strides `as`).
template <typename T, typename F>
void backward_into(const WindowGeometry& g, bool is_max, const Array& dy, const Array& x,
                   const Array& y, F* acc, const LayoutStrides& as, int spatial_dims,
                   bool channels_last) {
  const LayoutStrides dys = layout_strides(dy, spatial_dims, channels_last);
  const LayoutStrides ys = layout_strides(y, spatial_dims, channels_last);
  const T* dyb = static_cast<const T*>(dy.data());
  const T* xb = static_cast<const T*>(x.data());
  const T* yb = static_cast<const T*>(y.data());
  const int64_t positions = g.positions(), work = positions * g.taps();
  // Channels innermost: a task per image, vectors of channels in the inner loops. Otherwise a
  // task per (image, channel) plane, with "vectors" of one channel.
  const bool vector = g.xs_c == 1 && as.c == 1;
  const int64_t lanes = vector ? g.c : 1;
  const int64_t tasks = vector ? g.n : g.n * g.c;
  parallel_for(tasks, grain_for(work * lanes), [&](int64_t lo, int64_t hi) {
    std::vector<F> grad(static_cast<size_t>(lanes)), peak(static_cast<size_t>(lanes));
    std::vector<int32_t> open(static_cast<size_t>(lanes));
    F* gv = grad.data();
    F* yv = peak.data();
    int32_t* ov = open.data();
    for (int64_t task = lo; task < hi; ++task) {
      const int64_t n = vector ? task : task / g.c, c0 = vector ? 0 : task % g.c;
      const T* xn = xb + n * g.xs_n + c0 * g.xs_c;
      const T* dyn = dyb + n * dys.n + c0 * dys.c;
      const T* yn = yb + n * ys.n + c0 * ys.c;
      F* an = acc + n * as.n + c0 * as.c;
      for (int64_t p = 0; p < positions; ++p) {
        const T* d = dyn + position_offset(g, p, dys);
        for (int64_t c = 0; c < lanes; ++c) gv[c] = convert<F>(d[c * dys.c]);
        if (!is_max) {
          int64_t count = 0;
          for_each_tap_index(g, p,
                             [&](int64_t, bool in, int64_t, int64_t, int64_t) { count += in; });
          if (count == 0) continue;
          const F scale = F(1) / static_cast<F>(count);
          for (int64_t c = 0; c < lanes; ++c) gv[c] *= scale;
          for_each_tap(g, p, as.s, [&](int64_t, int64_t off) {
            if (off < 0) return;
            F* dst = an + off;
            for (int64_t c = 0; c < lanes; ++c) dst[c] += gv[c];
          });
          continue;
        }
        const T* yp = yn + position_offset(g, p, ys);
        for (int64_t c = 0; c < lanes; ++c) {
          yv[c] = convert<F>(yp[c * ys.c]);
          ov[c] = 1;
        }
        for_each_tap_index(g, p, [&](int64_t, bool in, int64_t i0, int64_t i1, int64_t i2) {
          if (!in) return;
          take_first_max(xn + i0 * g.xs[0] + i1 * g.xs[1] + i2 * g.xs[2],
                         an + i0 * as.s[0] + i1 * as.s[1] + i2 * as.s[2], gv, yv, ov, lanes);
        });
      }
    }
  });
}

// Max pooling's backward pass when the windows tile the input (strides equal to the window,
// no padding; MaxPooling2D's default) with channels innermost everywhere: every input element
// belongs to at most one window, so each is written once (the first maximum takes the
// gradient, the other taps 0, the uncovered tails 0) instead of zeroing dx and adding. Same
// taps in the same order as backward_into, so the same results.
template <typename T>
bool max_backward_tiled(const WindowGeometry& g, const Array& dy, const Array& x, const Array& y,
                        T* dx, const LayoutStrides& as, int spatial_dims, bool channels_last) {
  const LayoutStrides dys = layout_strides(dy, spatial_dims, channels_last);
  const LayoutStrides ys = layout_strides(y, spatial_dims, channels_last);
  if (g.xs_c != 1 || as.c != 1 || dys.c != 1 || ys.c != 1 || as.s[2] != g.c) return false;
  for (int i = 0; i < 3; ++i)  // ("same" padding after the input is not a tiling either)
    if (g.stride[i] != g.window[i] || g.pad[i] != 0 || g.dilation[i] != 1 ||
        g.out[i] * g.window[i] > g.in[i])
      return false;
  const T* dyb = static_cast<const T*>(dy.data());
  const T* xb = static_cast<const T*>(x.data());
  const T* yb = static_cast<const T*>(y.data());
  const int64_t lanes = g.c, positions = g.positions();
  const int64_t cover[3] = {g.out[0] * g.window[0], g.out[1] * g.window[1],
                            g.out[2] * g.window[2]};
  parallel_for(g.n, grain_for(positions * g.taps() * lanes), [&](int64_t lo, int64_t hi) {
    std::vector<int32_t> open(static_cast<size_t>(lanes));
    int32_t* ov = open.data();
    for (int64_t n = lo; n < hi; ++n) {
      const T* xn = xb + n * g.xs_n;
      const T* dyn = dyb + n * dys.n;
      const T* yn = yb + n * ys.n;
      T* an = dx + n * as.n;
      // Input elements past the last whole window of a dimension get no gradient.
      for (int64_t i0 = 0; i0 < g.in[0]; ++i0)
        for (int64_t i1 = 0; i1 < g.in[1]; ++i1) {
          T* line = an + i0 * as.s[0] + i1 * as.s[1];
          const int64_t from = i0 < cover[0] && i1 < cover[1] ? cover[2] : 0;
          std::fill(line + from * lanes, line + g.in[2] * lanes, T(0));
        }
      for (int64_t p = 0; p < positions; ++p) {
        const T* gv = dyn + position_offset(g, p, dys);
        const T* pv = yn + position_offset(g, p, ys);
        for (int64_t c = 0; c < lanes; ++c) ov[c] = 1;
        for_each_tap_index(g, p, [&](int64_t, bool, int64_t i0, int64_t i1, int64_t i2) {
          const T* src = xn + i0 * g.xs[0] + i1 * g.xs[1] + i2 * g.xs[2];
          T* dst = an + i0 * as.s[0] + i1 * as.s[1] + i2 * as.s[2];
          for (int64_t c = 0; c < lanes; ++c) {
            const T v = src[c], peak = pv[c];
            const int32_t equal = (v == peak) | ((v != v) & (peak != peak));
            const int32_t take = equal & ov[c];
            const T grad = gv[c];
            dst[c] = take ? grad : T(0);
            ov[c] &= ~take;
          }
        });
      }
    }
  });
  return true;
}

template <typename T>
void backward(CpuBackend& be, const Array& dx, const Array& dy, const Array& x, const Array& y,
              const PoolSpec& s) {
  using F = compute_t<T>;
  const bool direct = std::is_same_v<T, F> && dx.is_contiguous();
  const WindowGeometry g = pool_geometry(x, dy, s);
  if constexpr (std::is_same_v<T, float>) {
    if (direct && s.kind == PoolKind::Max && s.channels_last && dy.is_contiguous() &&
        y.is_contiguous() && is_max_pool_2x2(g, x.is_contiguous(), true)) {
      max_pool_2x2_backward(g, static_cast<const float*>(x.data()),
                            static_cast<const float*>(y.data()),
                            static_cast<const float*>(dy.data()), static_cast<float*>(dx.data()));
      return;
    }
  }
  if constexpr (std::is_same_v<T, F>) {
    if (direct && s.kind == PoolKind::Max &&
        max_backward_tiled<T>(g, dy, x, y, static_cast<T*>(dx.data()),
                              layout_strides(dx, s.spatial_dims, s.channels_last),
                              s.spatial_dims, s.channels_last))
      return;
  }
  Array acc =
      direct ? dx
             : scratch(be, std::is_same_v<F, double> ? DType::Float64 : DType::Float32, dx.shape);
  std::memset(acc.data(), 0, static_cast<size_t>(dx.numel()) * sizeof(F));
  backward_into<T, F>(
      g, s.kind == PoolKind::Max, dy, x, y, static_cast<F*>(acc.data()),
      layout_strides(acc, s.spatial_dims, s.channels_last), s.spatial_dims, s.channels_last);
  if (!direct) be.copy(dx, acc, backend::CopyMode::Assign);
}

}  // namespace

void CpuBackend::pool(const Array& out, const Array& x, const PoolSpec& spec) {
  if (x.dtype == DType::Bool || (spec.kind == PoolKind::Average && !is_floating(x.dtype)))
    unsupported("average pooling of integers and pooling of bool (the front end casts)");
  visit_dtype(x.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) forward<T>(out, x, spec);
  });
}

void CpuBackend::pool_backward(const Array& dx, const Array& dy, const Array& x, const Array& out,
                               const PoolSpec& spec) {
  if (!is_floating(dy.dtype)) unsupported("pool_backward on integer tensors");
  visit_dtype(dy.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_float_v<T>) backward<T>(*this, dx, dy, x, out, spec);
  });
}

}  // namespace keras::cpu
