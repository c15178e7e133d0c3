#pragma once
// The cuda backend's kernels as plain C++ calls (defined in the .cu files): each takes the index
// space and the strided operands (device_layout.h), launches on the calling thread's stream
// (stream.h), and throws RuntimeError naming the kernel when the launch fails. cuda_backend.cpp
// turns Arrays into these arguments.

#include <cstddef>
#include <cstdint>
#include <functional>

#include "device_layout.h"
#include "keras/backend/primitives.h"
#include "pool_geometry.h"

namespace keras::cuda {

/// Every element of `out` set to the `itemsize` bytes at `value` (the value in out's dtype).
void launch_fill(const Dims& dims, const Operand& out, const unsigned char* value, int itemsize);
/// out[i] = start + i * step, contiguous, as cpu computes it for out's dtype.
void launch_arange(const Operand& out, int64_t n, double start, double step);
/// dst = convert(src) (or dst += src with `add`), with cpu's conversions.
void launch_copy(const Dims& dims, const Operand& dst, const Operand& src, bool add);
void launch_unary(backend::UnaryOp op, const Dims& dims, const Operand& out, const Operand& x,
                  double p0, double p1);
void launch_binary(backend::BinaryOp op, const Dims& dims, const Operand& out, const Operand& a,
                   const Operand& b);
void launch_where(const Dims& dims, const Operand& out, const Operand& cond, const Operand& a,
                  const Operand& b);
/// Device scratch memory of at least n bytes, valid until the calling primitive returns.
using Scratch = std::function<void*(size_t n)>;

/// One output per index of `kept` (out's and x's strides over those axes), reducing x over
/// `reduced` (x's strides over the reduced axes, in `x_reduced`); few long reductions in
/// chunks (launch.h's reduce_split), whose partials take scratch.
void launch_reduce(backend::ReduceOp op, const Dims& kept, const Operand& out, const Operand& x,
                   const Dims& reduced, const Operand& x_reduced, const Scratch& scratch);
/// Arg max/min along one axis of n elements `step` apart, one output per index of `lines`.
void launch_arg_reduce(bool is_max, const Dims& lines, const Operand& out, const Operand& x,
                       int64_t n, int64_t step);
/// Inclusive scans along one axis of n elements (out_step and x_step apart), one per index of
/// `lines`, accumulating as cpu does (float sums and products in double).
void launch_scan(backend::ScanOp op, const Dims& lines, const Operand& out, const Operand& x,
                 int64_t n, int64_t out_step, int64_t x_step);
/// out[i] = x at i with the gathered axis's position index[i] (x's stride along that axis is
/// `axis_stride`, and 0 in `x`).
void launch_gather(const Dims& dims, const Operand& out, const Operand& x, const Operand& index,
                   int64_t axis_stride);
/// Stable sorts of `lines` lines of n elements (x_step apart in x) into values and/or indices
/// (either may have a null base: not wanted), ascending with NaN last or descending with NaN
/// first, in cpu's order (backend::math::sort_key, ties by position); sort_kernels.cu. Long
/// lines take scratch for CUB's radix sort.
void launch_sort(const Dims& lines, const Operand& values, const Operand& indices, const Operand& x,
                 int64_t n, int64_t values_step, int64_t indices_step, int64_t x_step,
                 bool descending, const Scratch& scratch);
/// For every line of src (all axes but the scattered one) and j in [0, n), in order:
/// out[line, index[line, j]] op= src[line, j] (one thread per line, so repeated indices combine
/// in cpu's order).
void launch_scatter(backend::ScatterReduce reduce, const Dims& lines, const Operand& out,
                    const Operand& index, const Operand& src, int64_t n, int64_t out_step,
                    int64_t index_step, int64_t src_step);
/// A draw's Philox seed and counter: the values, or (a call recorded into a CUDA graph) two
/// words in device memory read when the kernel runs, the counter then advanced by `counter`.
struct DrawKey {
  uint64_t seed = 0, counter = 0;
  const uint64_t* on_device = nullptr;
};
/// Elements [0, n) of a Philox draw (keras/random/philox.h) into contiguous `out`.
void launch_random(backend::RandomKind kind, const Operand& out, int64_t n, const DrawKey& key);
/// out (batch, M, N) = a (batch, M, K) @ b (batch, K, N), all contiguous, for integer and bool
/// dtypes (wrapping, as cpu); float products go to cuBLAS.
void launch_matmul_integer(const Operand& out, const Operand& a, const Operand& b, int64_t batch,
                           int64_t m, int64_t n, int64_t k);

// ---- fused kernels (fused_kernels.cu) ----
/// out = activation(out + bias) in place over `dims`, bias broadcast by its strides (its base
/// null: no bias); float dtypes.
void launch_bias_activation(backend::Activation act, const Dims& dims, const Operand& out,
                            const Operand& bias);
/// dz = g * activation'(z), written with y = activation(z) (None, Relu, Sigmoid or Tanh).
void launch_activation_grad(backend::Activation act, const Dims& dims, const Operand& dz,
                            const Operand& y, const Operand& g);
/// softmax (log: log_softmax) of each line of n elements along an axis, `x_step` and
/// `out_step` apart; `lines` and the operands index the other axes.
void launch_softmax(const Dims& lines, const Operand& out, const Operand& x, int64_t n,
                    int64_t x_step, int64_t out_step, bool log);

struct ChainProgram;
/// Runs an elementwise chain's program (chain_program.h): one thread per flat index.
void launch_chain(const ChainProgram& program);

// ---- pooling (pool_kernels.cu) ----
/// y = max or average pooling of x (operands' bases, geometry and strides as pool_geometry.h).
void launch_pool(const PoolGeometry& g, const Operand& x, const PoolStrides& xs, const Operand& y,
                 const PoolStrides& ys);
/// dx = the gradient of that pooling for dy, from x and its output y; floating dtypes.
void launch_pool_backward(const PoolGeometry& g, const Operand& dx, const PoolStrides& dxs,
                          const Operand& dy, const PoolStrides& dys, const Operand& x,
                          const PoolStrides& xs, const Operand& y, const PoolStrides& ys);

}  // namespace keras::cuda
