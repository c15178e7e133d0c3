#include "ops/nn/conv_ops.h"

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/epilogue.h"
#include "ops/nn/windows.h"

namespace keras::ops::detail {

using backend::Capability;
using backend::ConvSpec;

namespace {

// ---- the decomposition: channels_last windows times the kernel as one matrix per group ----

struct ConvDims {
  int d = 0;
  int64_t n = 0, c = 0, o = 0, groups = 1, k_taps = 1, positions = 1;
  Spatial kernel, out;
};

ConvDims dims_of(const Shape& x_cl, const Shape& kernel, const Shape& y_cl, const ConvSpec& s) {
  ConvDims m;
  m.d = s.spatial_dims;
  m.n = x_cl[0];
  m.c = x_cl[m.d + 1];
  m.o = kernel[m.d + 1];
  m.groups = s.groups;
  for (int i = 0; i < m.d; ++i) {
    m.kernel.push_back(kernel[i]);
    m.out.push_back(y_cl[1 + i]);
    m.k_taps *= kernel[i];
    m.positions *= y_cl[1 + i];
  }
  return m;
}

WindowGeometry geometry_of(const ConvSpec& s, const Spatial& kernel) {
  return WindowGeometry{kernel, s.strides, s.dilation};
}

Tensor to_cl(const Tensor& x, const ConvSpec& s) {
  return s.channels_last ? x : transpose(x, to_channels_last_perm(x.ndim()));
}

Tensor from_cl(const Tensor& x, const ConvSpec& s) {
  return s.channels_last ? x : transpose(x, to_channels_first_perm(x.ndim()));
}

Shape cl_shape(const Shape& shape, const ConvSpec& s) {
  if (s.channels_last) return shape;
  Shape out;
  for (int a : to_channels_last_perm(shape.rank())) out.push_back(shape[a]);
  return out;
}

// The patches of x (channels_last) as (groups, N * P, K * C / groups): im2col.
Tensor columns(const Tensor& x_cl, const ConvSpec& s, const ConvDims& m) {
  Tensor xp = pad_spatial(x_cl, s.pad_before, s.pad_after, 0);
  Tensor w = window_view(xp, m.out, geometry_of(s, m.kernel));  // (N, *o, *k, C)
  const int64_t cg = m.c / m.groups;
  Shape split(w.shape().begin(), w.shape().end() - 1);
  split.push_back(m.groups);
  split.push_back(cg);
  w = reshape(w, split);
  std::vector<int> perm{2 * m.d + 1};
  for (int a = 0; a <= 2 * m.d; ++a) perm.push_back(a);
  perm.push_back(2 * m.d + 2);
  return reshape(transpose(w, perm), Shape{m.groups, m.n * m.positions, m.k_taps * cg});
}

// The kernel (*k, C / groups, O) as (groups, K * C / groups, O / groups).
Tensor kernel_matrices(const Tensor& kernel, const ConvDims& m) {
  const int64_t cg = m.c / m.groups;
  return transpose(reshape(kernel, Shape{m.k_taps * cg, m.groups, m.o / m.groups}), {1, 0, 2});
}

// dy (channels_last) as (groups, N * P, O / groups).
Tensor output_matrices(const Tensor& dy_cl, const ConvDims& m) {
  return transpose(reshape(dy_cl, Shape{m.n * m.positions, m.groups, m.o / m.groups}), {1, 0, 2});
}

Tensor conv_decomposed(const Tensor& x, const Tensor& kernel, const ConvSpec& s,
                       const Shape& y_shape) {
  Tensor x_cl = to_cl(x, s);
  Shape y_cl = cl_shape(y_shape, s);
  ConvDims m = dims_of(x_cl.shape(), kernel.shape(), y_cl, s);
  Tensor y = matmul(columns(x_cl, s, m), kernel_matrices(kernel, m));  // (G, N * P, O / G)
  return from_cl(reshape(transpose(y, {1, 0, 2}), y_cl), s);
}

Tensor input_grad_decomposed(const Tensor& dy, const Tensor& kernel, const ConvSpec& s,
                             const Shape& x_shape) {
  Tensor dy_cl = to_cl(dy, s);
  Shape x_cl = cl_shape(x_shape, s);
  ConvDims m = dims_of(x_cl, kernel.shape(), dy_cl.shape(), s);
  const int64_t cg = m.c / m.groups;
  // Columns of the gradient, (G, N * P, K * Cg), back to (N, *o, *k, C): col2im's input.
  Tensor cols = matmul(output_matrices(dy_cl, m), transpose(kernel_matrices(kernel, m), {0, 2, 1}));
  Shape split{m.groups, m.n};
  for (int64_t v : m.out) split.push_back(v);
  for (int64_t v : m.kernel) split.push_back(v);
  split.push_back(cg);
  std::vector<int> perm;
  for (int a = 1; a <= 2 * m.d + 1; ++a) perm.push_back(a);
  perm.push_back(0);
  perm.push_back(2 * m.d + 2);
  Shape windows(split.begin() + 1, split.end() - 1);
  windows.push_back(m.c);
  Tensor w = reshape(transpose(reshape(cols, split), perm), windows);
  Shape padded = x_cl;
  for (int i = 0; i < m.d; ++i) padded[1 + i] += s.pad_before[i] + s.pad_after[i];
  Tensor full = window_embed(w, padded, geometry_of(s, m.kernel));
  Spatial extent(x_cl.begin() + 1, x_cl.begin() + 1 + m.d);
  return from_cl(crop_spatial(full, s.pad_before, extent), s);
}

Tensor kernel_grad_decomposed(const Tensor& x, const Tensor& dy, const ConvSpec& s,
                              const Shape& kernel_shape) {
  Tensor x_cl = to_cl(x, s), dy_cl = to_cl(dy, s);
  ConvDims m = dims_of(x_cl.shape(), kernel_shape, dy_cl.shape(), s);
  Tensor dk = matmul(transpose(columns(x_cl, s, m), {0, 2, 1}), output_matrices(dy_cl, m));
  return reshape(transpose(dk, {1, 0, 2}), kernel_shape);  // (K * Cg, G, O / G) -> kernel
}

}  // namespace

Tensor conv_nd(const Tensor& x, const Tensor& kernel, const ConvSpec& spec) {
  auto& be = x.backend();
  const Shape y_shape = conv_output_shape(x.shape(), kernel.shape(), spec);
  Tensor y;
  if (y_shape.numel() == 0 || x.size() == 0) {
    y = zeros_on(y_shape, x.dtype(), x.backend());
  } else if (backend::use_fused(be, Capability::Conv)) {
    y = empty(y_shape, x.dtype(), be);
    be.conv(y.array(), x.array(), kernel.array(), spec);
  } else {
    NoGradScope no_grad;
    y = conv_decomposed(x, kernel, spec, y_shape);
  }
  if (autograd::should_record(x, kernel)) {
    autograd::record("conv", {x, kernel}, y,
                     [x, kernel, spec](const autograd::Context& ctx, const Tensor& g) {
                       Tensor dx, dk;
                       if (ctx.needs_input_grad(0))
                         dx = conv_input_grad(g, kernel, spec, x.shape());
                       if (ctx.needs_input_grad(1))
                         dk = conv_kernel_grad(x, g, spec, kernel.shape());
                       return TensorList{dx, dk};
                     });
  }
  return y;
}

Tensor conv_input_grad(const Tensor& dy, const Tensor& kernel, const ConvSpec& spec,
                       const Shape& x_shape) {
  auto& be = dy.backend();
  Tensor dx;
  if (x_shape.numel() == 0 || dy.size() == 0 || kernel.size() == 0) {
    dx = zeros_on(x_shape, dy.dtype(), dy.backend());
  } else if (backend::use_fused(be, Capability::Conv)) {
    dx = empty(x_shape, dy.dtype(), be);
    be.conv_backward_input(dx.array(), dy.array(), kernel.array(), spec);
  } else {
    NoGradScope no_grad;
    dx = input_grad_decomposed(dy, kernel, spec, x_shape);
  }
  if (autograd::should_record(dy, kernel)) {
    // dx is bilinear in (dy, kernel): <g, dx> = <conv(g, kernel), dy> = <kernel, K(g, dy)>.
    autograd::record("conv_input_grad", {dy, kernel}, dx,
                     [dy, kernel, spec](const autograd::Context& ctx, const Tensor& g) {
                       Tensor gdy, gk;
                       if (ctx.needs_input_grad(0)) gdy = conv_nd(g, kernel, spec);
                       if (ctx.needs_input_grad(1))
                         gk = conv_kernel_grad(g, dy, spec, kernel.shape());
                       return TensorList{gdy, gk};
                     });
  }
  return dx;
}

Tensor conv_kernel_grad(const Tensor& x, const Tensor& dy, const ConvSpec& spec,
                        const Shape& kernel_shape) {
  auto& be = x.backend();
  Tensor dk;
  if (kernel_shape.numel() == 0 || x.size() == 0 || dy.size() == 0) {
    dk = zeros_on(kernel_shape, x.dtype(), x.backend());
  } else if (backend::use_fused(be, Capability::Conv)) {
    dk = empty(kernel_shape, x.dtype(), be);
    be.conv_backward_kernel(dk.array(), x.array(), dy.array(), spec);
  } else {
    NoGradScope no_grad;
    dk = kernel_grad_decomposed(x, dy, spec, kernel_shape);
  }
  if (autograd::should_record(x, dy)) {
    // dk is bilinear in (x, dy): <g, dk> = <conv(x, g), dy> = <x, conv_input_grad(dy, g)>.
    autograd::record("conv_kernel_grad", {x, dy}, dk,
                     [x, dy, spec](const autograd::Context& ctx, const Tensor& g) {
                       Tensor gx, gdy;
                       if (ctx.needs_input_grad(0)) gx = conv_input_grad(dy, g, spec, x.shape());
                       if (ctx.needs_input_grad(1)) gdy = conv_nd(x, g, spec);
                       return TensorList{gx, gdy};
                     });
  }
  return dk;
}

Tensor conv_bias_activation_nd(const Tensor& x, const Tensor& kernel, const Tensor& bias,
                               backend::Activation activation, const ConvSpec& spec) {
  auto& be = x.backend();
  const Shape y_shape = conv_output_shape(x.shape(), kernel.shape(), spec);
  const bool fused =
      spec.channels_last && y_shape.numel() > 0 && x.size() > 0 &&
      (x.dtype() == DType::Float32 || x.dtype() == DType::Float64) &&
      (!bias.defined() || (bias.dtype() == x.dtype() && &bias.backend() == &be &&
                           bias.shape() == Shape{y_shape[y_shape.rank() - 1]})) &&
      backend::use_fused(be, Capability::Conv) && backend::use_fused(be, Capability::Epilogue);
  if (!fused) return bias_activation(conv_nd(x, kernel, spec), bias, activation);
  Tensor y = empty(y_shape, x.dtype(), be);
  be.conv_bias_activation(y.array(), x.array(), kernel.array(),
                          bias.defined() ? bias.array() : backend::Array{}, activation, spec);
  if (autograd::should_record(x, kernel, bias)) {
    autograd::record("conv_bias_activation", {x, kernel, bias}, y,
                     [x, kernel, spec, activation, has_bias = bias.defined()](
                         const autograd::Context& ctx, const Tensor& g) {
                       EpilogueGrad e = bias_activation_grad(
                           ctx.output(), g, activation, has_bias && ctx.needs_input_grad(2));
                       Tensor dx, dk;
                       if (ctx.needs_input_grad(0))
                         dx = conv_input_grad(e.dz, kernel, spec, x.shape());
                       if (ctx.needs_input_grad(1))
                         dk = conv_kernel_grad(x, e.dz, spec, kernel.shape());
                       return TensorList{dx, dk, e.db};
                     });
  }
  return y;
}

}  // namespace keras::ops::detail
