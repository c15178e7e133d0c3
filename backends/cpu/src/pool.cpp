// Max and average pooling by direct loops. With channels innermost (channels_last) a task takes
// output positions and runs over the channels in the inner loop, which vectorizes; other
// layouts take one (image, channel) plane per task. The backward pass of max pooling finds each
// window's first maximum again by comparing the input with the forward output (no argmax is
// stored), then adds the gradient there. Backward tasks own whole images (or planes), so the
// overlapping windows of one image never race. float16/bfloat16 compute in float32.

#include <cstring>
#include <limits>
#include <vector>

#include "cpu_backend.h"
#include "dtype_traits.h"
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
  if constexpr (std::numeric_limits<C>::has_infinity) return -std::numeric_limits<C>::infinity();
  else return std::numeric_limits<C>::lowest();
}

// The max update: NaN wins and stays.
template <typename C>
inline C max_step(C acc, C v) {
  if constexpr (std::is_floating_point_v<C>) return (v > acc || v != v) ? v : acc;
  else return v > acc ? v : acc;
}

template <typename C>
inline bool same_value(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return a == b || (a != a && b != b);
  else return a == b;
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

// The operands of the backward pass; acc (type F, strides `as`) receives the gradient.
template <typename T, typename F>
struct Backward {
  WindowGeometry g;
  bool is_max;
  LayoutStrides dys, ys, as;
  const T* dy;
  const T* x;
  const T* y;
  F* acc;

  // Adds the gradient of window p for `channels` channels of the image (or plane) starting at
  // xn, dyn, yn and an; `found` (scratch, one flag per channel) marks maxima already met.
  void window(int64_t p, int64_t channels, const T* xn, const T* dyn, const T* yn, F* an,
              char* found) const {
    const T* d = dyn + position_offset(g, p, dys);
    if (!is_max) {
      int64_t count = 0;
      for_each_tap_index(g, p, [&](int64_t, bool inside, int64_t, int64_t, int64_t) { count += inside; });
      if (count == 0) return;
      const F scale = F(1) / static_cast<F>(count);
      for_each_tap(g, p, as.s, [&](int64_t, int64_t off) {
        if (off < 0) return;
        for (int64_t c = 0; c < channels; ++c) an[off + c * as.c] += convert<F>(d[c * dys.c]) * scale;
      });
      return;
    }
    const T* yv = yn + position_offset(g, p, ys);
    std::fill(found, found + channels, 0);
    int64_t left = channels;
    for_each_tap_index(g, p, [&](int64_t, bool inside, int64_t i0, int64_t i1, int64_t i2) {
      if (!inside || left == 0) return;
      const T* src = xn + i0 * g.xs[0] + i1 * g.xs[1] + i2 * g.xs[2];
      F* dst = an + i0 * as.s[0] + i1 * as.s[1] + i2 * as.s[2];
      for (int64_t c = 0; c < channels; ++c) {
        if (!found[c] && same_value(convert<F>(src[c * g.xs_c]), convert<F>(yv[c * ys.c]))) {
          found[c] = 1;
          --left;
          dst[c * as.c] += convert<F>(d[c * dys.c]);
        }
      }
    });
  }
};

template <typename T>
void backward(CpuBackend& be, const Array& dx, const Array& dy, const Array& x, const Array& y,
              const PoolSpec& s) {
  using F = compute_t<T>;
  const int d = s.spatial_dims;
  const bool direct = std::is_same_v<T, F> && dx.is_contiguous();
  Array acc = direct ? dx : scratch(be, std::is_same_v<F, double> ? DType::Float64 : DType::Float32, dx.shape);
  std::memset(acc.data(), 0, static_cast<size_t>(dx.numel()) * sizeof(F));
  Backward<T, F> b{pool_geometry(x, dy, s), s.kind == PoolKind::Max,
                   layout_strides(dy, d, s.channels_last), layout_strides(y, d, s.channels_last),
                   layout_strides(acc, d, s.channels_last), static_cast<const T*>(dy.data()),
                   static_cast<const T*>(x.data()), static_cast<const T*>(y.data()),
                   static_cast<F*>(acc.data())};
  const WindowGeometry& g = b.g;
  const int64_t positions = g.positions(), work = positions * g.taps();
  if (g.xs_c == 1) {
    parallel_for(g.n, grain_for(work * g.c), [&](int64_t lo, int64_t hi) {
      std::vector<char> found(static_cast<size_t>(g.c));
      for (int64_t n = lo; n < hi; ++n)
        for (int64_t p = 0; p < positions; ++p)
          b.window(p, g.c, b.x + n * g.xs_n, b.dy + n * b.dys.n, b.y + n * b.ys.n,
                   b.acc + n * b.as.n, found.data());
    });
  } else {
    parallel_for(g.n * g.c, grain_for(work), [&](int64_t lo, int64_t hi) {
      char found = 0;
      for (int64_t plane = lo; plane < hi; ++plane) {
        const int64_t n = plane / g.c, c = plane % g.c;
        for (int64_t p = 0; p < positions; ++p)
          b.window(p, 1, b.x + n * g.xs_n + c * g.xs_c, b.dy + n * b.dys.n + c * b.dys.c,
                   b.y + n * b.ys.n + c * b.ys.c, b.acc + n * b.as.n + c * b.as.c, &found);
      }
    });
  }
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
