// The fused capabilities: convolution, pooling, softmax and linear, mapped to ATen.
//
// Keras's layouts are channels-last with kernels (*k, C/groups, O); ATen's are channels-first
// with kernels (O, C/groups, *k). Both are permutations (views, no copy). ATen pads
// symmetrically only, so asymmetric ("same" with an even window) padding is applied explicitly
// first; average pooling divides by the count of real inputs in each window, as Keras does,
// computed by pooling a mask.

#include <algorithm>
#include <limits>
#include <vector>

#include "aten_views.h"
#include "keras/core/errors.h"
#include "parallel_gemm.h"
#include "parallel_sums.h"
#include "torch_backend.h"

namespace keras::torch_backend {
namespace {

using backend::ConvSpec;
using backend::PoolKind;
using backend::PoolSpec;

std::vector<int64_t> to_vector(const SmallVector<int64_t, 3>& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

// (N, *s, C) -> (N, C, *s) when the data is channels-last.
at::Tensor channels_first(const at::Tensor& t, bool channels_last) {
  if (!channels_last) return t;
  std::vector<int64_t> order{0, t.dim() - 1};
  for (int64_t d = 1; d < t.dim() - 1; ++d) order.push_back(d);
  return t.permute(order);
}

// (N, C, *s) -> (N, *s, C) when the data is wanted channels-last.
at::Tensor channels_back(const at::Tensor& t, bool channels_last) {
  if (!channels_last) return t;
  std::vector<int64_t> order{0};
  for (int64_t d = 2; d < t.dim(); ++d) order.push_back(d);
  order.push_back(1);
  return t.permute(order);
}

// (*k, C/g, O) -> (O, C/g, *k).
at::Tensor aten_kernel(const at::Tensor& k, int spatial) {
  std::vector<int64_t> order{spatial + 1, spatial};
  for (int64_t d = 0; d < spatial; ++d) order.push_back(d);
  return k.permute(order);
}

// (O, C/g, *k) -> (*k, C/g, O).
at::Tensor keras_kernel(const at::Tensor& k, int spatial) {
  std::vector<int64_t> order;
  for (int64_t d = 0; d < spatial; ++d) order.push_back(d + 2);
  order.push_back(1);
  order.push_back(0);
  return k.permute(order);
}

bool symmetric(const SmallVector<int64_t, 3>& before, const SmallVector<int64_t, 3>& after) {
  for (size_t i = 0; i < before.size(); ++i)
    if (before[i] != after[i]) return false;
  return true;
}

// Pads the spatial axes of a channels-first tensor (ATen lists the last axis first).
at::Tensor pad_spatial(const at::Tensor& t, const SmallVector<int64_t, 3>& before,
                       const SmallVector<int64_t, 3>& after, double value) {
  std::vector<int64_t> pads;
  bool any = false;
  for (int i = static_cast<int>(before.size()) - 1; i >= 0; --i) {
    pads.push_back(before[i]);
    pads.push_back(after[i]);
    any = any || before[i] != 0 || after[i] != 0;
  }
  return any ? at::constant_pad_nd(t, pads, value) : t;  // ATen would copy for no padding
}

// Removes what pad_spatial added.
at::Tensor unpad_spatial(at::Tensor t, const SmallVector<int64_t, 3>& before,
                         const SmallVector<int64_t, 3>& after) {
  for (size_t i = 0; i < before.size(); ++i) {
    const int64_t d = static_cast<int64_t>(i) + 2;
    t = t.narrow(d, before[i], t.size(d) - before[i] - after[i]);
  }
  return t;
}

struct ConvGeometry {
  std::vector<int64_t> stride, dilation, padding, output_padding;
  bool explicit_pad;  // asymmetric padding applied by pad_spatial, ATen's padding is 0
};

ConvGeometry geometry_of(const ConvSpec& spec) {
  ConvGeometry g;
  g.stride = to_vector(spec.strides);
  g.dilation = to_vector(spec.dilation);
  g.explicit_pad = !symmetric(spec.pad_before, spec.pad_after);
  g.padding = g.explicit_pad ? std::vector<int64_t>(spec.spatial_dims, 0) : to_vector(spec.pad_before);
  g.output_padding.assign(spec.spatial_dims, 0);
  return g;
}

// Pooling runs as 2-D or 3-D; a 1-D pooling gets a unit height axis.
struct PoolView {
  std::vector<int64_t> window, stride;
  bool lifted;  // 1-D lifted to 2-D
};

PoolView pool_view(const PoolSpec& spec) {
  PoolView v{to_vector(spec.window), to_vector(spec.strides), spec.spatial_dims == 1};
  if (v.lifted) {
    v.window.insert(v.window.begin(), 1);
    v.stride.insert(v.stride.begin(), 1);
  }
  return v;
}

at::Tensor lift(const at::Tensor& t, const PoolView& v) { return v.lifted ? t.unsqueeze(2) : t; }
at::Tensor lower(const at::Tensor& t, const PoolView& v) { return v.lifted ? t.squeeze(2) : t; }

std::tuple<at::Tensor, at::Tensor> max_pool_with_indices(const at::Tensor& x, const PoolView& v) {
  const std::vector<int64_t> zero(v.window.size(), 0), one(v.window.size(), 1);
  if (v.window.size() == 2)
    return at::max_pool2d_with_indices(x, v.window, v.stride, zero, one, false);
  return at::max_pool3d_with_indices(x, v.window, v.stride, zero, one, false);
}

// Sum over each window (ATen's average with a divisor of 1).
at::Tensor sum_pool(const at::Tensor& x, const PoolView& v) {
  const std::vector<int64_t> zero(v.window.size(), 0);
  if (v.window.size() == 2) return at::avg_pool2d(x, v.window, v.stride, zero, false, true, 1);
  return at::avg_pool3d(x, v.window, v.stride, zero, false, true, 1);
}

at::Tensor sum_pool_backward(const at::Tensor& dy, const at::Tensor& x, const PoolView& v) {
  const std::vector<int64_t> zero(v.window.size(), 0);
  if (v.window.size() == 2)
    return at::avg_pool2d_backward(dy, x, v.window, v.stride, zero, false, true, 1);
  return at::avg_pool3d_backward(dy, x, v.window, v.stride, zero, false, true, 1);
}

// The number of real (unpadded) inputs in each window, shaped like the pooled output.
at::Tensor window_counts(const at::Tensor& x, const PoolSpec& spec, const PoolView& v) {
  std::vector<int64_t> sizes(x.sizes().begin(), x.sizes().end());
  sizes[0] = 1;
  sizes[1] = 1;
  at::Tensor mask = pad_spatial(at::ones(sizes, x.options()), spec.pad_before, spec.pad_after, 0);
  return sum_pool(lift(mask, v), v);
}

// ATen's float32 GELU uses a lower-precision erf; computing in float64 and rounding once
// agrees with the cpu backend to an ulp.
at::Tensor exact_gelu(const at::Tensor& y) {
  return y.scalar_type() == at::kFloat ? at::gelu(y.to(at::kDouble)).to(at::kFloat) : at::gelu(y);
}

// ATen pools floats only: integers pool in float64 (exact up to 2^53).
at::Tensor pool_input(const Array& x) {
  at::Tensor t = compute_view(x);
  return t.is_floating_point() ? t : t.to(at::kDouble);
}

}  // namespace

void TorchBackend::conv(const Array& out, const Array& x, const Array& kernel,
                        const ConvSpec& spec) {
  if (out.numel() == 0) return;
  single_threaded_blas();  // ATen splits convolutions over its own pool
  const ConvGeometry g = geometry_of(spec);
  at::Tensor input = channels_first(compute_view(x), spec.channels_last);
  if (g.explicit_pad) input = pad_spatial(input, spec.pad_before, spec.pad_after, 0);
  at::Tensor weight = aten_kernel(compute_view(kernel), spec.spatial_dims);
  at::Tensor y = at::convolution(input, weight, {}, g.stride, g.padding, g.dilation, false,
                                 g.output_padding, spec.groups);
  assign(out, channels_back(y, spec.channels_last));
}

void TorchBackend::conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                                       const ConvSpec& spec) {
  if (dx.numel() == 0) return;
  single_threaded_blas();  // ATen splits convolutions over its own pool
  const ConvGeometry g = geometry_of(spec);
  at::Tensor grad = channels_first(compute_view(dy), spec.channels_last);
  at::Tensor weight = aten_kernel(compute_view(kernel), spec.spatial_dims);
  // ATen reads only the input's shape for this gradient.
  std::vector<int64_t> in_sizes = sizes_of(dx);
  if (spec.channels_last) {
    in_sizes.insert(in_sizes.begin() + 1, in_sizes.back());
    in_sizes.pop_back();
  }
  if (g.explicit_pad)
    for (int i = 0; i < spec.spatial_dims; ++i) in_sizes[i + 2] += spec.pad_before[i] + spec.pad_after[i];
  at::Tensor input = at::empty(in_sizes, grad.options());
  at::Tensor dinput = std::get<0>(at::convolution_backward(
      grad, input, weight, c10::nullopt, g.stride, g.padding, g.dilation, false,
      g.output_padding, spec.groups, {true, false, false}));
  if (g.explicit_pad) dinput = unpad_spatial(dinput, spec.pad_before, spec.pad_after);
  assign(dx, channels_back(dinput, spec.channels_last));
}

void TorchBackend::conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                                        const ConvSpec& spec) {
  if (dkernel.numel() == 0) return;
  single_threaded_blas();  // ATen splits convolutions over its own pool
  const ConvGeometry g = geometry_of(spec);
  at::Tensor input = channels_first(compute_view(x), spec.channels_last);
  if (g.explicit_pad) input = pad_spatial(input, spec.pad_before, spec.pad_after, 0);
  at::Tensor grad = channels_first(compute_view(dy), spec.channels_last);
  std::vector<int64_t> k_sizes = sizes_of(dkernel);  // (*k, C/g, O) -> (O, C/g, *k)
  std::vector<int64_t> w_sizes{k_sizes[spec.spatial_dims + 1], k_sizes[spec.spatial_dims]};
  for (int i = 0; i < spec.spatial_dims; ++i) w_sizes.push_back(k_sizes[i]);
  at::Tensor weight = at::empty(w_sizes, grad.options());
  at::Tensor dweight = std::get<1>(at::convolution_backward(
      grad, input, weight, c10::nullopt, g.stride, g.padding, g.dilation, false,
      g.output_padding, spec.groups, {false, true, false}));
  assign(dkernel, keras_kernel(dweight, spec.spatial_dims));
}

void TorchBackend::pool(const Array& out, const Array& x, const PoolSpec& spec) {
  if (out.numel() == 0) return;
  const PoolView v = pool_view(spec);
  at::Tensor input = channels_first(pool_input(x), spec.channels_last);
  at::Tensor y;
  if (spec.kind == PoolKind::Max) {
    at::Tensor padded = pad_spatial(input, spec.pad_before, spec.pad_after,
                                    -std::numeric_limits<double>::infinity());
    y = std::get<0>(max_pool_with_indices(lift(padded, v), v));
  } else {
    at::Tensor padded = pad_spatial(input, spec.pad_before, spec.pad_after, 0);
    y = sum_pool(lift(padded, v), v) / window_counts(input, spec, v);
  }
  assign(out, channels_back(lower(y, v), spec.channels_last));
}

void TorchBackend::pool_backward(const Array& dx, const Array& dy, const Array& x,
                                 const Array&, const PoolSpec& spec) {
  if (dx.numel() == 0) return;
  const PoolView v = pool_view(spec);
  at::Tensor input = channels_first(pool_input(x), spec.channels_last);
  at::Tensor grad = lift(channels_first(compute_view(dy), spec.channels_last), v);
  at::Tensor dpadded;
  if (spec.kind == PoolKind::Max) {
    at::Tensor padded = lift(pad_spatial(input, spec.pad_before, spec.pad_after,
                                         -std::numeric_limits<double>::infinity()), v);
    at::Tensor indices = std::get<1>(max_pool_with_indices(padded, v));
    const std::vector<int64_t> zero(v.window.size(), 0), one(v.window.size(), 1);
    const bool unpadded = padded.sizes() == input.sizes();
    if (at::Tensor dst = out_view(dx, {&dy, &x}); v.window.size() == 2 && !v.lifted && unpadded &&
                                                  dst.defined() &&
                                                  dst.scalar_type() == grad.scalar_type()) {
      // Straight into dx (through its channels-first view) when nothing is padded or lifted.
      at::Tensor d = channels_first(dst, spec.channels_last);
      at::max_pool2d_with_indices_backward_out(d, grad, padded, v.window, v.stride, zero, one,
                                               false, indices);
      return;
    }
    dpadded = v.window.size() == 2
                  ? at::max_pool2d_with_indices_backward(grad, padded, v.window, v.stride, zero,
                                                         one, false, indices)
                  : at::max_pool3d_with_indices_backward(grad, padded, v.window, v.stride, zero,
                                                         one, false, indices);
  } else {
    at::Tensor padded = lift(pad_spatial(input, spec.pad_before, spec.pad_after, 0), v);
    dpadded = sum_pool_backward(grad / window_counts(input, spec, v), padded, v);
  }
  at::Tensor dinput = unpad_spatial(lower(dpadded, v), spec.pad_before, spec.pad_after);
  assign(dx, channels_back(dinput, spec.channels_last));
}

void TorchBackend::softmax(const Array& out, const Array& x, int axis, bool log) {
  if (out.numel() == 0) return;
  // In float64 for float32 input, as the cpu backend's sums of exponentials are.
  at::Tensor t = compute_view(x);
  const at::ScalarType wide = t.is_floating_point() ? at::kDouble : t.scalar_type();
  assign(out, log ? at::log_softmax(t, axis, wide) : at::softmax(t, axis, wide));
}

namespace {

at::Tensor activate(const at::Tensor& y, backend::Activation activation) {
  switch (activation) {
    case backend::Activation::None: return y;
    case backend::Activation::Relu: return at::clamp_min(y, 0);  // NaN propagates
    case backend::Activation::Sigmoid: return at::sigmoid(y);
    case backend::Activation::Tanh: return at::tanh(y);
    case backend::Activation::Gelu: return exact_gelu(y);
    case backend::Activation::Silu: return at::silu(y);
    case backend::Activation::Relu6:
      return at::clamp(y, 0, 6);  // NaN propagates
  }
  return y;
}

// dz summed over every axis but the last in float64, as ops::sum sums float32.
at::Tensor sum_rows_in_float64(const at::Tensor& dz) {
  const at::Tensor rows = dz.reshape({-1, dz.size(-1)});
  if (rows.scalar_type() == at::kFloat && rows.is_contiguous() && rows.is_cpu())
    return sum_float_rows_in_float64(rows);
  return rows.to(at::kDouble).sum(0);
}

// Applies the activations ATen has in-place forms of (with activate()'s arithmetic) to `y`;
// false for the ones activate() computes in float64 (tanh, GELU).
bool activate_in_place(at::Tensor& y, backend::Activation activation) {
  switch (activation) {
    case backend::Activation::None:
      return true;
    case backend::Activation::Relu:
      y.clamp_min_(0);
      return true;
    case backend::Activation::Sigmoid:
      y.sigmoid_();
      return true;
    case backend::Activation::Silu:
      at::silu_(y);
      return true;
    case backend::Activation::Relu6:
      y.clamp_(0, 6);
      return true;
    default:
      return false;
  }
}

}  // namespace

void TorchBackend::linear(const Array& out, const Array& x, const Array& w, const Array& bias,
                          backend::Activation activation) {
  if (out.numel() == 0) return;
  at::Tensor a = compute_view(x), b = compute_view(w);
  at::Tensor c = bias.storage ? compute_view(bias) : at::Tensor();
  // The product straight into out when ATen can write there, then the activation in place.
  const at::ScalarType t = a.scalar_type();
  if (at::Tensor dst = out_view(out, {&x, &w, &bias}); dst.defined() && dst.scalar_type() == t &&
                                                       b.scalar_type() == t &&
                                                       (!c.defined() || c.scalar_type() == t)) {
    c.defined() ? addmm_into(dst, c, a, b) : matmul_into(dst, a, b);
    if (!activate_in_place(dst, activation)) assign(out, activate(dst, activation));
    return;
  }
  at::Tensor y = c.defined() ? at::addmm(c, a, b) : at::mm(a, b);
  assign(out, activate(y, activation));
}

void TorchBackend::conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                                        const Array& bias, backend::Activation activation,
                                        const backend::ConvSpec& spec) {
  if (!spec.channels_last) unsupported("conv_bias_activation with channels_first");
  conv(out, x, kernel, spec);
  if (out.numel() == 0 || (!bias.storage && activation == backend::Activation::None)) return;
  at::Tensor c = bias.storage ? compute_view(bias) : at::Tensor();  // channels: the last axis
  // Bias and activation in place when ATen can write into out.
  if (at::Tensor dst = out_view(out, {&x, &kernel, &bias});
      dst.defined() && (!c.defined() || c.scalar_type() == dst.scalar_type())) {
    if (c.defined()) dst.add_(c);
    if (!activate_in_place(dst, activation)) assign(out, activate(dst, activation));
    return;
  }
  at::Tensor y = compute_view(out);
  if (c.defined()) y = y + c;
  assign(out, activate(y, activation));
}

void TorchBackend::bias_activation_backward(const Array& dz, const Array& db, const Array& y,
                                            const Array& g, backend::Activation activation) {
  if (dz.numel() > 0) {
    // The arithmetic of the ops this replaces, so fused and unfused layers agree.
    at::Tensor yv = compute_view(y), gv = compute_view(g);
    at::Tensor dst = out_view(dz, {&y, &g});
    const auto dense_float = [&](const at::Tensor& t) {
      return t.defined() && t.is_cpu() && t.scalar_type() == at::kFloat && t.is_contiguous() &&
             t.sizes() == yv.sizes();
    };
    if (activation == backend::Activation::Relu && dense_float(dst) && dense_float(yv) &&
        dense_float(gv)) {
      // One pass: dz written and, while each row is in cache, summed into db.
      at::Tensor sums = relu_backward_and_sums(dst, yv, gv, db.storage != nullptr);
      if (db.storage) assign(db, sums);
      return;
    }
    switch (activation) {
      case backend::Activation::None:
        break;
      case backend::Activation::Relu:  // 0 also where y is NaN, as the unfused ops give
        gv = at::where(yv > 0, gv, at::zeros_like(gv));
        break;
      case backend::Activation::Sigmoid:
        gv = gv * (yv * at::rsub(yv, 1));
        break;
      case backend::Activation::Tanh:
        gv = gv * at::rsub(yv * yv, 1);
        break;
      default:
        unsupported("bias_activation_backward of gelu, silu or relu6 (inference-only activations)");
    }
    assign(dz, gv);
  }
  if (!db.storage) return;
  // db sums dz (as stored) over every axis but the last, in float64 like the sums of ops::sum.
  at::Tensor d = compute_view(dz);
  assign(db, d.dim() == 1 ? d.to(at::kDouble) : sum_rows_in_float64(d));
}

}  // namespace keras::torch_backend
