#pragma once
// The cuda backend (see cuda_backend.cpp): the class, shared by the files that define its
// parts: cuda_backend.cpp (memory, the primitives, products, registration), cuda_fused.cpp (the
// fused capabilities), cuda_conv.cpp (convolutions through cuDNN), cuda_graphs.cpp (recording
// compiled steps as CUDA graphs). Internal to keras_cuda.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "caching_allocator.h"
#include "cuda_arrays.h"
#include "cuda_device.h"
#include "keras/backend/backend.h"
#include "keras/backend/capture.h"
#include "kernels.h"
#include "stream.h"
#ifdef KERAS_CUDA_WITH_CUDNN
#include "cudnn_conv.h"
#endif

namespace keras::cuda {

inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw RuntimeError(std::string("cuda backend: ") + what + ": cuBLAS status " +
                       std::to_string(static_cast<int>(s)));
}

/// The bytes of `value` in `dtype`, as the cpu backend's fill writes them.
void scalar_bytes(const Scalar& value, DType dtype, unsigned char* out);

class CudaBackend final : public backend::Backend, public backend::GraphCapture {
 public:
  /// The backend of GPU `device`: its own stream (kernels, cuBLAS and cuDNN run on it, in
  /// order), a cuBLAS handle on it, memory through the caching allocator.
  explicit CudaBackend(int device);
  ~CudaBackend() override;

  std::string_view name() const override { return name_; }
  std::string device() const override { return "cuda:" + std::to_string(device_); }
  bool is_host() const override { return false; }

  Ref<backend::Storage> allocate(size_t nbytes) override {
    return make_ref<backend::Storage>(this, allocator_.allocate(nbytes), nbytes);
  }
  void deallocate(void* data, size_t) override { allocator_.deallocate(data); }
  CachingAllocator& allocator() { return allocator_; }
  // Host copies go through the legacy default stream, which waits for the backend's stream
  // (created blocking) and is waited for by it.
  void copy_from_host(backend::Storage& dst, size_t off, const void* src, size_t n) override {
    select_device();
    refuse_while_recording("a copy from the host");
    if (n)
      check(cudaMemcpy(static_cast<char*>(dst.data()) + off, src, n, cudaMemcpyHostToDevice),
            "copy to the device");
  }
  void copy_to_host(void* dst, const backend::Storage& src, size_t off, size_t n) override {
    select_device();
    refuse_while_recording("a copy to the host");
    if (n)
      check(cudaMemcpy(dst, static_cast<const char*>(src.data()) + off, n, cudaMemcpyDeviceToHost),
            "copy to the host");
  }
  void synchronize() override {
    select_device();
    check(cudaStreamSynchronize(stream_), "synchronize");
  }

  // Recording compiled steps as CUDA graphs (keras/backend/capture.h; cuda_graphs.cpp).
  bool capture_enabled() const override;
  void begin_capture() override;
  std::unique_ptr<backend::CapturedWork> end_capture() override;
  void abort_capture() noexcept override;
  void random_from(const Array& out, backend::RandomKind kind, const Array& key,
                   uint64_t counter_offset) override {
    select_device();
    const auto* words = reinterpret_cast<const uint64_t*>(operand(key).base);
    launch_random(kind, operand(out), out.numel(), DrawKey{0, counter_offset, words});
  }

  void fill(const Array& out, const Scalar& value) override {
    select_device();
    unsigned char bytes[8] = {};
    scalar_bytes(value, out.dtype, bytes);
    const auto s = space(out.shape, out);
    launch_fill(s.dims, s.ops[0], bytes, static_cast<int>(itemsize(out.dtype)));
  }
  void arange(const Array& out, double start, double step) override {
    select_device();
    launch_arange(operand(out), out.numel(), start, step);
  }
  void random(const Array& out, backend::RandomKind kind, uint64_t seed,
              uint64_t counter) override {
    select_device();
    launch_random(kind, operand(out), out.numel(), DrawKey{seed, counter});
  }
  void copy(const Array& dst, const Array& src, backend::CopyMode mode) override {
    select_device();
    const auto s = space(dst.shape, dst, src);
    launch_copy(s.dims, s.ops[0], s.ops[1], mode == backend::CopyMode::Add);
  }
  void unary(backend::UnaryOp op, const Array& out, const Array& x, double p0, double p1) override {
    select_device();
    const auto s = space(out.shape, out, x);
    launch_unary(op, s.dims, s.ops[0], s.ops[1], p0, p1);
  }
  void binary(backend::BinaryOp op, const Array& out, const Array& a, const Array& b) override {
    select_device();
    const auto s = space(out.shape, out, a, b);
    launch_binary(op, s.dims, s.ops[0], s.ops[1], s.ops[2]);
  }
  void where(const Array& out, const Array& cond, const Array& a, const Array& b) override {
    select_device();
    const auto s = space(out.shape, out, cond, a, b);
    launch_where(s.dims, s.ops[0], s.ops[1], s.ops[2], s.ops[3]);
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
    std::vector<Ref<backend::Storage>> held;  // the chunks' partials, until we return
    launch_reduce(op, kept, o, xk, reduced, xr, scratch_into(held));
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
                scratch_into(held));
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

  // Fused capabilities (cuda_fused.cpp): linear (a cuBLAS product, then the epilogue kernel),
  // the epilogue and its backward pass, softmax and elementwise chains (fused_kernels.cu),
  // pooling (pool_kernels.cu); convolutions through cuDNN when built with it (cuda_conv.cpp).
  // Linear algebra runs as decompositions.
  bool supports(backend::Capability cap) const override;
  void pool(const Array& out, const Array& x, const backend::PoolSpec& spec) override;
  void pool_backward(const Array& dx, const Array& dy, const Array& x, const Array& out,
                     const backend::PoolSpec& spec) override;
  void elementwise(const backend::ElementwiseChain& chain, std::span<const Array> arrays) override;
  void softmax(const Array& out, const Array& x, int axis, bool log) override;
  void linear(const Array& out, const Array& x, const Array& w, const Array& bias,
              backend::Activation activation) override;
  void conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                            const Array& bias, backend::Activation activation,
                            const backend::ConvSpec& spec) override;
  void bias_activation_backward(const Array& dz, const Array& db, const Array& y, const Array& g,
                                backend::Activation activation) override;
#ifdef KERAS_CUDA_WITH_CUDNN
  void conv(const Array& out, const Array& x, const Array& kernel,
            const backend::ConvSpec& spec) override;
  void conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                           const backend::ConvSpec& spec) override;
  void conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                            const backend::ConvSpec& spec) override;
#endif

 private:
  friend class CudaGraph;

  // Every primitive starts here: the device current, and this thread's launches on the
  // backend's stream, or on the capture stream while this thread records.
  void select_device() const {
    check(cudaSetDevice(device_), "cudaSetDevice");
    set_launch_stream(recording_here() ? capture_stream_ : stream_);
  }
  bool recording_here() const {
    return capture_thread_.load(std::memory_order_acquire) == std::this_thread::get_id();
  }
  void refuse_while_recording(const char* what) const {
    if (recording_here())
      throw RuntimeError(std::string("cuda backend: ") + what +
                         " cannot be recorded into a CUDA graph");
  }
  // The cuBLAS handle of this thread's stream.
  cublasHandle_t cublas() const {
    return recording_here() ? capture_cublas_ : cublas_;
  }
  // The end of a recording, made or not: the pool closed, the next recording allowed.
  uint64_t finish_recording();

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

  // The chain's steps as primitive calls (cuda_fused.cpp).
  void run_chain_by_steps(const backend::ElementwiseChain& chain, std::span<const Array> arrays);

  // Device scratch for a library call (cuDNN's workspace, CUB's temporaries), kept in `held`
  // until the calling primitive returns; later kernels on the same stream may then reuse it,
  // since they run after the call's.
  Scratch scratch_into(std::vector<Ref<backend::Storage>>& held) {
    return [this, &held](size_t n) {
      held.push_back(allocate(n));
      return held.back()->data();
    };
  }

  // `a` as is when it is packed and of `dtype`, else a packed copy in `dtype`.
  Array packed(const Array& a, DType dtype) {
    return a.dtype == dtype && a.is_contiguous() ? a : contiguous(a, a.shape, dtype);
  }

#ifdef KERAS_CUDA_WITH_CUDNN
  // The three directions in a given work dtype, and their operands (cuda_conv.cpp).
  void conv_in(const Array& out, const Array& x, const Array& kernel, const backend::ConvSpec& spec,
               DType work);
  void conv_backward_input_in(const Array& dx, const Array& dy, const Array& kernel,
                              const backend::ConvSpec& spec, DType work);
  void conv_backward_kernel_in(const Array& dkernel, const Array& x, const Array& dy,
                               const backend::ConvSpec& spec, DType work);
  Array conv_input(const Array& x, const backend::ConvSpec& spec, DType work);
  Array conv_filter(const Array& kernel, const backend::ConvSpec& spec, DType work);

  Cudnn cudnn_;
#endif
  int device_;
  std::string name_;
  CachingAllocator allocator_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  // Recording: one thread at a time, on its own stream and cuBLAS handle (with a workspace of
  // its own, as cuBLAS asks for graph capture); made on the first recording.
  cudaStream_t capture_stream_ = nullptr;
  cublasHandle_t capture_cublas_ = nullptr;
  void* capture_workspace_ = nullptr;
  std::mutex capture_mutex_;
  std::condition_variable capture_idle_;
  bool capturing_ = false;
  std::atomic<std::thread::id> capture_thread_{};
};

}  // namespace keras::cuda
