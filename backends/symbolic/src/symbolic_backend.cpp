// The symbolic backend: tensors with shapes and dtypes but no data, on which every primitive
// does nothing. Running a layer's own call() on symbolic tensors gives its output shapes and
// dtypes for free (keras::KerasTensor and the Functional API are built on this), the way
// Keras's compute_output_spec runs functions on placeholder inputs.
//
// Reading data back gives zeros (so ops that check index ranges on the host pass), and an op
// may mix symbolic tensors with real ones (a layer's weights): the result is symbolic.

#include <cstring>
#include <memory>

#include "backend/builtin_backends.h"
#include "keras/backend/backend.h"

namespace keras::symbolic {

using backend::Array;

class SymbolicBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "symbolic"; }
  std::string device() const override { return "none"; }
  bool is_host() const override { return false; }
  bool is_symbolic() const override { return true; }

  Ref<backend::Storage> allocate(size_t nbytes) override {
    return make_ref<backend::Storage>(this, nullptr, nbytes);
  }
  void deallocate(void*, size_t) override {}
  void copy_from_host(backend::Storage&, size_t, const void*, size_t) override {}
  void copy_to_host(void* dst, const backend::Storage&, size_t, size_t nbytes) override {
    if (nbytes) std::memset(dst, 0, nbytes);
  }

  void fill(const Array&, const Scalar&) override {}
  void arange(const Array&, double, double) override {}
  void random(const Array&, backend::RandomKind, uint64_t, uint64_t) override {}
  void copy(const Array&, const Array&, backend::CopyMode) override {}
  void unary(backend::UnaryOp, const Array&, const Array&, double, double) override {}
  void binary(backend::BinaryOp, const Array&, const Array&, const Array&) override {}
  void where(const Array&, const Array&, const Array&, const Array&) override {}
  void reduce(backend::ReduceOp, const Array&, const Array&, uint64_t) override {}
  void arg_reduce(backend::ArgReduceOp, const Array&, const Array&, int) override {}
  void scan(backend::ScanOp, const Array&, const Array&, int) override {}
  void sort(const Array&, const Array&, const Array&, bool) override {}
  void gather(const Array&, const Array&, const Array&, int) override {}
  void scatter(const Array&, const Array&, const Array&, int, backend::ScatterReduce) override {}
  void matmul(const Array&, const Array&, const Array&) override {}

  // Every fused kernel "exists" (and does nothing), so ops take their shortest path.
  bool supports(backend::Capability) const override { return true; }
  void conv(const Array&, const Array&, const Array&, const backend::ConvSpec&) override {}
  void conv_backward_input(const Array&, const Array&, const Array&,
                           const backend::ConvSpec&) override {}
  void conv_backward_kernel(const Array&, const Array&, const Array&,
                            const backend::ConvSpec&) override {}
  void pool(const Array&, const Array&, const backend::PoolSpec&) override {}
  void pool_backward(const Array&, const Array&, const Array&, const Array&,
                     const backend::PoolSpec&) override {}
  void softmax(const Array&, const Array&, int, bool) override {}
  void int8_matmul(const Array&, const Array&, const Array&) override {}
  void quantize_rows_int8(const Array&, const Array&, const Array&, float, float,
                          float) override {}
  void int8_linear(const Array&, const Array&, const Array&, const Array&, const Array&,
                   const Array&, backend::Activation) override {}
  void int4_matmul(const Array&, const Array&, const Array&, const Array&, const Array&,
                   const Array&) override {}
  void linear(const Array&, const Array&, const Array&, const Array&,
              backend::Activation) override {}
  void conv_bias_activation(const Array&, const Array&, const Array&, const Array&,
                            backend::Activation, const backend::ConvSpec&) override {}
  void bias_activation_backward(const Array&, const Array&, const Array&, const Array&,
                                backend::Activation) override {}
  void conv_bias_activation_max_pool(const Array&, const Array&, const Array&, const Array&,
                                     const Array&, backend::Activation,
                                     const backend::ConvSpec&) override {}
  void conv_bias_activation_max_pool_backward(const Array&, const Array&, const Array&,
                                              const Array&, const Array&, const Array&,
                                              const Array&, const Array&, backend::Activation,
                                              const backend::ConvSpec&) override {}
  bool cholesky(const Array&, const Array&, bool) override { return true; }
  void lu_factor(const Array&, const Array&, const Array&) override {}
  void triangular_solve(const Array&, const Array&, const Array&, bool, bool, bool,
                        bool) override {}
  void qr(const Array&, const Array&, const Array&, bool) override {}
  void svd(const Array&, const Array&, const Array&, const Array&, bool) override {}
  void eigh(const Array&, const Array&, const Array&, bool) override {}
  bool eig(const Array&, const Array&, const Array&) override { return true; }
};

}  // namespace keras::symbolic

namespace keras::backend::detail {

std::unique_ptr<Backend> make_symbolic_backend() {
  return std::make_unique<symbolic::SymbolicBackend>();
}

}  // namespace keras::backend::detail
