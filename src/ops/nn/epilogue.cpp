#include "ops/nn/epilogue.h"

#include <vector>

#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops::detail {

using backend::Activation;

std::optional<Activation> fusable_activation(const activations::Activation& a) {
  if (a.is_linear()) return Activation::None;
  if (a.name() == "relu") return Activation::Relu;
  if (a.name() == "sigmoid") return Activation::Sigmoid;
  if (a.name() == "tanh") return Activation::Tanh;
  return std::nullopt;
}

Tensor bias_activation(const Tensor& z, const Tensor& bias, Activation activation) {
  Tensor y = bias.defined() ? add(z, bias) : z;
  switch (activation) {
    case Activation::Relu: return relu(y);
    case Activation::Sigmoid: return sigmoid(y);
    case Activation::Tanh: return tanh(y);
    case Activation::Gelu: return gelu(y, false);
    case Activation::Silu: return silu(y);
    case Activation::Relu6:
      return relu6(y);
    case Activation::None: break;
  }
  return y;
}

namespace {

// act'(z) * g written from y = act(z), with ops.
Tensor activation_grad_ops(Activation act, const Tensor& y, const Tensor& g) {
  switch (act) {
    case Activation::Relu: return where(greater(y, 0.0), g, 0.0);
    case Activation::Sigmoid: return multiply(g, multiply(y, subtract(1.0, y)));
    case Activation::Tanh: return multiply(g, subtract(1.0, square(y)));
    default: return g;
  }
}

bool fused_grad(const Tensor& y, const Tensor& g, Activation act) {
  auto& be = y.backend();
  return (act == Activation::Relu || act == Activation::Sigmoid || act == Activation::Tanh) &&
         (y.dtype() == DType::Float32 || y.dtype() == DType::Float64) && y.ndim() >= 1 &&
         y.size() > 0 && g.dtype() == y.dtype() && g.shape() == y.shape() &&
         &g.backend() == &be && !autograd::should_record(y, g) &&
         backend::use_fused(be, backend::Capability::Epilogue);
}

}  // namespace

EpilogueGrad bias_activation_grad(const Tensor& y, const Tensor& g, Activation activation,
                                  bool want_db) {
  std::vector<int> axes;  // every axis but the last
  for (int a = 0; a + 1 < y.ndim(); ++a) axes.push_back(a);
  if (activation == Activation::None)
    return {g, want_db ? (axes.empty() ? g : sum(g, axes)) : Tensor()};
  if (fused_grad(y, g, activation)) {
    auto& be = y.backend();
    EpilogueGrad r;
    r.dz = empty(y.shape(), y.dtype(), be);
    if (want_db) r.db = empty(Shape{y.shape()[y.ndim() - 1]}, y.dtype(), be);
    be.bias_activation_backward(r.dz.array(), want_db ? r.db.array() : backend::Array{},
                                y.array(), g.array(), activation);
    return r;
  }
  EpilogueGrad r;
  r.dz = activation_grad_ops(activation, y, g);
  if (want_db) r.db = axes.empty() ? r.dz : sum(r.dz, axes);
  return r;
}

}  // namespace keras::ops::detail
