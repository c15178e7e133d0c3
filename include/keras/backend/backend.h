#pragma once
// The backend contract (DESIGN.md section 3): a small set of primitives every backend
// implements, and optional fused capabilities. The front end (keras::ops) resolves shapes,
// broadcasting, promotion and argument checks once, above this line.
//
// Conventions for every primitive:
// - `out` is allocated by the front end with the final shape and dtype; the primitive writes
//   every element of it. Inputs may have any strides, including 0 (broadcast) and negative.
// - Inputs of elementwise primitives already have the output's shape (broadcast by strides).
// - A primitive never allocates its result and never changes an input.
// - Errors a user can cause are caught above; a backend throws only NotImplementedError (a
//   capability it lacks) or runtime failures of its own (out of memory, a device error).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keras/backend/primitives.h"
#include "keras/backend/storage.h"
#include "keras/core/scalar.h"

#pragma GCC visibility push(default)
namespace keras::backend {

/// How a chain's array maps the chain's flat index i onto its elements, with the index split
/// into a row i / row_length and a column i % row_length (ElementwiseChain).
enum class ChainLayout : uint8_t {
  Dense,   // element i (contiguous)
  Scalar,  // one value for every i
  Row,     // element i / row_length: one value per row (a mean broadcast along the last axes)
  Column,  // element i % row_length: one row for every row (a bias broadcast over the batch)
};

/// A chain of elementwise primitives that a backend runs as one pass over memory
/// (Capability::Elementwise; the compiler's elementwise fusion hands these over). Registers
/// 0 .. num_arrays - 1 are the arrays passed with the chain, each read from its offset with
/// its `layouts` entry (shapes and strides are not used); registers from num_arrays on are
/// temporaries of dtype temp_dtypes[r - num_arrays] that exist only inside the chain. Every
/// step reads and writes at one flat index, and an array the chain writes is Dense and read
/// only through that same view, so running the chain block by block (blocks of whole rows)
/// gives what the steps give one after another over whole arrays, bit for bit.
struct ElementwiseChain {
  /// The steps, run in order at each flat index.
  std::vector<ElementwiseStep> steps;
  /// How each of the num_arrays arrays is indexed, one entry per array.
  std::vector<ChainLayout> layouts;  // per array
  /// The dtype of each temporary register, num_arrays on.
  std::vector<DType> temp_dtypes;
  /// The number of flat indices the chain runs over.
  int64_t numel = 0;
  /// The row length that Row and Column layouts split the flat index by.
  int64_t row_length = 1;  // divides numel; 1 when no array is Row or Column
  /// The number of arrays passed with the chain (registers 0 .. num_arrays - 1).
  int num_arrays = 0;
};

/// One compute backend: memory, primitives, and optional fused kernels.
class Backend {
 public:
  virtual ~Backend() = default;

  /// The registered name: "cpu", "torch", "stub", ...
  virtual std::string_view name() const = 0;
  /// The device the memory lives on, e.g. "cpu:0".
  virtual std::string device() const = 0;
  /// True when Storage::data() is a host address the front end may read directly.
  virtual bool is_host() const = 0;
  /// True for the symbolic backend (shapes and dtypes only): an op that mixes its tensors with
  /// others' gives a symbolic result instead of a backend-mismatch error.
  virtual bool is_symbolic() const { return false; }

  // ---- memory -------------------------------------------------------------------------------
  /// A new block of at least `nbytes`, aligned to 64 bytes.
  virtual Ref<Storage> allocate(size_t nbytes) = 0;
  /// Returns a block obtained from allocate() (called by ~Storage).
  virtual void deallocate(void* data, size_t nbytes) = 0;
  /// Copies `nbytes` from host memory into a storage at `byte_offset`.
  virtual void copy_from_host(Storage& dst, size_t byte_offset, const void* src,
                              size_t nbytes) = 0;
  /// Copies `nbytes` at `byte_offset` of a storage into host memory.
  virtual void copy_to_host(void* dst, const Storage& src, size_t byte_offset,
                            size_t nbytes) = 0;
  /// Waits for queued work (a no-op for synchronous backends).
  virtual void synchronize() {}

  // ---- primitives ---------------------------------------------------------------------------
  /// out[...] = value (converted to out's dtype).
  virtual void fill(const Array& out, const Scalar& value) = 0;
  /// out[i] = start + i * step over the flat index i (out is contiguous).
  virtual void arange(const Array& out, double start, double step) = 0;
  /// Counter-based random numbers: element i of the flat `out` is a pure function of
  /// (seed, counter, i), as keras/random/philox.h defines.
  virtual void random(const Array& out, RandomKind kind, uint64_t seed, uint64_t counter) = 0;
  /// dst = src (Assign) or dst += src (Add), converting dtype. Same shape; any strides. With
  /// Add, dst may overlap itself (the gradient of overlapping windows) and must be summed.
  virtual void copy(const Array& dst, const Array& src, CopyMode mode = CopyMode::Assign) = 0;
  /// out = op(x, p0, p1).
  virtual void unary(UnaryOp op, const Array& out, const Array& x, double p0 = 0,
                     double p1 = 0) = 0;
  /// out = op(a, b); a and b share one dtype.
  virtual void binary(BinaryOp op, const Array& out, const Array& a, const Array& b) = 0;
  /// out = cond ? a : b; cond is bool, a and b share out's dtype.
  virtual void where(const Array& out, const Array& cond, const Array& a, const Array& b) = 0;
  /// Reduces x over the axes flagged in `axes` (bit i = axis i). out has x's rank with the
  /// reduced axes of extent 1. A reduction over zero elements writes the op's identity
  /// (Max/Min: the front end rejects that case).
  virtual void reduce(ReduceOp op, const Array& out, const Array& x, uint64_t axes) = 0;
  /// Index of the max/min along `axis`; out (int32 or int64) has x's shape with axis extent 1.
  virtual void arg_reduce(ArgReduceOp op, const Array& out, const Array& x, int axis) = 0;
  /// Inclusive scan along `axis`; out has x's shape and dtype.
  virtual void scan(ScanOp op, const Array& out, const Array& x, int axis) = 0;
  /// Sorts along the last axis, ascending (NaN last) or descending (NaN first), stable.
  /// `values` and/or `indices` (int64) may be empty Arrays (no storage) when not wanted.
  virtual void sort(const Array& values, const Array& indices, const Array& x,
                    bool descending) = 0;
  /// out[..., j, ...] = x[..., index[..., j, ...], ...] along `axis` (take_along_axis).
  /// index (int32/int64) has out's shape; x has out's shape except along `axis`. Indices are
  /// in range (the front end checks).
  virtual void gather(const Array& out, const Array& x, const Array& index, int axis) = 0;
  /// For every element of src: out[..., index[...], ...] op= src[...] along `axis`
  /// (scatter_reduce). index has src's shape; out is updated in place.
  virtual void scatter(const Array& out, const Array& index, const Array& src, int axis,
                       ScatterReduce reduce) = 0;
  /// Batched matrix product: out (B..., M, N) = a (B..., M, K) @ b (B..., K, N). All three share
  /// one dtype; the batch axes of a and b are already broadcast to out's.
  virtual void matmul(const Array& out, const Array& a, const Array& b) = 0;

  // ---- optional fused capabilities ----------------------------------------------------------
  /// Whether the fused kernels of `cap` exist. The defaults below throw NotImplementedError.
  virtual bool supports(Capability cap) const;

  /// Cross-correlation as Keras's conv: out (N, *o, O) from x (N, *s, C) and kernel (*k, C/g, O).
  virtual void conv(const Array& out, const Array& x, const Array& kernel, const ConvSpec& spec);
  /// Gradient of conv with respect to x: dx from dy and kernel.
  virtual void conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                                   const ConvSpec& spec);
  /// Gradient of conv with respect to the kernel: dkernel from x and dy.
  virtual void conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                                    const ConvSpec& spec);
  /// Max or average pooling.
  virtual void pool(const Array& out, const Array& x, const PoolSpec& spec);
  /// Gradient of pool: dx from dy (and x, out for max pooling).
  virtual void pool_backward(const Array& dx, const Array& dy, const Array& x, const Array& out,
                             const PoolSpec& spec);
  /// softmax (or log_softmax when `log`) along `axis`.
  virtual void softmax(const Array& out, const Array& x, int axis, bool log);
  /// out (M, N) = activation(x (M, K) @ w (K, N) + bias (N)); bias may be empty.
  virtual void linear(const Array& out, const Array& x, const Array& w, const Array& bias,
                      Activation activation);
  /// out (M, N) int32 = a (M, K) int8 @ b (K, N) int8, exact (int32 accumulation; no
  /// saturation), all three contiguous: the product of a quantized Dense. (QuantizedMatmul)
  virtual void int8_matmul(const Array& out, const Array& a, const Array& b);
  /// Keras's abs_max_quantize along the last axis, in one pass per row: for each row i of x
  /// (M, K) float32, scale[i] (M) float32 = hi / (max_j |x[i, j]| + epsilon) and q[i, j] (int8)
  /// = clip(round_half_even(x[i, j] * scale[i]), lo, hi), the same float32 roundings as those
  /// ops (a NaN in a row makes its scale NaN). All contiguous. (QuantizedMatmul)
  virtual void quantize_rows_int8(const Array& q, const Array& scale, const Array& x, float lo,
                                  float hi, float epsilon);
  /// out (M, N) float32 = activation(float(a @ b) / (b_scale[j] * a_scale[i]) + bias[j]): the
  /// int8 product of a quantized Dense with Keras's dequantization (a float32 product of the
  /// two scales, then a division), bias and activation applied while the rows are in cache.
  /// a (M, K) and b (K, N) int8, a_scale (M) and b_scale (N) float32, bias (N) float32 or
  /// empty; all contiguous. (QuantizedMatmul)
  virtual void int8_linear(const Array& out, const Array& a, const Array& b,
                           const Array& a_scale, const Array& b_scale, const Array& bias,
                           Activation activation);
  /// out (M, N) float32 = x (M, K) float32 @ W: the product of a weight-only int4 Dense, its
  /// kernel packed two values per byte along N (packed (K, ceil(N / 2)) int8; column 2t in the
  /// low nibble of byte t, 2t + 1 in the high one, each signed by (v ^ 8) - 8, as Keras's
  /// unpack_int4). Per channel (zero empty): out[i, j] = (x[i] . q[:, j]) / scale[j], scale (N).
  /// Per group: W[r, j] = (q[r, j] - zero[g, j]) * scale[g, j] with g = g_idx[r], scale (G, N)
  /// float32, zero (G, N) int8, g_idx (K) float32 holding group numbers (an IndexError
  /// otherwise). All contiguous. (Int4Matmul)
  virtual void int4_matmul(const Array& out, const Array& x, const Array& packed,
                           const Array& scale, const Array& zero, const Array& g_idx);
  /// out = activation(conv(x, kernel) + bias (O)) with channels_last out (spec.channels_last):
  /// a convolution whose bias and activation are applied while each block of the output is
  /// still in cache. bias may be empty. (Epilogue)
  virtual void conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                                    const Array& bias, Activation activation,
                                    const ConvSpec& spec);
  /// The backward pass of a bias-and-activation epilogue (of linear or conv_bias_activation),
  /// from its output y = activation(z) and the incoming gradient g, both (..., O): writes
  /// dz = g * activation'(z) and, unless db is empty, db (O) = dz summed over every axis but
  /// the last. Activation is None, Relu, Sigmoid or Tanh (derivatives written with y), in the
  /// float dtype of y. (Epilogue)
  virtual void bias_activation_backward(const Array& dz, const Array& db, const Array& y,
                                        const Array& g, Activation activation);
  /// out (N, H / 2, W / 2, O) = 2x2 max pooling with stride 2 of z = activation(conv(x, kernel)
  /// + bias), a 2-d channels_last convolution (spec.channels_last) with output (N, H, W, O):
  /// MaxPooling2D() after Conv2D, without writing z (rows and columns of z under no window are
  /// not computed). argmax (uint8, out's shape) gets each window's first maximum (a NaN wins):
  /// 0, 1 in its top row, 2, 3 in its bottom row; an empty argmax (no storage: an inference
  /// step, where no gradient reads it) is not computed. bias may be empty. (ConvPool)
  virtual void conv_bias_activation_max_pool(const Array& out, const Array& argmax,
                                             const Array& x, const Array& kernel,
                                             const Array& bias, Activation activation,
                                             const ConvSpec& spec);
  /// The backward pass of conv_bias_activation_max_pool, from its inputs, its output y, argmax
  /// and the gradient g (N, H / 2, W / 2, O): with dz (N, H, W, O) = g * activation'(z) at each
  /// window's argmax and 0 everywhere else, writes each of these that is not empty: dx and
  /// dkernel, the convolution's gradients for dz, and db (O), dz summed over every axis but the
  /// last. Activation is None, Relu, Sigmoid or Tanh. (ConvPool)
  virtual void conv_bias_activation_max_pool_backward(const Array& dx, const Array& dkernel,
                                                      const Array& db, const Array& x,
                                                      const Array& kernel, const Array& y,
                                                      const Array& g, const Array& argmax,
                                                      Activation activation,
                                                      const ConvSpec& spec);

  /// Runs `chain` over `arrays` (num_arrays of them). (Elementwise)
  virtual void elementwise(const ElementwiseChain& chain, std::span<const Array> arrays);

  // Linear algebra over batches of matrices (the last two axes). Outputs are contiguous.
  /// Lower (or upper) Cholesky factor; returns false when a matrix is not positive definite.
  virtual bool cholesky(const Array& out, const Array& x, bool upper);
  /// LU with partial pivoting: lu (..., M, N), pivots (..., min(M, N)) int32 1-based as LAPACK.
  virtual void lu_factor(const Array& lu, const Array& pivots, const Array& x);
  /// Solves a @ out = b (left) or out @ a = b (!left) with triangular a.
  virtual void triangular_solve(const Array& out, const Array& a, const Array& b, bool lower,
                                bool left, bool transpose_a, bool unit_diagonal);
  /// Reduced (or complete) QR: q (..., M, K), r (..., K, N).
  virtual void qr(const Array& q, const Array& r, const Array& x, bool complete);
  /// SVD with singular values descending: u (..., M, K), s (..., K), vt (..., K, N);
  /// u and vt may be empty when only s is wanted.
  virtual void svd(const Array& u, const Array& s, const Array& vt, const Array& x,
                   bool full_matrices);
  /// Symmetric eigendecomposition: eigenvalues ascending (..., N), vectors (..., N, N).
  virtual void eigh(const Array& values, const Array& vectors, const Array& x, bool lower);
  /// General (non-symmetric) eigendecomposition of real or complex x (..., N, N), as LAPACK's
  /// geev: eigenvalues in LAPACK's order, values (..., N, 2), right eigenvectors of unit length
  /// with the largest component real, vectors (..., N, N, 2), both in x's real (part) dtype with
  /// (real, imaginary) in the last axis. vectors may be empty when only values are wanted.
  /// A matrix whose QR iteration fails gets NaN results, and the call returns false.
  virtual bool eig(const Array& values, const Array& vectors, const Array& x);

 protected:
  /// Throws NotImplementedError naming this backend and `what`.
  [[noreturn]] void unsupported(std::string_view what) const;
};

/// True when ops should call `backend`'s fused kernel for `cap`: the backend supports it and no
/// DecomposeScope is alive on this thread. Every op with a fused path asks this.
bool use_fused(const Backend& backend, Capability cap);

/// Makes ops on this thread run their decompositions instead of fused kernels while alive, so
/// tests and the conformance suite can check that both paths agree.
class DecomposeScope {
 public:
  DecomposeScope();
  ~DecomposeScope();
  DecomposeScope(const DecomposeScope&) = delete;
  DecomposeScope& operator=(const DecomposeScope&) = delete;

 private:
  bool previous_;
};

}  // namespace keras::backend

#pragma GCC visibility pop
