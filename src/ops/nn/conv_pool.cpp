#include "ops/nn/conv_pool.h"

#include <vector>

#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/conv_ops.h"
#include "ops/nn/epilogue.h"
#include "ops/nn/pool_ops.h"
#include "ops/nn/spatial_args.h"

namespace keras::ops::detail {

using backend::Activation;
using backend::Capability;

namespace {

backend::PoolSpec max_pool_2x2_spec() {
  backend::PoolSpec s;
  s.kind = backend::PoolKind::Max;
  s.spatial_dims = 2;
  s.window = {2, 2};
  s.strides = {2, 2};
  s.pad_before = {0, 0};
  s.pad_after = {0, 0};
  s.channels_last = true;
  return s;
}

bool fusable(const Tensor& x, const Tensor& kernel, const Tensor& bias,
             const backend::ConvSpec& spec, const Shape& z_shape) {
  auto& be = x.backend();
  return spec.spatial_dims == 2 && spec.channels_last && x.size() > 0 && z_shape[1] >= 2 &&
         z_shape[2] >= 2 && z_shape[3] > 0 &&
         (x.dtype() == DType::Float32 || x.dtype() == DType::Float64) &&
         kernel.dtype() == x.dtype() && &kernel.backend() == &be &&
         (!bias.defined() || (bias.dtype() == x.dtype() && &bias.backend() == &be &&
                              bias.shape() == Shape{z_shape[3]})) &&
         backend::use_fused(be, Capability::ConvPool);
}

// The gradients of conv_bias_activation_max_pool_nd for x, kernel and bias (as needed).
TensorList conv_pool_grads(const autograd::Context& ctx, const Tensor& g, const Tensor& x,
                           const Tensor& kernel, const Tensor& bias, const Tensor& argmax,
                           Activation activation, const backend::ConvSpec& spec) {
  const bool want_dx = ctx.needs_input_grad(0), want_dk = ctx.needs_input_grad(1);
  const bool want_db = bias.defined() && ctx.needs_input_grad(2);
  if (autograd::should_record(ctx.output(), g)) {
    // A gradient of a gradient: the unfused ops, recomputed, so this is differentiable.
    const backend::PoolSpec pool = max_pool_2x2_spec();
    Tensor z = conv_bias_activation_nd(x, kernel, bias, activation, spec);
    Tensor dpool = pool_grad(g, z, pool_nd(z, pool), pool);
    EpilogueGrad e = bias_activation_grad(z, dpool, activation, want_db);
    return TensorList{want_dx ? conv_input_grad(e.dz, kernel, spec, x.shape()) : Tensor(),
                      want_dk ? conv_kernel_grad(x, e.dz, spec, kernel.shape()) : Tensor(), e.db};
  }
  auto& be = g.backend();
  Tensor dx, dk, db;
  if (want_dx) dx = empty(x.shape(), x.dtype(), be);
  if (want_dk) dk = empty(kernel.shape(), kernel.dtype(), be);
  if (want_db) db = empty(bias.shape(), g.dtype(), be);
  auto array = [](const Tensor& t) { return t.defined() ? t.array() : backend::Array{}; };
  be.conv_bias_activation_max_pool_backward(array(dx), array(dk), array(db), x.array(),
                                            kernel.array(), ctx.output().array(), g.array(),
                                            argmax.array(), activation, spec);
  return TensorList{dx, dk, db};
}

}  // namespace

Tensor conv_bias_activation_max_pool_nd(const Tensor& x, const Tensor& kernel, const Tensor& bias,
                                        Activation activation, const backend::ConvSpec& spec) {
  const Shape z_shape = conv_output_shape(x.shape(), kernel.shape(), spec);
  if (!fusable(x, kernel, bias, spec, z_shape))  // the two ops, with max_pool's own checks
    return max_pool(conv_bias_activation_nd(x, kernel, bias, activation, spec), 2,
                    {.data_format = spec.channels_last ? "channels_last" : "channels_first"});
  auto& be = x.backend();
  const Shape y_shape{z_shape[0], z_shape[1] / 2, z_shape[2] / 2, z_shape[3]};
  Tensor y = empty(y_shape, x.dtype(), be);
  Tensor argmax = empty(y_shape, DType::UInt8, be);
  be.conv_bias_activation_max_pool(y.array(), argmax.array(), x.array(), kernel.array(),
                                   bias.defined() ? bias.array() : backend::Array{}, activation,
                                   spec);
  if (autograd::should_record(x, kernel, bias))
    autograd::record(
        "conv_bias_activation_max_pool", {x, kernel, bias}, y,
        [x, kernel, bias, argmax, activation, spec](const autograd::Context& ctx, const Tensor& g) {
          return conv_pool_grads(ctx, g, x, kernel, bias, argmax, activation, spec);
        });
  return y;
}

}  // namespace keras::ops::detail
