// Reductions over a set of axes. Floating sums accumulate in double, so a float32 sum over a
// million elements is as accurate as NumPy's pairwise sum or better.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "keras/core/errors.h"
#include "loops.h"
#include "backend/scalar_math.h"
#include "thread_pool.h"

namespace keras::cpu {
namespace {

using backend::ReduceOp;

struct DimSet {
  int n = 0;
  int64_t size[kMaxLoopDims];
  int64_t xs[kMaxLoopDims];  // byte strides in x
  int64_t os[kMaxLoopDims];  // byte strides in out (kept axes only)
  int64_t numel() const {
    int64_t p = 1;
    for (int i = 0; i < n; ++i) p *= size[i];
    return p;
  }
  // Byte offsets of flat index i (row-major over this set).
  void offsets(int64_t i, int64_t& x_off, int64_t& o_off) const {
    x_off = o_off = 0;
    for (int d = n - 1; d >= 0; --d) {
      int64_t k = i % size[d];
      i /= size[d];
      x_off += k * xs[d];
      o_off += k * os[d];
    }
  }
  void push(int64_t sz, int64_t x_stride, int64_t o_stride) {
    // Merge with the previous axis when they are contiguous with each other.
    if (n > 0 && xs[n - 1] == x_stride * sz && os[n - 1] == o_stride * sz) {
      size[n - 1] *= sz;
      xs[n - 1] = x_stride;
      os[n - 1] = o_stride;
      return;
    }
    size[n] = sz;
    xs[n] = x_stride;
    os[n] = o_stride;
    ++n;
  }
};

// Accumulator type and rules for each op.
template <typename T, ReduceOp Op>
struct Reducer {
  using C = compute_t<T>;
  static constexpr bool kFloat = is_float_v<T>;
  using Acc = std::conditional_t<
      (Op == ReduceOp::Sum || Op == ReduceOp::Mean || Op == ReduceOp::Prod) && kFloat, double,
      std::conditional_t<Op == ReduceOp::Any || Op == ReduceOp::All, bool, C>>;
  static Acc identity() {
    if constexpr (Op == ReduceOp::Prod) return Acc(1);
    if constexpr (Op == ReduceOp::All) return true;
    if constexpr (Op == ReduceOp::Max) {
      if constexpr (std::is_floating_point_v<Acc>) return -std::numeric_limits<Acc>::infinity();
      return std::numeric_limits<Acc>::lowest();
    }
    if constexpr (Op == ReduceOp::Min) {
      if constexpr (std::is_floating_point_v<Acc>) return std::numeric_limits<Acc>::infinity();
      return std::numeric_limits<Acc>::max();
    }
    return Acc(0);
  }
  static Acc step(Acc acc, T v) {
    C x = convert<C>(v);
    if constexpr (Op == ReduceOp::Any) return acc || x != C(0);
    if constexpr (Op == ReduceOp::All) return acc && x != C(0);
    // Max/Min as one select (NaN wins: x != x only for NaN, and a NaN acc is never replaced),
    // so the lanes vectorize.
    if constexpr (Op == ReduceOp::Max) return (x > acc || x != x) ? Acc(x) : acc;
    if constexpr (Op == ReduceOp::Min) return (x < acc || x != x) ? Acc(x) : acc;
    if constexpr (std::is_same_v<Acc, bool>) {  // bool sum/prod: or/and
      return Op == ReduceOp::Prod ? (acc && x) : (acc || x);
    } else if constexpr (std::is_integral_v<Acc>) {  // wrapping, as NumPy
      using U = std::make_unsigned_t<Acc>;
      if constexpr (Op == ReduceOp::Prod)
        return static_cast<Acc>(static_cast<U>(acc) * static_cast<U>(x));
      return static_cast<Acc>(static_cast<U>(acc) + static_cast<U>(x));
    } else {
      if constexpr (Op == ReduceOp::Prod) return acc * static_cast<Acc>(x);
      return acc + static_cast<Acc>(x);
    }
  }
  // Merges two partial results (of independent accumulators or of chunks).
  static Acc combine(Acc a, Acc b) {
    if constexpr (Op == ReduceOp::Any) return a || b;
    if constexpr (Op == ReduceOp::All) return a && b;
    if constexpr (Op == ReduceOp::Max) return backend::math::nan_max<Acc>(a, b);
    if constexpr (Op == ReduceOp::Min) return backend::math::nan_min<Acc>(a, b);
    if constexpr (std::is_same_v<Acc, bool>) {
      return Op == ReduceOp::Prod ? (a && b) : (a || b);
    } else if constexpr (std::is_integral_v<Acc>) {
      using U = std::make_unsigned_t<Acc>;
      if constexpr (Op == ReduceOp::Prod)
        return static_cast<Acc>(static_cast<U>(a) * static_cast<U>(b));
      return static_cast<Acc>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      if constexpr (Op == ReduceOp::Prod) return a * b;
      return a + b;
    }
  }
  // Reduces a run of n elements `stride` bytes apart. A contiguous run uses independent
  // accumulators, which the compiler vectorizes (a single one is a serial dependency chain).
  static Acc run(const char* p, int64_t n, int64_t stride) {
    Acc acc = identity();
    if (stride != static_cast<int64_t>(sizeof(T))) {
      for (int64_t i = 0; i < n; ++i) acc = step(acc, *reinterpret_cast<const T*>(p + i * stride));
      return acc;
    }
    constexpr int kLanes = 8;
    const T* v = reinterpret_cast<const T*>(p);
    if constexpr ((Op == ReduceOp::Max || Op == ReduceOp::Min) && std::is_floating_point_v<Acc>) {
      // Plain compare-and-select lanes (maxps/minps) that remember any NaN seen: the
      // NaN-propagating select does not vectorize.
      Acc lane[kLanes], nan[kLanes];
      for (int k = 0; k < kLanes; ++k) lane[k] = nan[k] = identity();
      int64_t i = 0;
      for (; i + kLanes <= n; i += kLanes)
        for (int k = 0; k < kLanes; ++k) {
          const Acc x = static_cast<Acc>(convert<C>(v[i + k]));
          if constexpr (Op == ReduceOp::Max)
            lane[k] = lane[k] > x ? lane[k] : x;
          else
            lane[k] = lane[k] < x ? lane[k] : x;
          nan[k] = x != x ? x : nan[k];
        }
      for (; i < n; ++i) acc = step(acc, v[i]);
      for (int k = 0; k < kLanes; ++k) acc = combine(combine(acc, nan[k]), lane[k]);
      return acc;
    }
    Acc lane[kLanes];
    for (auto& a : lane) a = identity();
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (int k = 0; k < kLanes; ++k) lane[k] = step(lane[k], v[i + k]);
    for (; i < n; ++i) acc = step(acc, v[i]);
    for (auto a : lane) acc = combine(acc, a);
    return acc;
  }
  template <typename O>
  static O finish(Acc acc, int64_t count) {
    if constexpr (Op == ReduceOp::Mean) {
      return convert<O>(static_cast<double>(acc) / static_cast<double>(count));
    } else {
      return convert<O>(acc);
    }
  }
};

template <typename T, typename O, ReduceOp Op>
void reduce_typed(const Array& out, const Array& x, uint64_t axes) {
  using R = Reducer<T, Op>;
  using Acc = typename R::Acc;
  DimSet kept, red;
  const int64_t xi = static_cast<int64_t>(sizeof(T)), oi = static_cast<int64_t>(sizeof(O));
  int innermost = -1;
  for (int d = 0; d < x.rank(); ++d) {
    if (x.shape[d] == 1) continue;
    innermost = d;
    if (axes >> d & 1) {
      red.push(x.shape[d], x.strides[d] * xi, 0);
    } else {
      kept.push(x.shape[d], x.strides[d] * xi, out.strides[d] * oi);
    }
  }
  const char* xb = static_cast<const char*>(x.data());
  char* ob = static_cast<char*>(out.data());
  const int64_t M = kept.numel(), L = red.numel();
  if (M == 0) return;

  bool inner_kept = innermost >= 0 && !(axes >> innermost & 1) && red.n > 0;
  if (!inner_kept && red.n == 1 && M < num_threads() && L >= 4 * kElementwiseGrain) {
    // Few outputs over one long run each (a full reduction): split every run over the pool.
    const int64_t chunks = std::min<int64_t>(4 * num_threads(), L / kElementwiseGrain);
    const int64_t per = (L + chunks - 1) / chunks;
    std::vector<Acc> partial(static_cast<size_t>(chunks));
    for (int64_t m = 0; m < M; ++m) {
      int64_t x_off, o_off;
      kept.offsets(m, x_off, o_off);
      parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) {
          const int64_t begin = c * per, len = std::max<int64_t>(0, std::min(per, L - begin));
          partial[c] = R::run(xb + x_off + begin * red.xs[0], len, red.xs[0]);
        }
      });
      Acc acc = R::identity();
      for (Acc a : partial) acc = R::combine(acc, a);
      *reinterpret_cast<O*>(ob + o_off) = R::template finish<O>(acc, L);
    }
    return;
  }
  if (!inner_kept) {
    // Each output reduces its own set of inputs.
    const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(L, 1));
    parallel_for(M, grain, [&](int64_t b, int64_t e) {
      int64_t idx[kMaxLoopDims];
      for (int64_t m = b; m < e; ++m) {
        int64_t x_off, o_off;
        kept.offsets(m, x_off, o_off);
        Acc acc = R::identity();
        if (L > 0) {
          // Odometer over the reduced axes; the innermost one is a tight loop.
          std::fill(idx, idx + red.n, 0);
          const int last = red.n - 1;
          const char* p = xb + x_off;
          const int64_t run = last >= 0 ? red.size[last] : 1, rs = last >= 0 ? red.xs[last] : 0;
          for (;;) {
            acc = R::combine(acc, R::run(p, run, rs));
            int d = last - 1;
            for (; d >= 0; --d) {
              p += red.xs[d];
              if (++idx[d] < red.size[d]) break;
              p -= red.xs[d] * red.size[d];
              idx[d] = 0;
            }
            if (d < 0) break;
          }
        }
        *reinterpret_cast<O*>(ob + o_off) = R::template finish<O>(acc, L);
      }
    });
    return;
  }

  // The innermost axis is kept: accumulate whole rows of outputs at once (vectorizes).
  const int ki = kept.n - 1;
  const int64_t J = kept.size[ki], xsJ = kept.xs[ki], osJ = kept.os[ki];
  const int64_t outer = M / J;
  constexpr int64_t kChunk = 512;
  const int64_t chunks_per_row = (J + kChunk - 1) / kChunk;
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(L * kChunk, 1));
  DimSet outer_kept = kept;
  outer_kept.n = ki;
  parallel_for(outer * chunks_per_row, grain, [&](int64_t b, int64_t e) {
    Acc acc[kChunk];
    int64_t idx[kMaxLoopDims];
    for (int64_t w = b; w < e; ++w) {
      int64_t row = w / chunks_per_row, j0 = (w % chunks_per_row) * kChunk;
      int64_t len = std::min(kChunk, J - j0);
      int64_t x_off, o_off;
      outer_kept.offsets(row, x_off, o_off);
      x_off += j0 * xsJ;
      o_off += j0 * osJ;
      std::fill(acc, acc + len, R::identity());
      std::fill(idx, idx + red.n, 0);
      const char* p = xb + x_off;
      for (int64_t r = 0; r < L; ++r) {
        if (xsJ == xi) {
          const T* v = reinterpret_cast<const T*>(p);
          for (int64_t j = 0; j < len; ++j) acc[j] = R::step(acc[j], v[j]);
        } else {
          for (int64_t j = 0; j < len; ++j)
            acc[j] = R::step(acc[j], *reinterpret_cast<const T*>(p + j * xsJ));
        }
        for (int d = red.n - 1; d >= 0; --d) {
          p += red.xs[d];
          if (++idx[d] < red.size[d]) break;
          p -= red.xs[d] * red.size[d];
          idx[d] = 0;
        }
      }
      for (int64_t j = 0; j < len; ++j)
        *reinterpret_cast<O*>(ob + o_off + j * osJ) = R::template finish<O>(acc[j], L);
    }
  });
}

template <typename T, typename O>
void reduce_dispatch(ReduceOp op, const Array& out, const Array& x, uint64_t axes) {
  switch (op) {
    case ReduceOp::Sum:
      return reduce_typed<T, O, ReduceOp::Sum>(out, x, axes);
    case ReduceOp::Mean:
      return reduce_typed<T, O, ReduceOp::Mean>(out, x, axes);
    case ReduceOp::Prod:
      return reduce_typed<T, O, ReduceOp::Prod>(out, x, axes);
    case ReduceOp::Max:
      return reduce_typed<T, O, ReduceOp::Max>(out, x, axes);
    case ReduceOp::Min:
      return reduce_typed<T, O, ReduceOp::Min>(out, x, axes);
    default:
      break;
  }
}

}  // namespace

void CpuBackend::reduce(ReduceOp op, const Array& out, const Array& x, uint64_t axes) {
  visit_dtype(x.dtype, [&](auto tag) {
    using T = decltype(tag);
    if (op == ReduceOp::Any) return reduce_typed<T, bool, ReduceOp::Any>(out, x, axes);
    if (op == ReduceOp::All) return reduce_typed<T, bool, ReduceOp::All>(out, x, axes);
    if (op == ReduceOp::Mean && !is_float_v<T>)
      throw NotImplementedError("cpu backend: mean of integers is computed in float above");
    reduce_dispatch<T, T>(op, out, x, axes);
  });
}

}  // namespace keras::cpu
