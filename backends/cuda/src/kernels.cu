// The cuda backend's kernels: one thread per element (grid-stride loops) over strided operands,
// computing with the same element functions as cpu (src/backend/elementwise_math.h) and cpu's
// conversions between dtypes (backends/cpu/src/dtype_traits.h): float16 and bfloat16 in float,
// float64 in double, every integer dtype and bool in int64 (wrapping arithmetic truncated to the
// stored width gives what arithmetic in that width gives).

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "backend/elementwise_math.h"
#include "element_access.cuh"
#include "keras/core/errors.h"
#include "keras/random/philox.h"
#include "kernels.h"
#include "launch.h"
#include "stream.h"

namespace keras::cuda {
namespace {

using backend::BinaryOp;
using backend::ReduceOp;
using backend::UnaryOp;

// ---- fill, arange, copy ------------------------------------------------------------------------

struct FillValue {
  unsigned char bytes[8];
  int itemsize;
};

__global__ void fill_kernel(Dims dims, Operand out, FillValue v) {
  KERAS_GRID_STRIDE(i, dims.numel) {
    char* p = address(out, dims, i);
    for (int b = 0; b < v.itemsize; ++b) p[b] = static_cast<char>(v.bytes[b]);
  }
}

__global__ void arange_kernel(Operand out, int64_t n, double start, double step, bool integer) {
  KERAS_GRID_STRIDE(i, n) {
    char* p = out.base + i * element_bytes(out.dtype);
    if (integer)
      store<int64_t>(p, out.dtype, static_cast<int64_t>(start) + i * static_cast<int64_t>(step));
    else
      store<double>(p, out.dtype, start + static_cast<double>(i) * step);
  }
}

template <typename C>
__global__ void copy_kernel(Dims dims, Operand dst, Operand src) {
  KERAS_GRID_STRIDE(i, dims.numel) {
    store<C>(address(dst, dims, i), dst.dtype, load<C>(address(src, dims, i), src.dtype));
  }
}

// dst += src in the compute type of dst (float, double, wrapping int64; bool: or).
template <typename C>
__global__ void copy_add_kernel(Dims dims, Operand dst, Operand src) {
  KERAS_GRID_STRIDE(i, dims.numel) {
    char* o = address(dst, dims, i);
    const C a = load<C>(o, dst.dtype), b = load<C>(address(src, dims, i), src.dtype);
    if constexpr (std::is_same_v<C, int64_t>)
      store<int64_t>(o, dst.dtype, static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)));
    else if constexpr (std::is_same_v<C, bool>)
      store<bool>(o, dst.dtype, a || b);
    else
      store<C>(o, dst.dtype, static_cast<C>(a + b));
  }
}

// ---- unary and binary ------------------------------------------------------------------------

template <UnaryOp Op, typename C>
__global__ void unary_kernel(Dims dims, Operand out, Operand x, C a, C b) {
  KERAS_GRID_STRIDE(i, dims.numel) {
    const auto r = unary_value<Op, C>(load<C>(address(x, dims, i), x.dtype), a, b);
    store(address(out, dims, i), out.dtype, r);
  }
}

template <BinaryOp Op, typename C>
__global__ void binary_kernel(Dims dims, Operand out, Operand a, Operand b) {
  KERAS_GRID_STRIDE(i, dims.numel) {
    const auto r = binary_value<Op, C>(load<C>(address(a, dims, i), a.dtype),
                                       load<C>(address(b, dims, i), b.dtype));
    store(address(out, dims, i), out.dtype, r);
  }
}

__global__ void where_kernel(Dims dims, Operand out, Operand cond, Operand a, Operand b) {
  const int64_t n = element_bytes(out.dtype);
  KERAS_GRID_STRIDE(i, dims.numel) {
    const bool c = *reinterpret_cast<const bool*>(address(cond, dims, i));
    const char* from = c ? address(a, dims, i) : address(b, dims, i);
    char* to = address(out, dims, i);
    for (int64_t k = 0; k < n; ++k) to[k] = from[k];
  }
}

[[noreturn]] void undefined(std::string_view what, std::string_view op, DType t) {
  throw NotImplementedError("cuda backend: " + std::string(what) + " " + std::string(op) +
                            " is not defined for " + std::string(dtype_name(t)));
}

// ---- reductions --------------------------------------------------------------------------------

// cpu's accumulators (backends/cpu/src/reduce.cpp): float sums and products in double, Max/Min
// in the compute type with NaN winning, integers wrapping, Any/All in bool.
template <ReduceOp Op, typename C>
struct Reduction {
  using Acc = std::conditional_t<
      Op == ReduceOp::Any || Op == ReduceOp::All, bool,
      std::conditional_t<std::is_floating_point_v<C> &&
                             (Op == ReduceOp::Sum || Op == ReduceOp::Mean || Op == ReduceOp::Prod),
                         double, C>>;
  __device__ static Acc identity(int64_t lowest, int64_t highest) {
    if constexpr (Op == ReduceOp::Prod) return Acc(1);
    else if constexpr (Op == ReduceOp::All) return true;
    else if constexpr (Op == ReduceOp::Max) {
      if constexpr (std::is_floating_point_v<Acc>) return -INFINITY;
      else return static_cast<Acc>(lowest);
    } else if constexpr (Op == ReduceOp::Min) {
      if constexpr (std::is_floating_point_v<Acc>) return INFINITY;
      else return static_cast<Acc>(highest);
    } else {
      return Acc(0);
    }
  }
  __device__ static Acc step(Acc acc, C x) {
    if constexpr (Op == ReduceOp::Any) return acc || x != C(0);
    else if constexpr (Op == ReduceOp::All) return acc && x != C(0);
    else if constexpr (Op == ReduceOp::Max) return (x > acc || x != x) ? Acc(x) : acc;
    else if constexpr (Op == ReduceOp::Min) return (x < acc || x != x) ? Acc(x) : acc;
    else if constexpr (std::is_integral_v<Acc>) {
      const uint64_t a = static_cast<uint64_t>(acc), b = static_cast<uint64_t>(x);
      return static_cast<Acc>(Op == ReduceOp::Prod ? a * b : a + b);
    } else {
      return Op == ReduceOp::Prod ? acc * static_cast<Acc>(x) : acc + static_cast<Acc>(x);
    }
  }
  // Two partial accumulators (of consecutive chunks, first then second) as one.
  __device__ static Acc combine(Acc first, Acc second) {
    if constexpr (Op == ReduceOp::Any)
      return first || second;
    else if constexpr (Op == ReduceOp::All)
      return first && second;
    else if constexpr (Op == ReduceOp::Max || Op == ReduceOp::Min)
      return step(first, second);
    else if constexpr (std::is_integral_v<Acc>) {
      const uint64_t a = static_cast<uint64_t>(first), b = static_cast<uint64_t>(second);
      return static_cast<Acc>(Op == ReduceOp::Prod ? a * b : a + b);
    } else {
      return Op == ReduceOp::Prod ? first * second : first + second;
    }
  }
  // The output of a whole reduction of `count` elements.
  __device__ static void store_result(char* o, DType dtype, Acc acc, int64_t count) {
    if constexpr (Op == ReduceOp::Mean)
      store<double>(o, dtype, static_cast<double>(acc) / static_cast<double>(count));
    else
      store(o, dtype, acc);
  }
};

// The range of integer dtype t as int64 (the identities of Max and Min over no elements).
void integer_range(DType t, int64_t& lowest, int64_t& highest) {
  switch (t) {
    case DType::Bool: lowest = 0; highest = 1; return;
    case DType::Int8: lowest = INT8_MIN; highest = INT8_MAX; return;
    case DType::Int16: lowest = INT16_MIN; highest = INT16_MAX; return;
    case DType::Int32: lowest = INT32_MIN; highest = INT32_MAX; return;
    case DType::UInt8: lowest = 0; highest = UINT8_MAX; return;
    default: lowest = INT64_MIN; highest = INT64_MAX; return;
  }
}

template <ReduceOp Op, typename C>
__global__ void reduce_kernel(Dims kept, Operand out, Operand x, Dims reduced, Operand xr,
                              int64_t lowest, int64_t highest) {
  using R = Reduction<Op, C>;
  const int64_t xsize = element_bytes(x.dtype);
  KERAS_GRID_STRIDE(m, kept.numel) {
    const char* base = address(x, kept, m);
    typename R::Acc acc = R::identity(lowest, highest);
    for (int64_t r = 0; r < reduced.numel; ++r)
      acc = R::step(acc, load<C>(base + element_offset(reduced, xr, r) * xsize, x.dtype));
    R::store_result(address(out, kept, m), out.dtype, acc, reduced.numel);
  }
}

// Chunk blockIdx.y of every output (a thread per output, consecutive outputs in a block, so
// outputs that are neighbours in memory are read together): its partial accumulator.
template <ReduceOp Op, typename C>
__global__ void reduce_chunk_kernel(Dims kept, Operand x, Dims reduced, Operand xr, int64_t lowest,
                                    int64_t highest, int64_t chunk,
                                    typename Reduction<Op, C>::Acc* partial) {
  using R = Reduction<Op, C>;
  const int64_t m = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m >= kept.numel) return;
  const int64_t xsize = element_bytes(x.dtype);
  const char* base = address(x, kept, m);
  const int64_t begin = static_cast<int64_t>(blockIdx.y) * chunk;
  const int64_t end = begin + chunk < reduced.numel ? begin + chunk : reduced.numel;
  typename R::Acc acc = R::identity(lowest, highest);
  for (int64_t r = begin; r < end; ++r)
    acc = R::step(acc, load<C>(base + element_offset(reduced, xr, r) * xsize, x.dtype));
  partial[static_cast<int64_t>(blockIdx.y) * kept.numel + m] = acc;
}

// Each output's partials combined in chunk order.
template <ReduceOp Op, typename C>
__global__ void reduce_partials_kernel(Dims kept, Operand out, int64_t splits, int64_t count,
                                       const typename Reduction<Op, C>::Acc* partial) {
  using R = Reduction<Op, C>;
  KERAS_GRID_STRIDE(m, kept.numel) {
    typename R::Acc acc = partial[m];
    for (int64_t s = 1; s < splits; ++s) acc = R::combine(acc, partial[s * kept.numel + m]);
    R::store_result(address(out, kept, m), out.dtype, acc, count);
  }
}

template <typename C>
__global__ void arg_reduce_kernel(bool is_max, Dims lines, Operand out, Operand x, int64_t n,
                                  int64_t step) {
  const int64_t xsize = element_bytes(x.dtype);
  KERAS_GRID_STRIDE(l, lines.numel) {
    const char* p = address(x, lines, l);
    int64_t best = 0;
    C best_v = load<C>(p, x.dtype);
    if (best_v == best_v) {  // the first NaN wins, as in NumPy
      for (int64_t i = 1; i < n; ++i) {
        const C v = load<C>(p + i * step * xsize, x.dtype);
        if (v != v) {
          best = i;
          break;
        }
        if (is_max ? v > best_v : v < best_v) {
          best = i;
          best_v = v;
        }
      }
    }
    store<int64_t>(address(out, lines, l), out.dtype, best);
  }
}

// ---- scans and gathers --------------------------------------------------------------------------

template <backend::ScanOp Op, typename Acc>
__device__ Acc scan_step(Acc acc, Acc v) {
  using backend::ScanOp;
  if constexpr (Op == ScanOp::CumMax) return backend::math::nan_max(acc, v);
  else if constexpr (Op == ScanOp::CumMin) return backend::math::nan_min(acc, v);
  else if constexpr (std::is_integral_v<Acc>) {
    const uint64_t a = static_cast<uint64_t>(acc), b = static_cast<uint64_t>(v);
    return static_cast<Acc>(Op == ScanOp::CumProd ? a * b : a + b);
  } else {
    return Op == ScanOp::CumProd ? acc * v : acc + v;
  }
}

// Acc: double for float dtypes (cpu's scan_acc_t), int64 for the rest.
template <backend::ScanOp Op, typename Acc>
__global__ void scan_kernel(Dims lines, Operand out, Operand x, int64_t n, int64_t out_step,
                            int64_t x_step) {
  const int64_t xs = element_bytes(x.dtype), os = element_bytes(out.dtype);
  KERAS_GRID_STRIDE(l, lines.numel) {
    const char* p = address(x, lines, l);
    char* q = address(out, lines, l);
    Acc acc = load<Acc>(p, x.dtype);
    store<Acc>(q, out.dtype, acc);
    for (int64_t i = 1; i < n; ++i) {
      acc = scan_step<Op>(acc, load<Acc>(p + i * x_step * xs, x.dtype));
      store<Acc>(q + i * out_step * os, out.dtype, acc);
    }
  }
}

__global__ void gather_kernel(Dims dims, Operand out, Operand x, Operand index,
                              int64_t axis_stride) {
  const int64_t n = element_bytes(out.dtype);
  KERAS_GRID_STRIDE(i, dims.numel) {
    const int64_t at = load_int(address(index, dims, i), index.dtype);
    const char* from = x.base + (element_offset(dims, x, i) + at * axis_stride) * n;
    char* to = address(out, dims, i);
    for (int64_t k = 0; k < n; ++k) to[k] = from[k];
  }
}

// ---- scatter (sorts: sort_kernels.cu) -----------------------------------------------------------

template <typename C>
__global__ void scatter_kernel(backend::ScatterReduce reduce, Dims lines, Operand out,
                               Operand index, Operand src, int64_t n, int64_t out_step,
                               int64_t index_step, int64_t src_step) {
  using backend::ScatterReduce;
  const int64_t os = element_bytes(out.dtype), is = element_bytes(index.dtype),
                ss = element_bytes(src.dtype);
  KERAS_GRID_STRIDE(l, lines.numel) {
    char* o = address(out, lines, l);
    const char* il = address(index, lines, l);
    const char* sl = address(src, lines, l);
    for (int64_t j = 0; j < n; ++j) {
      char* dst = o + load_int(il + j * index_step * is, index.dtype) * out_step * os;
      const C v = load<C>(sl + j * src_step * ss, src.dtype);
      C cur = load<C>(dst, out.dtype);
      switch (reduce) {
        case ScatterReduce::Assign: cur = v; break;
        case ScatterReduce::Add:
          if constexpr (std::is_same_v<C, bool>) cur = cur || v;
          else cur = static_cast<C>(cur + v);
          break;
        case ScatterReduce::Mul:
          if constexpr (std::is_same_v<C, bool>) cur = cur && v;
          else cur = static_cast<C>(cur * v);
          break;
        case ScatterReduce::Max: cur = backend::math::nan_max(cur, v); break;
        case ScatterReduce::Min: cur = backend::math::nan_min(cur, v); break;
        default: break;
      }
      store<C>(dst, out.dtype, cur);
    }
  }
}

// ---- random ------------------------------------------------------------------------------------

namespace philox = keras::random::philox;

// The draw's seed and counter, read from device memory by a call recorded into a CUDA graph.
__device__ void resolve(const DrawKey& key, uint64_t& seed, uint64_t& counter) {
  seed = key.on_device ? key.on_device[0] : key.seed;
  counter = key.on_device ? key.on_device[1] + key.counter : key.counter;
}

// Box-Muller pairs: thread j writes elements 2j and 2j + 1.
template <typename T>
__global__ void normal_kernel(Operand out, int64_t n, DrawKey key) {
  uint64_t seed, counter;
  resolve(key, seed, counter);
  KERAS_GRID_STRIDE(j, (n + 1) / 2) {
    T z0, z1;
    philox::normal_pair<T>(seed, counter, static_cast<uint64_t>(j), z0, z1);
    const int64_t i = 2 * j;
    store<T>(out.base + i * element_bytes(out.dtype), out.dtype, z0);
    if (i + 1 < n) store<T>(out.base + (i + 1) * element_bytes(out.dtype), out.dtype, z1);
  }
}

// Bits, Uniform and TruncatedNormal: element i from its own words. float16 and bfloat16 take
// their uniforms from the top 11 or 8 bits of a word (philox.h); their other draws are the
// float32 ones rounded.
template <typename T>
__global__ void words_kernel(Operand out, int64_t n, philox::Kind kind, DrawKey key) {
  uint64_t seed, counter;
  resolve(key, seed, counter);
  KERAS_GRID_STRIDE(i, n) {
    char* p = out.base + i * element_bytes(out.dtype);
    philox::WordStream s(seed, counter, static_cast<uint64_t>(i) * philox::words_per_element<T>());
    if (kind == philox::Kind::Uniform && out.dtype == DType::Float16)
      store<float>(p, out.dtype, static_cast<float>(s.next() >> 21) * 0x1.0p-11f);
    else if (kind == philox::Kind::Uniform && out.dtype == DType::BFloat16)
      store<float>(p, out.dtype, static_cast<float>(s.next() >> 24) * 0x1.0p-8f);
    else
      store<T>(p, out.dtype, philox::from_words<T>(kind, s));
  }
}

// ---- integer matmul ----------------------------------------------------------------------------

__global__ void matmul_integer_kernel(Operand out, Operand a, Operand b, int64_t batch, int64_t m,
                                      int64_t n, int64_t k) {
  const int64_t as = element_bytes(a.dtype), bs = element_bytes(b.dtype),
                os = element_bytes(out.dtype);
  KERAS_GRID_STRIDE(e, batch * m * n) {
    const int64_t z = e / (m * n), i = (e / n) % m, j = e % n;
    uint64_t acc = 0;
    for (int64_t q = 0; q < k; ++q)
      acc += static_cast<uint64_t>(load_int(a.base + ((z * m + i) * k + q) * as, a.dtype)) *
             static_cast<uint64_t>(load_int(b.base + ((z * k + q) * n + j) * bs, b.dtype));
    store<int64_t>(out.base + e * os, out.dtype, static_cast<int64_t>(acc));
  }
}

}  // namespace

void launch_fill(const Dims& dims, const Operand& out, const unsigned char* value, int itemsize) {
  FillValue v{};
  for (int b = 0; b < itemsize; ++b) v.bytes[b] = value[b];
  v.itemsize = itemsize;
  if (const int64_t blocks = blocks_for(dims.numel)) {
    fill_kernel<<<blocks, kThreads, 0, launch_stream()>>>(dims, out, v);
    check_launch("fill");
  }
}

void launch_arange(const Operand& out, int64_t n, double start, double step) {
  if (const int64_t blocks = blocks_for(n)) {
    arange_kernel<<<blocks, kThreads, 0, launch_stream()>>>(out, n, start, step,
                                                            !is_float(out.dtype));
    check_launch("arange");
  }
}

void launch_copy(const Dims& dims, const Operand& dst, const Operand& src, bool add) {
  int64_t blocks = blocks_for(dims.numel);
  if (!blocks) return;
  // Summing into a destination that repeats an element (a broadcast axis) must not race.
  bool overlapping = false;
  for (int d = 0; d < dims.rank; ++d) overlapping |= dims.size[d] > 1 && dst.stride[d] == 0;
  const int threads = add && overlapping ? 1 : kThreads;
  if (add && overlapping) blocks = 1;
  if (!add) {
    // Floats travel as double (every float dtype's values are doubles exactly), the rest as
    // int64, so each conversion is cpu's one step.
    if (is_float(src.dtype))
      copy_kernel<double><<<blocks, threads, 0, launch_stream()>>>(dims, dst, src);
    else
      copy_kernel<int64_t><<<blocks, threads, 0, launch_stream()>>>(dims, dst, src);
  } else {
    with_compute_type(mode_of(dst.dtype), [&](auto c) {
      copy_add_kernel<decltype(c)><<<blocks, threads, 0, launch_stream()>>>(dims, dst, src);
    });
  }
  check_launch("copy");
}

void launch_unary(UnaryOp op, const Dims& dims, const Operand& out, const Operand& x, double p0,
                  double p1) {
  const Mode mode = mode_of(x.dtype);
  const bool defined = mode == Mode::Bool      ? backend::math::defined_for_bool(op)
                       : mode == Mode::Integer ? backend::math::defined_for_integers(op)
                                               : backend::math::defined_for_floats(op);
  if (!defined) undefined("unary", backend::name_of(op), x.dtype);
  const int64_t blocks = blocks_for(dims.numel);
  if (!blocks) return;
  with_compute_type(mode, [&](auto c) {
    using C = decltype(c);
    backend::math::visit(op, [&](auto tag) {
      constexpr UnaryOp kOp = decltype(tag)::value;
      if constexpr (std::is_same_v<C, bool>) {
        if constexpr (backend::math::defined_for_bool(kOp))
          unary_kernel<kOp, C>
              <<<blocks, kThreads, 0, launch_stream()>>>(dims, out, x, false, false);
      } else if constexpr (std::is_same_v<C, int64_t>) {
        if constexpr (backend::math::defined_for_integers(kOp))
          unary_kernel<kOp, C><<<blocks, kThreads, 0, launch_stream()>>>(
              dims, out, x, static_cast<C>(p0), static_cast<C>(p1));
      } else {
        if constexpr (backend::math::defined_for_floats(kOp))
          unary_kernel<kOp, C><<<blocks, kThreads, 0, launch_stream()>>>(
              dims, out, x, static_cast<C>(p0), static_cast<C>(p1));
      }
    });
  });
  check_launch("unary");
}

void launch_binary(BinaryOp op, const Dims& dims, const Operand& out, const Operand& a,
                   const Operand& b) {
  const Mode mode = mode_of(a.dtype);
  const bool defined = mode == Mode::Bool      ? backend::math::defined_for_bool(op)
                       : mode == Mode::Integer ? backend::math::defined_for_integers(op)
                                               : backend::math::defined_for_floats(op);
  if (!defined) undefined("binary", backend::name_of(op), a.dtype);
  // float16 and bfloat16 step by their own ulps in cpu's nextafter; not written here yet.
  if (op == BinaryOp::NextAfter && (a.dtype == DType::Float16 || a.dtype == DType::BFloat16))
    undefined("binary", backend::name_of(op), a.dtype);
  const int64_t blocks = blocks_for(dims.numel);
  if (!blocks) return;
  with_compute_type(mode, [&](auto c) {
    using C = decltype(c);
    backend::math::visit(op, [&](auto tag) {
      constexpr BinaryOp kOp = decltype(tag)::value;
      if constexpr (std::is_same_v<C, bool>) {
        if constexpr (backend::math::defined_for_bool(kOp))
          binary_kernel<kOp, C><<<blocks, kThreads, 0, launch_stream()>>>(dims, out, a, b);
      } else if constexpr (std::is_same_v<C, int64_t>) {
        if constexpr (backend::math::defined_for_integers(kOp))
          binary_kernel<kOp, C><<<blocks, kThreads, 0, launch_stream()>>>(dims, out, a, b);
      } else {
        if constexpr (backend::math::defined_for_floats(kOp))
          binary_kernel<kOp, C><<<blocks, kThreads, 0, launch_stream()>>>(dims, out, a, b);
      }
    });
  });
  check_launch("binary");
}

void launch_where(const Dims& dims, const Operand& out, const Operand& cond, const Operand& a,
                  const Operand& b) {
  if (const int64_t blocks = blocks_for(dims.numel)) {
    where_kernel<<<blocks, kThreads, 0, launch_stream()>>>(dims, out, cond, a, b);
    check_launch("where");
  }
}

// A reduction in chunks (reduce_split): the chunks' partials, then their combination.
template <ReduceOp Op, typename C>
void reduce_in_chunks(const Dims& kept, const Operand& out, const Operand& x, const Dims& reduced,
                      const Operand& xr, int64_t lowest, int64_t highest, const ReduceSplit& split,
                      const Scratch& scratch) {
  using Acc = typename Reduction<Op, C>::Acc;
  auto* partial = static_cast<Acc*>(scratch(sizeof(Acc) * kept.numel * split.splits));
  const dim3 grid(static_cast<unsigned>((kept.numel + kThreads - 1) / kThreads),
                  static_cast<unsigned>(split.splits));
  reduce_chunk_kernel<Op, C><<<grid, kThreads, 0, launch_stream()>>>(kept, x, reduced, xr, lowest,
                                                                     highest, split.chunk, partial);
  reduce_partials_kernel<Op, C><<<blocks_for(kept.numel), kThreads, 0, launch_stream()>>>(
      kept, out, split.splits, reduced.numel, partial);
}

// One reduction, in one pass or in chunks as reduce_split says.
template <ReduceOp Op, typename C>
void reduce_with(const Dims& kept, const Operand& out, const Operand& x, const Dims& reduced,
                 const Operand& xr, int64_t lowest, int64_t highest, const Scratch& scratch) {
  const ReduceSplit split = reduce_split(kept.numel, reduced.numel);
  if (split.splits > 1)
    return reduce_in_chunks<Op, C>(kept, out, x, reduced, xr, lowest, highest, split, scratch);
  reduce_kernel<Op, C><<<blocks_for(kept.numel), kThreads, 0, launch_stream()>>>(
      kept, out, x, reduced, xr, lowest, highest);
}

void launch_reduce(ReduceOp op, const Dims& kept, const Operand& out, const Operand& x,
                   const Dims& reduced, const Operand& x_reduced, const Scratch& scratch) {
  if (op == ReduceOp::Mean && !is_float(x.dtype))
    undefined("reduce", backend::name_of(op), x.dtype);  // the front end means in float
  if (kept.numel == 0) return;
  int64_t lowest = 0, highest = 0;
  integer_range(x.dtype, lowest, highest);
  const Mode mode = ordering_mode(x.dtype);
  with_compute_type(mode, [&](auto c) {
    using C = decltype(c);
    if constexpr (!std::is_same_v<C, bool>) {
      switch (op) {
#define KERAS_REDUCE_CASE(OP)                                                                 \
  case ReduceOp::OP:                                                                          \
    reduce_with<ReduceOp::OP, C>(kept, out, x, reduced, x_reduced, lowest, highest, scratch); \
    break;
        KERAS_REDUCE_CASE(Sum)
        KERAS_REDUCE_CASE(Mean)
        KERAS_REDUCE_CASE(Prod)
        KERAS_REDUCE_CASE(Max)
        KERAS_REDUCE_CASE(Min)
        KERAS_REDUCE_CASE(Any)
        KERAS_REDUCE_CASE(All)
#undef KERAS_REDUCE_CASE
        case ReduceOp::kCount: break;
      }
    }
  });
  check_launch("reduce");
}

void launch_arg_reduce(bool is_max, const Dims& lines, const Operand& out, const Operand& x,
                       int64_t n, int64_t step) {
  const int64_t blocks = blocks_for(lines.numel);
  if (!blocks || n == 0) return;
  const Mode mode = ordering_mode(x.dtype);
  with_compute_type(mode, [&](auto c) {
    using C = decltype(c);
    if constexpr (!std::is_same_v<C, bool>)
      arg_reduce_kernel<C>
          <<<blocks, kThreads, 0, launch_stream()>>>(is_max, lines, out, x, n, step);
  });
  check_launch("arg_reduce");
}

void launch_scan(backend::ScanOp op, const Dims& lines, const Operand& out, const Operand& x,
                 int64_t n, int64_t out_step, int64_t x_step) {
  const int64_t blocks = blocks_for(lines.numel);
  if (!blocks || n == 0) return;
  auto run = [&](auto acc) {
    using Acc = decltype(acc);
    using backend::ScanOp;
    switch (op) {
      case ScanOp::CumSum:
        scan_kernel<ScanOp::CumSum, Acc>
            <<<blocks, kThreads, 0, launch_stream()>>>(lines, out, x, n, out_step, x_step);
        break;
      case ScanOp::CumProd:
        scan_kernel<ScanOp::CumProd, Acc>
            <<<blocks, kThreads, 0, launch_stream()>>>(lines, out, x, n, out_step, x_step);
        break;
      case ScanOp::CumMax:
        scan_kernel<ScanOp::CumMax, Acc>
            <<<blocks, kThreads, 0, launch_stream()>>>(lines, out, x, n, out_step, x_step);
        break;
      case ScanOp::CumMin:
        scan_kernel<ScanOp::CumMin, Acc>
            <<<blocks, kThreads, 0, launch_stream()>>>(lines, out, x, n, out_step, x_step);
        break;
      case ScanOp::kCount: break;
    }
  };
  if (is_float(x.dtype)) run(double{});
  else run(int64_t{});
  check_launch("scan");
}

void launch_gather(const Dims& dims, const Operand& out, const Operand& x, const Operand& index,
                   int64_t axis_stride) {
  if (const int64_t blocks = blocks_for(dims.numel)) {
    gather_kernel<<<blocks, kThreads, 0, launch_stream()>>>(dims, out, x, index, axis_stride);
    check_launch("gather");
  }
}

void launch_scatter(backend::ScatterReduce reduce, const Dims& lines, const Operand& out,
                    const Operand& index, const Operand& src, int64_t n, int64_t out_step,
                    int64_t index_step, int64_t src_step) {
  const int64_t blocks = blocks_for(lines.numel);
  if (!blocks || n == 0) return;
  with_compute_type(mode_of(out.dtype), [&](auto c) {
    scatter_kernel<decltype(c)><<<blocks, kThreads, 0, launch_stream()>>>(
        reduce, lines, out, index, src, n, out_step, index_step, src_step);
  });
  check_launch("scatter");
}

void launch_random(backend::RandomKind kind, const Operand& out, int64_t n, const DrawKey& key) {
  const auto k = static_cast<philox::Kind>(kind);
  const bool half = out.dtype == DType::Float16 || out.dtype == DType::BFloat16;
  if (half && k == philox::Kind::Bits) undefined("random", "Bits", out.dtype);
  const int64_t work = k == philox::Kind::Normal ? (n + 1) / 2 : n;
  const int64_t blocks = blocks_for(work);
  if (!blocks) return;
  auto launch = [&](auto t) {
    using T = decltype(t);
    if (k == philox::Kind::Normal)
      normal_kernel<T><<<blocks, kThreads, 0, launch_stream()>>>(out, n, key);
    else
      words_kernel<T><<<blocks, kThreads, 0, launch_stream()>>>(out, n, k, key);
  };
  switch (out.dtype) {
    case DType::Float16: case DType::BFloat16: case DType::Float32: launch(float{}); break;
    case DType::Float64: launch(double{}); break;
    case DType::Bool: launch(bool{}); break;
    case DType::Int8: launch(int8_t{}); break;
    case DType::Int16: launch(int16_t{}); break;
    case DType::Int32: launch(int32_t{}); break;
    case DType::Int64: launch(int64_t{}); break;
    case DType::UInt8: launch(uint8_t{}); break;
  }
  check_launch("random");
}

void launch_matmul_integer(const Operand& out, const Operand& a, const Operand& b, int64_t batch,
                           int64_t m, int64_t n, int64_t k) {
  if (const int64_t blocks = blocks_for(batch * m * n)) {
    matmul_integer_kernel<<<blocks, kThreads, 0, launch_stream()>>>(out, a, b, batch, m, n, k);
    check_launch("matmul");
  }
}

}  // namespace keras::cuda
