#include "keras/backend/backend.h"

#include <string>

#include "keras/core/errors.h"

namespace keras::backend {

bool Backend::supports(Capability) const { return false; }

namespace {
thread_local bool force_decompositions = false;
}  // namespace

bool use_fused(const Backend& backend, Capability cap) {
  return !force_decompositions && backend.supports(cap);
}

DecomposeScope::DecomposeScope() : previous_(force_decompositions) {
  force_decompositions = true;
}

DecomposeScope::~DecomposeScope() { force_decompositions = previous_; }

void Backend::unsupported(std::string_view what) const {
  throw NotImplementedError("The '" + std::string(name()) + "' backend does not implement " +
                            std::string(what) + ".");
}

void Backend::elementwise(const ElementwiseChain&, std::span<const Array>) {
  unsupported("the fused capability elementwise");
}
void Backend::conv(const Array&, const Array&, const Array&, const ConvSpec&) {
  unsupported("the fused capability conv");
}
void Backend::conv_backward_input(const Array&, const Array&, const Array&, const ConvSpec&) {
  unsupported("the fused capability conv_backward_input");
}
void Backend::conv_backward_kernel(const Array&, const Array&, const Array&, const ConvSpec&) {
  unsupported("the fused capability conv_backward_kernel");
}
void Backend::pool(const Array&, const Array&, const PoolSpec&) {
  unsupported("the fused capability pool");
}
void Backend::pool_backward(const Array&, const Array&, const Array&, const Array&,
                            const PoolSpec&) {
  unsupported("the fused capability pool_backward");
}
void Backend::softmax(const Array&, const Array&, int, bool) {
  unsupported("the fused capability softmax");
}
void Backend::int8_matmul(const Array&, const Array&, const Array&) {
  unsupported("int8_matmul");
}
void Backend::quantize_rows_int8(const Array&, const Array&, const Array&, float, float, float) {
  unsupported("quantize_rows_int8");
}
void Backend::int8_linear(const Array&, const Array&, const Array&, const Array&, const Array&,
                          const Array&, Activation) {
  unsupported("int8_linear");
}
void Backend::int4_matmul(const Array&, const Array&, const Array&, const Array&, const Array&,
                          const Array&) {
  unsupported("int4_matmul");
}

void Backend::linear(const Array&, const Array&, const Array&, const Array&, Activation) {
  unsupported("the fused capability linear");
}
void Backend::conv_bias_activation(const Array&, const Array&, const Array&, const Array&,
                                   Activation, const ConvSpec&) {
  unsupported("the fused capability conv_bias_activation");
}
void Backend::bias_activation_backward(const Array&, const Array&, const Array&, const Array&,
                                       Activation) {
  unsupported("the fused capability bias_activation_backward");
}
void Backend::conv_bias_activation_max_pool(const Array&, const Array&, const Array&,
                                            const Array&, const Array&, Activation,
                                            const ConvSpec&) {
  unsupported("the fused capability conv_bias_activation_max_pool");
}
void Backend::conv_bias_activation_max_pool_backward(const Array&, const Array&, const Array&,
                                                     const Array&, const Array&, const Array&,
                                                     const Array&, const Array&, Activation,
                                                     const ConvSpec&) {
  unsupported("the fused capability conv_bias_activation_max_pool_backward");
}
bool Backend::cholesky(const Array&, const Array&, bool) { unsupported("linalg cholesky"); }
void Backend::lu_factor(const Array&, const Array&, const Array&) {
  unsupported("linalg lu_factor");
}
void Backend::triangular_solve(const Array&, const Array&, const Array&, bool, bool, bool,
                               bool) {
  unsupported("linalg triangular_solve");
}
void Backend::qr(const Array&, const Array&, const Array&, bool) { unsupported("linalg qr"); }
void Backend::svd(const Array&, const Array&, const Array&, const Array&, bool) {
  unsupported("linalg svd");
}
bool Backend::eig(const Array&, const Array&, const Array&) { unsupported("linalg eig"); }
void Backend::eigh(const Array&, const Array&, const Array&, bool) {
  unsupported("linalg eigh");
}

}  // namespace keras::backend
