#pragma once
// A bias-and-activation epilogue, activation(z + bias), as the fused Dense and Conv layers run
// it: the ops that compose it, and its gradient through the backend's fused kernel
// (Capability::Epilogue: one pass for dz and db) or through ops.

#include <optional>

#include "keras/activations/activation.h"
#include "keras/backend/primitives.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// The backend::Activation of `a` when a fused kernel can apply it and its derivative can be
/// written from the output alone (none, relu, sigmoid, tanh); nullopt for any other.
std::optional<backend::Activation> fusable_activation(const activations::Activation& a);

/// activation(z + bias) with ops (bias undefined: none; it broadcasts over the last axis).
Tensor bias_activation(const Tensor& z, const Tensor& bias, backend::Activation activation);

struct EpilogueGrad {
  Tensor dz;  // the gradient with respect to z
  Tensor db;  // the bias gradient: dz summed over every axis but the last (when asked for)
};

/// The gradient of y = activation(z + bias) from y and g = dL/dy. With gradients being
/// recorded (a gradient of a gradient) it runs ops, so it is differentiable in turn.
EpilogueGrad bias_activation_grad(const Tensor& y, const Tensor& g, backend::Activation activation,
                                  bool want_db);

}  // namespace keras::ops::detail
