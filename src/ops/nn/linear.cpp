#include "ops/nn/linear.h"

#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/epilogue.h"

namespace keras::ops::detail {
namespace {

// The fused kernel takes a matrix of float rows and a kernel on the same backend.
bool fused_linear_applies(const Tensor& x, const Tensor& w, const Tensor& bias) {
  auto& be = x.backend();
  return x.ndim() == 2 && w.ndim() == 2 && is_floating(x.dtype()) && w.dtype() == x.dtype() &&
         &w.backend() == &be && (!bias.defined() || &bias.backend() == &be) &&
         backend::use_fused(be, backend::Capability::Linear);
}

}  // namespace

Tensor linear_bias_activation(const Tensor& x, const Tensor& w, const Tensor& bias,
                              backend::Activation activation) {
  if (!fused_linear_applies(x, w, bias)) return bias_activation(matmul(x, w), bias, activation);
  auto& be = x.backend();
  Tensor out = empty(Shape{x.shape()[0], w.shape()[1]}, x.dtype(), be);
  be.linear(out.array(), x.array(), w.array(), bias.defined() ? bias.array() : backend::Array{},
            activation);
  if (autograd::should_record(x, w, bias)) {
    autograd::record("linear", {x, w, bias}, out,
                     [x, w, activation, has_bias = bias.defined()](const autograd::Context& ctx,
                                                                   const Tensor& g) {
                       EpilogueGrad e = bias_activation_grad(
                           ctx.output(), g, activation, has_bias && ctx.needs_input_grad(2));
                       return TensorList{
                           ctx.needs_input_grad(0) ? matmul(e.dz, transpose(w)) : Tensor(),
                           ctx.needs_input_grad(1) ? matmul(transpose(x), e.dz) : Tensor(),
                           e.db};
                     });
  }
  return out;
}

Tensor linear_bias_activation(const Tensor& x, const Tensor& w, const Tensor& bias,
                              const activations::Activation& activation) {
  if (auto act = fusable_activation(activation)) return linear_bias_activation(x, w, bias, *act);
  Tensor y = matmul(x, w);
  if (bias.defined()) y = add(y, bias);
  return activation(y);
}

}  // namespace keras::ops::detail
