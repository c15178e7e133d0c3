#pragma once
// The torch backend: LibTorch (ATen) as a kernel library. Memory is ATen's storage (its CPU
// allocator, or on a GPU its CUDA caching allocator), so a keras-cpp tensor and an at::Tensor can
// share one buffer (see keras/torch/interop.h); every primitive and fused capability maps to ATen
// ops run under no-grad: autograd stays ours, so gradients are the same rules on every backend.
// One instance per device: "torch" on the CPU, "torch:cuda", "torch:cuda:1", ... on the GPUs of a
// CUDA LibTorch (torch_cuda.h).

#include <c10/core/Device.h>

#include <string>

#include "keras/backend/backend.h"

namespace keras::torch_backend {

using backend::Array;

class TorchBackend final : public backend::Backend {
 public:
  /// The backend on `device` (the CPU, or a CUDA device of a CUDA LibTorch), named `name`.
  TorchBackend(c10::Device device, std::string name);

  std::string_view name() const override { return name_; }
  std::string device() const override;
  bool is_host() const override { return device_.is_cpu(); }
  void synchronize() override;
  /// Where its memory is, as ATen names it.
  const c10::Device& aten_device() const { return device_; }

  Ref<backend::Storage> allocate(size_t nbytes) override;
  void deallocate(void* data, size_t nbytes) override;
  void copy_from_host(backend::Storage& dst, size_t byte_offset, const void* src,
                      size_t nbytes) override;
  void copy_to_host(void* dst, const backend::Storage& src, size_t byte_offset,
                    size_t nbytes) override;

  void fill(const Array& out, const Scalar& value) override;
  void arange(const Array& out, double start, double step) override;
  void random(const Array& out, backend::RandomKind kind, uint64_t seed,
              uint64_t counter) override;
  void copy(const Array& dst, const Array& src, backend::CopyMode mode) override;
  void unary(backend::UnaryOp op, const Array& out, const Array& x, double p0,
             double p1) override;
  void binary(backend::BinaryOp op, const Array& out, const Array& a, const Array& b) override;
  void where(const Array& out, const Array& cond, const Array& a, const Array& b) override;
  void reduce(backend::ReduceOp op, const Array& out, const Array& x, uint64_t axes) override;
  void arg_reduce(backend::ArgReduceOp op, const Array& out, const Array& x, int axis) override;
  void scan(backend::ScanOp op, const Array& out, const Array& x, int axis) override;
  void sort(const Array& values, const Array& indices, const Array& x,
            bool descending) override;
  void gather(const Array& out, const Array& x, const Array& index, int axis) override;
  void scatter(const Array& out, const Array& index, const Array& src, int axis,
               backend::ScatterReduce reduce) override;
  void matmul(const Array& out, const Array& a, const Array& b) override;

  bool supports(backend::Capability cap) const override;
  void conv(const Array& out, const Array& x, const Array& kernel,
            const backend::ConvSpec& spec) override;
  void conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                           const backend::ConvSpec& spec) override;
  void conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                            const backend::ConvSpec& spec) override;
  void pool(const Array& out, const Array& x, const backend::PoolSpec& spec) override;
  void pool_backward(const Array& dx, const Array& dy, const Array& x, const Array& out,
                     const backend::PoolSpec& spec) override;
  void softmax(const Array& out, const Array& x, int axis, bool log) override;
  void linear(const Array& out, const Array& x, const Array& w, const Array& bias,
              backend::Activation activation) override;
  void conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                            const Array& bias, backend::Activation activation,
                            const backend::ConvSpec& spec) override;
  void bias_activation_backward(const Array& dz, const Array& db, const Array& y,
                                const Array& g, backend::Activation activation) override;

  bool cholesky(const Array& out, const Array& x, bool upper) override;
  void lu_factor(const Array& lu, const Array& pivots, const Array& x) override;
  void triangular_solve(const Array& out, const Array& a, const Array& b, bool lower, bool left,
                        bool transpose_a, bool unit_diagonal) override;
  void qr(const Array& q, const Array& r, const Array& x, bool complete) override;
  void svd(const Array& u, const Array& s, const Array& vt, const Array& x,
           bool full_matrices) override;
  void eigh(const Array& values, const Array& vectors, const Array& x, bool lower) override;
  bool eig(const Array& values, const Array& vectors, const Array& x) override;

 private:
  c10::Device device_;
  std::string name_;
};

}  // namespace keras::torch_backend
