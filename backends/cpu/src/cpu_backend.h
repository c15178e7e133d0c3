#pragma once
// The default backend: host memory from a caching allocator, kernels over a thread pool,
// GEMM through OpenBLAS and linear algebra through LAPACK.

#include "keras/backend/backend.h"

namespace keras::cpu {

using backend::Array;

class CpuBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "cpu"; }
  std::string device() const override { return "cpu:0"; }
  bool is_host() const override { return true; }

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
  void elementwise(const backend::ElementwiseChain& chain,
                   std::span<const Array> arrays) override;
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
  void int8_matmul(const Array& out, const Array& a, const Array& b) override;
  void quantize_rows_int8(const Array& q, const Array& scale, const Array& x, float lo, float hi,
                          float epsilon) override;
  void int8_linear(const Array& out, const Array& a, const Array& b, const Array& a_scale,
                   const Array& b_scale, const Array& bias,
                   backend::Activation activation) override;
  void int4_matmul(const Array& out, const Array& x, const Array& packed, const Array& scale,
                   const Array& zero, const Array& g_idx) override;
  void linear(const Array& out, const Array& x, const Array& w, const Array& bias,
              backend::Activation activation) override;
  void conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                            const Array& bias, backend::Activation activation,
                            const backend::ConvSpec& spec) override;
  void bias_activation_backward(const Array& dz, const Array& db, const Array& y,
                                const Array& g, backend::Activation activation) override;
  // Conv + bias + activation + 2x2 max pooling (conv_pool.cpp).
  void conv_bias_activation_max_pool(const Array& out, const Array& argmax, const Array& x,
                                     const Array& kernel, const Array& bias,
                                     backend::Activation activation,
                                     const backend::ConvSpec& spec) override;
  void conv_bias_activation_max_pool_backward(const Array& dx, const Array& dkernel,
                                              const Array& db, const Array& x,
                                              const Array& kernel, const Array& y,
                                              const Array& g, const Array& argmax,
                                              backend::Activation activation,
                                              const backend::ConvSpec& spec) override;

  // Linalg (linalg.cpp).
  bool cholesky(const Array& out, const Array& x, bool upper) override;
  void lu_factor(const Array& lu, const Array& pivots, const Array& x) override;
  void triangular_solve(const Array& out, const Array& a, const Array& b, bool lower, bool left,
                        bool transpose_a, bool unit_diagonal) override;
  void qr(const Array& q, const Array& r, const Array& x, bool complete) override;
  void svd(const Array& u, const Array& s, const Array& vt, const Array& x,
           bool full_matrices) override;
  void eigh(const Array& values, const Array& vectors, const Array& x, bool lower) override;
  bool eig(const Array& values, const Array& vectors, const Array& x) override;
};

}  // namespace keras::cpu
