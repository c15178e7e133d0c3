#pragma once
// Pooling as differentiable ops, each running the backend's fused kernel (Capability::Pool)
// or a decomposition into window views and reductions:
//   pool_nd    y  = max or average pooling of x
//   pool_grad  dx = the gradient of pool_nd given dy (max: to the first maximum of each window)
// pool_grad is itself differentiable with respect to dy (average: pooling again; max: reading
// the gradient at each window's maximum), which gives higher-order gradients.

#include "keras/backend/primitives.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// Pooling of x (layout per spec; padding amounts non-negative, windows fit).
Tensor pool_nd(const Tensor& x, const backend::PoolSpec& spec);
/// The gradient of pool_nd with respect to x, given dy, x and y = pool_nd(x, spec).
Tensor pool_grad(const Tensor& dy, const Tensor& x, const Tensor& y, const backend::PoolSpec& spec);

}  // namespace keras::ops::detail
