// The cuda backend: storage in device memory (a caching allocator over cudaMalloc), every
// primitive of the contract as a kernel (kernels.cu) or cuBLAS (float matmul), on the default
// stream of its device. Host reads copy back with cudaMemcpy, which waits for the kernels before
// it. Of the fused capabilities, convolutions run through cuDNN when it was found at build time
// (cudnn_conv.h); the front end runs the others' decompositions.
//
// Linking keras_cuda registers "cuda" when the machine has a CUDA device; elsewhere the name is
// absent and programs run on the other backends.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "caching_allocator.h"
#include "chain_program.h"
#include "cuda_device.h"
#include "gemm_layout.h"
#ifdef KERAS_CUDA_WITH_CUDNN
#include "conv_geometry.h"
#include "cudnn_conv.h"
#endif
#include "keras/backend/backend.h"
#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/core/half.h"
#include "keras/cuda/memory.h"
#include "kernels.h"

namespace keras::cuda {
namespace {

using backend::Array;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw RuntimeError(std::string("cuda backend: ") + what + ": " + cudaGetErrorString(e));
}

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw RuntimeError(std::string("cuda backend: ") + what + ": cuBLAS status " +
                       std::to_string(static_cast<int>(s)));
}

Dims dims_of(const Shape& shape) {
  if (shape.rank() > kMaxDims)
    throw NotImplementedError("cuda backend: arrays of rank " + std::to_string(shape.rank()) +
                              " (at most " + std::to_string(kMaxDims) + ")");
  Dims d;
  d.rank = shape.rank();
  for (int i = 0; i < d.rank; ++i) {
    d.size[i] = shape[i];
    d.numel *= shape[i];
  }
  return d;
}

// An Array as a kernel operand: its first element's device address and its strides.
Operand operand(const Array& a) {
  Operand op;
  if (a.storage)  // (an empty Array has none)
    op.base = static_cast<char*>(a.storage->data()) +
              a.offset * static_cast<int64_t>(itemsize(a.dtype));
  op.dtype = a.dtype;
  for (int i = 0; i < a.rank(); ++i) op.stride[i] = a.strides[i];
  return op;
}

// The axes of `shape` but `axis` as a kernel's index space (the lines along `axis`).
Dims dims_without(const Shape& shape, int axis) {
  Dims d;
  for (int i = 0; i < shape.rank(); ++i) {
    if (i == axis) continue;
    d.size[d.rank++] = shape[i];
    d.numel *= shape[i];
  }
  return d;
}

// `a` as an operand over the same axes (its strides but along `axis`).
Operand operand_without(const Array& a, int axis) {
  Operand op = operand(a);
  int k = 0;
  for (int i = 0; i < a.rank(); ++i)
    if (i != axis) op.stride[k++] = a.strides[i];
  return op;
}

// The bytes of `value` in `dtype`, as the cpu backend's fill writes them.
void scalar_bytes(const Scalar& value, DType dtype, unsigned char* out) {
  auto put = [&](auto v) { std::memcpy(out, &v, sizeof(v)); };
  switch (dtype) {
    case DType::Bool: return put(value.to<bool>());
    case DType::Int8: return put(value.to<int8_t>());
    case DType::Int16: return put(value.to<int16_t>());
    case DType::Int32: return put(value.to<int32_t>());
    case DType::Int64: return put(value.to<int64_t>());
    case DType::UInt8: return put(value.to<uint8_t>());
    case DType::Float16: return put(value.to<float16_t>());
    case DType::BFloat16: return put(value.to<bfloat16_t>());
    case DType::Float32: return put(value.to<float>());
    case DType::Float64: return put(value.to<double>());
    case DType::Complex64:
    case DType::Complex128:
      keras::detail::throw_complex_not_supported(dtype);  // kernels see real views only
    case DType::String:
      keras::detail::throw_string_not_supported();  // strings live on their own host backend
  }
}

// c (batch, M, N) packed = a (batch, M, K) @ b (batch, K, N), each operand as cuBLAS reads it
// in place (gemm_layout.h): cuBLAS's S/DGEMM in plain FP32/FP64 math.
template <typename T>
void strided_batched_gemm(cublasHandle_t handle, const GemmMatrix& ma, const char* a,
                          const GemmMatrix& mb, const char* b, char* c, int64_t batch, int64_t M,
                          int64_t N, int64_t K) {
  const GemmCall g = gemm_call(ma, mb, M, N, K);
  const T one = 1, zero = 0;
  const cublasOperation_t op_first = g.trans_first ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_second = g.trans_second ? CUBLAS_OP_T : CUBLAS_OP_N;
  const T* first = reinterpret_cast<const T*>(b);
  const T* second = reinterpret_cast<const T*>(a);
  T* cp = reinterpret_cast<T*>(c);
  if constexpr (std::is_same_v<T, double>)
    check(cublasDgemmStridedBatched(handle, op_first, op_second, g.m, g.n, g.k, &one, first,
                                    g.ld_first, g.stride_first, second, g.ld_second,
                                    g.stride_second, &zero, cp, g.ldc, g.stride_c, batch),
          "cublasDgemmStridedBatched");
  else
    check(cublasSgemmStridedBatched(handle, op_first, op_second, g.m, g.n, g.k, &one, first,
                                    g.ld_first, g.stride_first, second, g.ld_second,
                                    g.stride_second, &zero, cp, g.ldc, g.stride_c, batch),
          "cublasSgemmStridedBatched");
}

class CudaBackend final : public backend::Backend {
 public:
  explicit CudaBackend(int device)
      : device_(device),
        name_(backend_name_of_device(device)),
        allocator_(
            [this](size_t n) -> void* {
              select_device();
              void* p = nullptr;
              if (cudaMalloc(&p, n) != cudaSuccess) {
                cudaGetLastError();  // clear the sticky out-of-memory error
                return nullptr;
              }
              return p;
            },
            [](void* p) { cudaFree(p); }) {
    select_device();
    check(cublasCreate(&cublas_), "cublasCreate");
    // Plain float32 products (no TF32), as the cpu backend computes them.
    check(cublasSetMathMode(cublas_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  }
  ~CudaBackend() override { cublasDestroy(cublas_); }

  std::string_view name() const override { return name_; }
  std::string device() const override { return "cuda:" + std::to_string(device_); }
  bool is_host() const override { return false; }

  Ref<backend::Storage> allocate(size_t nbytes) override {
    return make_ref<backend::Storage>(this, allocator_.allocate(nbytes), nbytes);
  }
  void deallocate(void* data, size_t) override { allocator_.deallocate(data); }
  CachingAllocator& allocator() { return allocator_; }
  void copy_from_host(backend::Storage& dst, size_t off, const void* src, size_t n) override {
    select_device();
    if (n) check(cudaMemcpy(static_cast<char*>(dst.data()) + off, src, n, cudaMemcpyHostToDevice),
                 "copy to the device");
  }
  void copy_to_host(void* dst, const backend::Storage& src, size_t off, size_t n) override {
    select_device();
    if (n)
      check(cudaMemcpy(dst, static_cast<const char*>(src.data()) + off, n, cudaMemcpyDeviceToHost),
            "copy to the host");
  }
  void synchronize() override {
    select_device();
    check(cudaDeviceSynchronize(), "synchronize");
  }

  void fill(const Array& out, const Scalar& value) override {
    select_device();
    unsigned char bytes[8] = {};
    scalar_bytes(value, out.dtype, bytes);
    launch_fill(dims_of(out.shape), operand(out), bytes, static_cast<int>(itemsize(out.dtype)));
  }
  void arange(const Array& out, double start, double step) override {
    select_device();
    launch_arange(operand(out), out.numel(), start, step);
  }
  void random(const Array& out, backend::RandomKind kind, uint64_t seed,
              uint64_t counter) override {
    select_device();
    launch_random(kind, operand(out), out.numel(), seed, counter);
  }
  void copy(const Array& dst, const Array& src, backend::CopyMode mode) override {
    select_device();
    launch_copy(dims_of(dst.shape), operand(dst), operand(src), mode == backend::CopyMode::Add);
  }
  void unary(backend::UnaryOp op, const Array& out, const Array& x, double p0,
             double p1) override {
    select_device();
    launch_unary(op, dims_of(out.shape), operand(out), operand(x), p0, p1);
  }
  void binary(backend::BinaryOp op, const Array& out, const Array& a, const Array& b) override {
    select_device();
    launch_binary(op, dims_of(out.shape), operand(out), operand(a), operand(b));
  }
  void where(const Array& out, const Array& cond, const Array& a, const Array& b) override {
    select_device();
    launch_where(dims_of(out.shape), operand(out), operand(cond), operand(a), operand(b));
  }

  void reduce(backend::ReduceOp op, const Array& out, const Array& x, uint64_t axes) override {
    select_device();
    // out has x's rank, extent 1 on the reduced axes.
    Dims kept, reduced;
    Operand o = operand(out), xk = operand(x), xr = operand(x);
    for (int d = 0; d < x.rank(); ++d) {
      const bool r = (axes >> d) & 1;
      Dims& dims = r ? reduced : kept;
      Operand& xo = r ? xr : xk;
      if (!r) o.stride[kept.rank] = out.strides[d];
      xo.stride[dims.rank] = x.strides[d];
      dims.size[dims.rank++] = x.shape[d];
      dims.numel *= x.shape[d];
    }
    launch_reduce(op, kept, o, xk, reduced, xr);
  }

  void arg_reduce(backend::ArgReduceOp op, const Array& out, const Array& x, int axis) override {
    select_device();
    launch_arg_reduce(op == backend::ArgReduceOp::ArgMax, dims_without(x.shape, axis),
                      operand_without(out, axis), operand_without(x, axis), x.shape[axis],
                      x.strides[axis]);
  }

  void matmul(const Array& out, const Array& a, const Array& b) override;

  void scan(backend::ScanOp op, const Array& out, const Array& x, int axis) override {
    select_device();
    launch_scan(op, dims_without(x.shape, axis), operand_without(out, axis),
                operand_without(x, axis), x.shape[axis], out.strides[axis], x.strides[axis]);
  }
  void sort(const Array& values, const Array& indices, const Array& x, bool descending) override {
    select_device();
    // Lines along the last axis; values and indices (when wanted) have x's shape.
    const int axis = x.rank() - 1;
    Operand vo, io;
    if (values.storage) vo = operand_without(values, axis);
    if (indices.storage) io = operand_without(indices, axis);
    std::vector<Ref<backend::Storage>> held;  // the radix sort's scratch, until we return
    launch_sort(dims_without(x.shape, axis), vo, io, operand_without(x, axis), x.shape[axis],
                values.storage ? values.strides[axis] : 0,
                indices.storage ? indices.strides[axis] : 0, x.strides[axis], descending,
                [this, &held](size_t n) {
                  held.push_back(allocate(n));
                  return held.back()->data();
                });
  }
  void gather(const Array& out, const Array& x, const Array& index, int axis) override {
    select_device();
    // x read at out's index along every axis but `axis`, where index says.
    Operand xo = operand(x);
    const int64_t axis_stride = x.strides[axis];
    xo.stride[axis] = 0;
    launch_gather(dims_of(out.shape), operand(out), xo, operand(index), axis_stride);
  }
  void scatter(const Array& out, const Array& index, const Array& src, int axis,
               backend::ScatterReduce reduce) override {
    select_device();
    // Lines of src (and index, its shape) along `axis`; out has src's shape but along it.
    launch_scatter(reduce, dims_without(src.shape, axis), operand_without(out, axis),
                   operand_without(index, axis), operand_without(src, axis), src.shape[axis],
                   out.strides[axis], index.strides[axis], src.strides[axis]);
  }

  // Fused capabilities: linear (a cuBLAS product, then the epilogue kernel), the epilogue and
  // its backward pass, softmax and elementwise chains (fused_kernels.cu), pooling
  // (pool_kernels.cu), convolutions through cuDNN when built with it (cudnn_conv.h). Linear
  // algebra runs as decompositions.
  bool supports(backend::Capability cap) const override {
    using backend::Capability;
    switch (cap) {
      case Capability::Linear:
      case Capability::Epilogue:
      case Capability::Softmax:
      case Capability::Pool:
      case Capability::Elementwise:
        return true;
#ifdef KERAS_CUDA_WITH_CUDNN
      case Capability::Conv:
        return true;
#endif
      default:
        return false;
    }
  }
  void pool(const Array& out, const Array& x, const backend::PoolSpec& spec) override {
    select_device();
    launch_pool(pool_geometry(x.shape, out.shape, spec), operand(x), pool_strides(x.strides, spec),
                operand(out), pool_strides(out.strides, spec));
  }
  void pool_backward(const Array& dx, const Array& dy, const Array& x, const Array& out,
                     const backend::PoolSpec& spec) override {
    select_device();
    launch_pool_backward(pool_geometry(x.shape, dy.shape, spec), operand(dx),
                         pool_strides(dx.strides, spec), operand(dy),
                         pool_strides(dy.strides, spec), operand(x), pool_strides(x.strides, spec),
                         operand(out), pool_strides(out.strides, spec));
  }
  // A chain in one kernel when it fits the fused kernel (chain_program.h), else step by step.
  void elementwise(const backend::ElementwiseChain& chain, std::span<const Array> arrays) override {
    select_device();
    if (chain.numel == 0 || chain.steps.empty()) return;
    ChainProgram program;
    if (make_chain_program(chain, arrays, program)) return launch_chain(program);
    run_chain_by_steps(chain, arrays);
  }
  void softmax(const Array& out, const Array& x, int axis, bool log) override {
    select_device();
    launch_softmax(dims_without(x.shape, axis), operand_without(out, axis),
                   operand_without(x, axis), x.shape[axis], x.strides[axis], out.strides[axis],
                   log);
  }
  void linear(const Array& out, const Array& x, const Array& w, const Array& bias,
              backend::Activation activation) override {
    matmul(out, x, w);
    if (bias.storage || activation != backend::Activation::None)
      launch_bias_activation(activation, dims_of(out.shape), operand(out),
                             last_axis_operand(bias, out.rank()));
  }
  void conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                            const Array& bias, backend::Activation activation,
                            const backend::ConvSpec& spec) override {
    if (!spec.channels_last) unsupported("conv_bias_activation with channels_first");
    conv(out, x, kernel, spec);  // (cuDNN's; the base class's refuses without it)
    if (bias.storage || activation != backend::Activation::None)
      launch_bias_activation(activation, dims_of(out.shape), operand(out),
                             last_axis_operand(bias, out.rank()));
  }
  void bias_activation_backward(const Array& dz, const Array& db, const Array& y, const Array& g,
                                backend::Activation activation) override {
    select_device();
    if (activation == backend::Activation::Gelu || activation == backend::Activation::Silu)
      unsupported("bias_activation_backward of gelu or silu (their derivatives need z)");
    launch_activation_grad(activation, dims_of(y.shape), operand(dz), operand(y), operand(g));
    if (!db.storage || dz.rank() == 0) return;
    // db (O) = dz summed over every axis but the last: the reduce primitive (sums in double),
    // db viewed with dz's rank.
    Array sums = db;
    sums.shape = dz.shape;
    sums.strides = Strides(static_cast<size_t>(dz.rank()), 0);
    for (int d = 0; d + 1 < dz.rank(); ++d) sums.shape[d] = 1;
    if (dz.rank() > 0) sums.strides[dz.rank() - 1] = db.strides[0];
    reduce(backend::ReduceOp::Sum, sums, dz, (uint64_t{1} << (dz.rank() - 1)) - 1);
  }
#ifdef KERAS_CUDA_WITH_CUDNN
  void conv(const Array& out, const Array& x, const Array& kernel,
            const backend::ConvSpec& spec) override;
  void conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                           const backend::ConvSpec& spec) override;
  void conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                            const backend::ConvSpec& spec) override;
#endif

 private:
  void select_device() const { check(cudaSetDevice(device_), "cudaSetDevice"); }

  // A new contiguous device array of `shape` and `dtype` (its values unset).
  Array empty(const Shape& shape, DType dtype) {
    Array c;
    c.dtype = dtype;
    c.shape = shape;
    c.strides = Strides(static_cast<size_t>(shape.rank()), 0);
    int64_t s = 1;
    for (int d = shape.rank() - 1; d >= 0; --d) {
      c.strides[d] = s;
      s *= shape[d];
    }
    c.storage = allocate(static_cast<size_t>(shape.numel()) * itemsize(dtype));
    return c;
  }

  // A contiguous device copy of `src` with `shape` (its broadcast axes written out) in `dtype`.
  Array contiguous(const Array& src, const Shape& shape, DType dtype) {
    Array c = empty(shape, dtype);
    Array view = src;
    view.shape = shape;
    copy(c, view, backend::CopyMode::Assign);
    return c;
  }

  // The chain's steps as primitive calls over (rows, row_length) views of its arrays, with
  // whole temporaries: what a chain the fused kernel does not take costs.
  void run_chain_by_steps(const backend::ElementwiseChain& chain, std::span<const Array> arrays) {
    using backend::ChainLayout;
    using backend::ElementwiseStep;
    const int64_t p = chain.row_length, rows = chain.numel / p;
    std::vector<Array> regs(arrays.begin(), arrays.end());
    for (size_t r = 0; r < arrays.size(); ++r) {
      Array& a = regs[r];
      a.shape = Shape{rows, p};
      switch (chain.layouts[r]) {
        case ChainLayout::Dense:
          a.strides = Strides{p, 1};
          break;
        case ChainLayout::Scalar:
          a.strides = Strides{0, 0};
          break;
        case ChainLayout::Row:
          a.strides = Strides{1, 0};
          break;
        case ChainLayout::Column:
          a.strides = Strides{0, 1};
          break;
      }
    }
    for (DType t : chain.temp_dtypes) regs.push_back(empty(Shape{rows, p}, t));
    for (const ElementwiseStep& s : chain.steps) {
      switch (s.kind) {
        case ElementwiseStep::Kind::Unary:
          unary(static_cast<backend::UnaryOp>(s.op), regs[s.out], regs[s.in[0]], s.p0, s.p1);
          break;
        case ElementwiseStep::Kind::Binary:
          binary(static_cast<backend::BinaryOp>(s.op), regs[s.out], regs[s.in[0]], regs[s.in[1]]);
          break;
        case ElementwiseStep::Kind::Where:
          where(regs[s.out], regs[s.in[0]], regs[s.in[1]], regs[s.in[2]]);
          break;
        case ElementwiseStep::Kind::Copy:
          copy(regs[s.out], regs[s.in[0]], static_cast<backend::CopyMode>(s.op));
          break;
      }
    }
  }

  // A bias (O) as an operand over an array of `rank` axes whose last is O: broadcast along the
  // others; no base when there is no bias.
  static Operand last_axis_operand(const Array& bias, int rank) {
    Operand op = operand(bias);
    for (int d = 0; d < rank; ++d) op.stride[d] = 0;
    if (bias.storage && rank > 0) op.stride[rank - 1] = bias.strides[0];
    return op;
  }

  // `a` as is when it is packed and of `dtype`, else a packed copy in `dtype`.
  Array packed(const Array& a, DType dtype) {
    return a.dtype == dtype && a.is_contiguous() ? a : contiguous(a, a.shape, dtype);
  }

#ifdef KERAS_CUDA_WITH_CUDNN
  // The dtype cuDNN computes a convolution of `dtype` in: float64 as is, the others in float32
  // (float16 and bfloat16 as the cpu backend computes them).
  static DType conv_work(DType dtype) {
    return dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  }
  // The part of the explicitly padded `padded` that holds an unpadded array of `shape`.
  static Array interior(const Array& padded, const Shape& shape, const backend::ConvSpec& spec) {
    Array v = padded;
    v.shape = shape;
    const int first = spec.channels_last ? 1 : 2;
    for (int i = 0; i < spec.spatial_dims; ++i)
      v.offset += spec.pad_before[i] * padded.strides[first + i];
    return v;
  }
  // x packed in `work`; written into a zero-padded copy when cuDNN cannot pad it itself.
  Array conv_input(const Array& x, const backend::ConvSpec& spec, DType work) {
    if (symmetric_padding(spec)) return packed(x, work);
    Array p = empty(padded_input_shape(x.shape, spec), work);
    fill(p, Scalar(0));
    copy(interior(p, x.shape, spec), x, backend::CopyMode::Assign);
    return p;
  }
  // The kernel (*k, C/g, O) packed in the filter's memory order, in `work`.
  Array conv_filter(const Array& kernel, const backend::ConvSpec& spec, DType work) {
    Array view = kernel;
    view.strides = filter_view_strides(kernel.shape, kernel.strides, spec, &view.shape);
    return contiguous(view, view.shape, work);
  }
  // Scratch memory for cuDNN, held by `scratch` until the caller returns (later kernels on the
  // same stream may reuse it: they run after cuDNN's).
  Scratch workspace(Ref<backend::Storage>& scratch) {
    return [this, &scratch](size_t n) {
      scratch = allocate(n);
      return scratch->data();
    };
  }

  Cudnn cudnn_;
#endif
  int device_;
  std::string name_;
  CachingAllocator allocator_;
  cublasHandle_t cublas_ = nullptr;
};

// out (..., M, N) = a (..., M, K) @ b (..., K, N), batch axes broadcast by strides: both operands
// written out contiguously (float16 and bfloat16 as float32, as the cpu backend computes them),
// one strided-batched cuBLAS product (row-major as the transposed column-major product), and a
// copy into out when it is not contiguous float32/float64 itself.
void CudaBackend::matmul(const Array& out, const Array& a, const Array& b) {
  select_device();
  const int r = out.rank();
  const int64_t M = out.shape[r - 2], N = out.shape[r - 1], K = a.shape[r - 1];
  int64_t batch = 1;
  for (int d = 0; d < r - 2; ++d) batch *= out.shape[d];
  if (M == 0 || N == 0 || batch == 0) return;
  if (K == 0) return fill(out, Scalar(0));
  const bool f64 = out.dtype == DType::Float64;
  const bool floating = is_floating(out.dtype);
  const DType work = f64 ? DType::Float64 : floating ? DType::Float32 : out.dtype;
  const Shape batch_shape(out.shape.begin(), out.shape.end() - 2);
  // `x` as a batch of rows x cols matrices over the product's batch axes (its own extent-1
  // batch axes broadcast), read in place when cuBLAS can, else packed into `held`.
  auto prepare = [&](const Array& x, int64_t rows, int64_t cols, Array& held) {
    Array view = x;
    view.shape = batch_shape;
    view.shape.push_back(rows);
    view.shape.push_back(cols);
    for (int d = 0; d < r - 2; ++d)
      if (x.shape[d] == 1) view.strides[d] = 0;
    std::optional<GemmMatrix> m;
    if (floating && x.dtype == work) m = gemm_matrix(batch_shape, rows, cols, view.strides);
    held = m ? view : contiguous(view, view.shape, work);
    if (!m) m = gemm_matrix(batch_shape, rows, cols, held.strides);
    return *m;
  };
  Array ah, bh;
  const GemmMatrix ma = prepare(a, M, K, ah), mb = prepare(b, K, N, bh);
  const bool direct = out.dtype == work && out.is_contiguous();
  Array c = direct ? out : empty(out.shape, work);
  const Operand co = operand(c), ao = operand(ah), bo = operand(bh);
  if (!floating) {
    launch_matmul_integer(co, ao, bo, batch, M, N, K);  // (packed operands: see prepare)
  } else if (batch > INT_MAX) {
    throw NotImplementedError("cuda backend: a product of " + std::to_string(batch) +
                              " batches (cuBLAS takes at most 2^31 - 1)");
  } else if (f64) {
    strided_batched_gemm<double>(cublas_, ma, ao.base, mb, bo.base, co.base, batch, M, N, K);
  } else {
    strided_batched_gemm<float>(cublas_, ma, ao.base, mb, bo.base, co.base, batch, M, N, K);
  }
  if (!direct) copy(out, c, backend::CopyMode::Assign);
}

#ifdef KERAS_CUDA_WITH_CUDNN
// out (N, *o, O) = conv(x, kernel): cuDNN on packed operands in the work dtype (the output
// written directly when it is packed and of that dtype).
void CudaBackend::conv(const Array& out, const Array& x, const Array& kernel,
                       const backend::ConvSpec& spec) {
  select_device();
  const DType work = conv_work(out.dtype);
  const Array in = conv_input(x, spec, work), w = conv_filter(kernel, spec, work);
  const bool direct = out.dtype == work && out.is_contiguous();
  const Array y = direct ? out : empty(out.shape, work);
  const CudnnConv c = cudnn_conv(in.shape, in.strides, kernel.shape, y.shape, y.strides, spec,
                                 !symmetric_padding(spec));
  Ref<backend::Storage> scratch;
  cudnn_.forward(c, work, operand(in).base, operand(w).base, operand(y).base, workspace(scratch));
  if (!direct) copy(out, y, backend::CopyMode::Assign);
}

// dx from dy and the kernel; with explicit padding cuDNN writes the padded gradient, whose
// interior is dx.
void CudaBackend::conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                                      const backend::ConvSpec& spec) {
  select_device();
  const DType work = conv_work(dx.dtype);
  const bool pad = !symmetric_padding(spec);
  const Array g = packed(dy, work), w = conv_filter(kernel, spec, work);
  const bool direct = !pad && dx.dtype == work && dx.is_contiguous();
  const Array d = direct ? dx : empty(pad ? padded_input_shape(dx.shape, spec) : dx.shape, work);
  const CudnnConv c = cudnn_conv(d.shape, d.strides, kernel.shape, g.shape, g.strides, spec, pad);
  Ref<backend::Storage> scratch;
  cudnn_.backward_data(c, work, operand(g).base, operand(w).base, operand(d).base,
                       workspace(scratch));
  if (!direct) copy(dx, pad ? interior(d, dx.shape, spec) : d, backend::CopyMode::Assign);
}

// dkernel from x and dy: cuDNN writes the filter in its memory order, copied into dkernel's
// (*k, C/g, O) through a view in that order.
void CudaBackend::conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                                       const backend::ConvSpec& spec) {
  select_device();
  const DType work = conv_work(dkernel.dtype);
  const Array in = conv_input(x, spec, work), g = packed(dy, work);
  Array target = dkernel;
  target.strides = filter_view_strides(dkernel.shape, dkernel.strides, spec, &target.shape);
  const Array dw = empty(target.shape, work);
  const CudnnConv c = cudnn_conv(in.shape, in.strides, dkernel.shape, g.shape, g.strides, spec,
                                 !symmetric_padding(spec));
  Ref<backend::Storage> scratch;
  cudnn_.backward_filter(c, work, operand(in).base, operand(g).base, operand(dw).base,
                         workspace(scratch));
  copy(target, dw, backend::CopyMode::Assign);
}
#endif

// Linking this object (the keras_cuda target) makes "cuda" (the first GPU, also "cuda:0"),
// "cuda:1", ... backend names where devices are.
[[maybe_unused]] const bool registered = [] {
  for (int d = 0; d < device_count(); ++d)
    backend::register_backend(backend_name_of_device(d),
                              [d] { return std::make_unique<CudaBackend>(d); });
  if (device_present()) backend::register_alias("cuda:0", "cuda");
  return true;
}();

// The backend `name` names, when it is a cuda backend.
CudaBackend& cuda_backend(std::string_view name) {
  backend::Backend* named = nullptr;
  try {
    named = &backend::get(name);
  } catch (const ValueError&) {  // not registered: answered below
  }
  if (auto* b = dynamic_cast<CudaBackend*>(named)) return *b;
  throw ValueError(
      "keras::cuda memory functions: '" + std::string(name) + "' is not a cuda backend (" +
      (device_present() ? "use \"cuda\", \"cuda:1\", ..." : "this machine has no GPU") + ").");
}

}  // namespace

MemoryStats memory_stats(std::string_view backend) {
  const CachingAllocator::Stats s = cuda_backend(backend).allocator().stats();
  return {.allocated_bytes = s.in_use_bytes,
          .reserved_bytes = s.in_use_bytes + s.cached_bytes,
          .peak_allocated_bytes = s.peak_in_use_bytes,
          .device_allocations = s.raw_allocations,
          .cache_hits = s.cache_hits};
}

void reset_peak_memory_stats(std::string_view backend) {
  cuda_backend(backend).allocator().reset_peak();
}

void empty_cache(std::string_view backend) {
  cuda_backend(backend).allocator().empty_cache();
}

int device_count() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
  cudaGetLastError();  // no driver or no device: clear the error, leave "cuda" out
  return devices;
}

bool device_present() {
  return device_count() > 0;
}

std::string backend_name_of_device(int device) {
  return device == 0 ? "cuda" : "cuda:" + std::to_string(device);
}

}  // namespace keras::cuda
