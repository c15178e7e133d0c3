#pragma once
// A backend that runs every call on the real one and records it into a Trace: what the front
// end talks to while a step is traced (see keras/backend/trace_hook.h). Wrappers are never
// freed (see detach()); a trace makes one per backend it reaches.

#include "keras/backend/backend.h"

namespace keras::compiler::detail {

class Trace;

class RecordingBackend final : public backend::Backend {
 public:
  RecordingBackend(Trace& trace, backend::Backend& inner) : trace_(&trace), inner_(inner) {}
  backend::Backend& inner() const { return inner_; }
  /// After the trace ends the wrapper only forwards: a reference to it that outlived the
  /// trace (a backward rule that kept its backend) stays valid.
  void detach() { trace_ = nullptr; }

  std::string_view name() const override { return inner_.name(); }
  std::string device() const override { return inner_.device(); }
  bool is_host() const override { return inner_.is_host(); }
  bool is_symbolic() const override { return inner_.is_symbolic(); }
  bool supports(backend::Capability cap) const override { return inner_.supports(cap); }

  Ref<backend::Storage> allocate(size_t nbytes) override;
  void deallocate(void* data, size_t nbytes) override { inner_.deallocate(data, nbytes); }
  void copy_from_host(backend::Storage& dst, size_t byte_offset, const void* src,
                      size_t nbytes) override;
  void copy_to_host(void* dst, const backend::Storage& src, size_t byte_offset,
                    size_t nbytes) override;
  void synchronize() override { inner_.synchronize(); }

  void fill(const backend::Array& out, const Scalar& value) override;
  void arange(const backend::Array& out, double start, double step) override;
  void random(const backend::Array& out, backend::RandomKind kind, uint64_t seed,
              uint64_t counter) override;
  void copy(const backend::Array& dst, const backend::Array& src,
            backend::CopyMode mode) override;
  void unary(backend::UnaryOp op, const backend::Array& out, const backend::Array& x, double p0,
             double p1) override;
  void binary(backend::BinaryOp op, const backend::Array& out, const backend::Array& a,
              const backend::Array& b) override;
  void where(const backend::Array& out, const backend::Array& cond, const backend::Array& a,
             const backend::Array& b) override;
  void reduce(backend::ReduceOp op, const backend::Array& out, const backend::Array& x,
              uint64_t axes) override;
  void arg_reduce(backend::ArgReduceOp op, const backend::Array& out, const backend::Array& x,
                  int axis) override;
  void scan(backend::ScanOp op, const backend::Array& out, const backend::Array& x,
            int axis) override;
  void sort(const backend::Array& values, const backend::Array& indices, const backend::Array& x,
            bool descending) override;
  void gather(const backend::Array& out, const backend::Array& x, const backend::Array& index,
              int axis) override;
  void scatter(const backend::Array& out, const backend::Array& index, const backend::Array& src,
               int axis, backend::ScatterReduce reduce) override;
  void matmul(const backend::Array& out, const backend::Array& a,
              const backend::Array& b) override;

  void elementwise(const backend::ElementwiseChain& chain,
                   std::span<const backend::Array> arrays) override;
  void conv(const backend::Array& out, const backend::Array& x, const backend::Array& kernel,
            const backend::ConvSpec& spec) override;
  void conv_backward_input(const backend::Array& dx, const backend::Array& dy,
                           const backend::Array& kernel, const backend::ConvSpec& spec) override;
  void conv_backward_kernel(const backend::Array& dkernel, const backend::Array& x,
                            const backend::Array& dy, const backend::ConvSpec& spec) override;
  void pool(const backend::Array& out, const backend::Array& x,
            const backend::PoolSpec& spec) override;
  void pool_backward(const backend::Array& dx, const backend::Array& dy, const backend::Array& x,
                     const backend::Array& out, const backend::PoolSpec& spec) override;
  void softmax(const backend::Array& out, const backend::Array& x, int axis, bool log) override;
  void int8_matmul(const backend::Array& out, const backend::Array& a,
                   const backend::Array& b) override;
  void quantize_rows_int8(const backend::Array& q, const backend::Array& scale,
                          const backend::Array& x, float lo, float hi, float epsilon) override;
  void int8_linear(const backend::Array& out, const backend::Array& a, const backend::Array& b,
                   const backend::Array& a_scale, const backend::Array& b_scale,
                   const backend::Array& bias, backend::Activation activation) override;
  void int4_matmul(const backend::Array& out, const backend::Array& x,
                   const backend::Array& packed, const backend::Array& scale,
                   const backend::Array& zero, const backend::Array& g_idx) override;
  void linear(const backend::Array& out, const backend::Array& x, const backend::Array& w,
              const backend::Array& bias, backend::Activation activation) override;
  void conv_bias_activation(const backend::Array& out, const backend::Array& x,
                            const backend::Array& kernel, const backend::Array& bias,
                            backend::Activation activation,
                            const backend::ConvSpec& spec) override;
  void bias_activation_backward(const backend::Array& dz, const backend::Array& db,
                                const backend::Array& y, const backend::Array& g,
                                backend::Activation activation) override;
  void conv_bias_activation_max_pool(const backend::Array& out, const backend::Array& argmax,
                                     const backend::Array& x, const backend::Array& kernel,
                                     const backend::Array& bias, backend::Activation activation,
                                     const backend::ConvSpec& spec) override;
  void conv_bias_activation_max_pool_backward(
      const backend::Array& dx, const backend::Array& dkernel, const backend::Array& db,
      const backend::Array& x, const backend::Array& kernel, const backend::Array& y,
      const backend::Array& g, const backend::Array& argmax, backend::Activation activation,
      const backend::ConvSpec& spec) override;

  bool cholesky(const backend::Array& out, const backend::Array& x, bool upper) override;
  void lu_factor(const backend::Array& lu, const backend::Array& pivots,
                 const backend::Array& x) override;
  void triangular_solve(const backend::Array& out, const backend::Array& a,
                        const backend::Array& b, bool lower, bool left, bool transpose_a,
                        bool unit_diagonal) override;
  void qr(const backend::Array& q, const backend::Array& r, const backend::Array& x,
          bool complete) override;
  void svd(const backend::Array& u, const backend::Array& s, const backend::Array& vt,
           const backend::Array& x, bool full_matrices) override;
  void eigh(const backend::Array& values, const backend::Array& vectors, const backend::Array& x,
            bool lower) override;

 private:
  Trace* trace_;
  backend::Backend& inner_;
};

}  // namespace keras::compiler::detail
