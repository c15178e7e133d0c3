#include "ops/nn/pool_ops.h"

#include <algorithm>
#include <limits>

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/spatial_args.h"
#include "ops/nn/windows.h"

namespace keras::ops::detail {

using backend::Capability;
using backend::PoolKind;
using backend::PoolSpec;

namespace {

// ---- the decomposition, on channels_last views ------------------------------------------

Tensor to_cl(const Tensor& x, const PoolSpec& s) {
  return s.channels_last ? x : transpose(x, to_channels_last_perm(x.ndim()));
}

Tensor from_cl(const Tensor& x, const PoolSpec& s) {
  return s.channels_last ? x : transpose(x, to_channels_first_perm(x.ndim()));
}

WindowGeometry geometry_of(const PoolSpec& s) {
  return WindowGeometry{s.window, s.strides, Spatial(static_cast<size_t>(s.spatial_dims), 1)};
}

// The value padding takes: -inf (or the lowest integer) for max, 0 for average.
Scalar pad_value(const PoolSpec& s, DType dtype) {
  if (s.kind == PoolKind::Average) return Scalar(0);
  return visit_dtype(dtype, [](auto tag) -> Scalar {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>)
      return Scalar(static_cast<int64_t>(std::numeric_limits<T>::lowest()));
    else
      return Scalar(-std::numeric_limits<double>::infinity());
  });
}

// (N, *o, *k, C) windows of x_cl, padded for the pooling kind.
Tensor windows_of(const Tensor& x_cl, const PoolSpec& s, const Spatial& out) {
  Tensor xp = pad_spatial(x_cl, s.pad_before, s.pad_after, pad_value(s, x_cl.dtype()));
  return window_view(xp, out, geometry_of(s));
}

std::vector<int> window_axes(int d) {
  std::vector<int> axes;
  for (int i = 0; i < d; ++i) axes.push_back(1 + d + i);
  return axes;
}

// y (N, *o, C) with a unit axis per window axis: (N, *o, 1..., C), ready to broadcast.
Tensor expand_windows(const Tensor& y_cl, int d) {
  return expand_dims(y_cl, window_axes(d));
}

bool has_padding(const PoolSpec& s) {
  for (int i = 0; i < s.spatial_dims; ++i)
    if (s.pad_before[i] || s.pad_after[i]) return true;
  return false;
}

// The number of input elements in each window, (1, *o, 1), or a scalar without padding.
Tensor window_counts(const PoolSpec& s, const Spatial& in, const Spatial& out, const Tensor& like) {
  const int d = s.spatial_dims;
  if (!has_padding(s)) {
    double k = 1;
    for (int i = 0; i < d; ++i) k *= static_cast<double>(s.window[i]);
    return scalar_tensor(k, like.dtype(), like.backend());
  }
  // Separable: the count is the product of the per-dimension counts.
  std::vector<std::vector<double>> per_dim(static_cast<size_t>(d));
  for (int i = 0; i < d; ++i)
    for (int64_t o = 0; o < out[i]; ++o) {
      const int64_t start = o * s.strides[i] - s.pad_before[i];
      const int64_t stop = std::min(start + s.window[i], in[i]);
      per_dim[i].push_back(static_cast<double>(stop - std::max<int64_t>(start, 0)));
    }
  std::vector<double> counts{1.0};
  for (int i = 0; i < d; ++i) {
    std::vector<double> next;
    for (double c : counts)
      for (double v : per_dim[i]) next.push_back(c * v);
    counts = std::move(next);
  }
  Shape shape{1};
  for (int64_t o : out) shape.push_back(o);
  shape.push_back(1);
  return cast(Tensor::from_vector(counts, shape, like.backend_name()), like.dtype());
}

// One-hot (x's dtype) of the first maximum of every window, (N, *o, *k, C).
Tensor first_max_mask(const Tensor& x_cl, const PoolSpec& s, const Spatial& out) {
  const int d = s.spatial_dims;
  Tensor w = windows_of(x_cl, s, out);
  std::vector<int> perm;  // (N, *o, C, *k)
  for (int a = 0; a <= d; ++a) perm.push_back(a);
  perm.push_back(2 * d + 1);
  for (int a = d + 1; a <= 2 * d; ++a) perm.push_back(a);
  Tensor taps = transpose(w, perm);
  Shape grouped(taps.shape().begin(), taps.shape().begin() + d + 2);
  int64_t k = 1;
  for (int i = 0; i < d; ++i) k *= s.window[i];
  grouped.push_back(k);
  Tensor flat = reshape(taps, grouped);
  auto& be = x_cl.backend();
  Shape index_shape = grouped;
  index_shape[index_shape.rank() - 1] = 1;
  Tensor index = empty(index_shape, DType::Int64, be);
  if (index.size() > 0)
    be.arg_reduce(backend::ArgReduceOp::ArgMax, index.array(), flat.array(), d + 2);
  Tensor iota = empty(Shape{k}, DType::Int64, be);
  be.arange(iota.array(), 0, 1);
  Tensor hit = cast(equal(index, iota), x_cl.dtype());
  std::vector<int> back;  // (N, *o, C, *k) -> (N, *o, *k, C)
  for (int a = 0; a <= d; ++a) back.push_back(a);
  for (int a = d + 2; a <= 2 * d + 1; ++a) back.push_back(a);
  back.push_back(d + 1);
  return transpose(reshape(hit, taps.shape()), back);
}

Tensor pool_decomposed(const Tensor& x, const PoolSpec& s, const Shape& y_shape) {
  const int d = s.spatial_dims;
  Tensor x_cl = to_cl(x, s);
  Spatial out = spatial_of(y_shape, s.channels_last);
  Tensor w = windows_of(x_cl, s, out);
  if (s.kind == PoolKind::Max) return from_cl(max(w, window_axes(d)), s);
  Tensor total = sum(w, window_axes(d));
  return from_cl(
      divide(total, window_counts(s, spatial_of(x.shape(), s.channels_last), out, total)), s);
}

Tensor grad_decomposed(const Tensor& dy, const Tensor& x, const PoolSpec& s) {
  const int d = s.spatial_dims;
  Tensor x_cl = to_cl(x, s), dy_cl = to_cl(dy, s);
  Spatial in = spatial_of(x_cl.shape(), true), out = spatial_of(dy_cl.shape(), true);
  Tensor w;  // the gradient of every window tap, (N, *o, *k, C)
  if (s.kind == PoolKind::Max) {
    w = multiply(first_max_mask(x_cl, s, out), expand_windows(dy_cl, d));
  } else {
    Tensor per = divide(dy_cl, window_counts(s, in, out, dy_cl));
    Shape ws = per.shape();
    for (int i = 0; i < d; ++i) ws.insert(static_cast<size_t>(1 + d + i), s.window[i]);
    w = broadcast_to(expand_windows(per, d), ws);
  }
  Shape padded = x_cl.shape();
  for (int i = 0; i < d; ++i) padded[1 + i] += s.pad_before[i] + s.pad_after[i];
  Tensor full = window_embed(w, padded, geometry_of(s));
  return from_cl(crop_spatial(full, s.pad_before, in), s);
}

// dy read at each window's first maximum: the adjoint of max pooling's pool_grad in dy.
Tensor max_select(const Tensor& g, const Tensor& x, const Tensor& y, const PoolSpec& s) {
  Tensor out;
  {
    NoGradScope no_grad;
    const int d = s.spatial_dims;
    Tensor x_cl = to_cl(x, s), g_cl = to_cl(g, s);
    Spatial o = spatial_of(y.shape(), s.channels_last);
    PoolSpec zero_pad = s;
    zero_pad.kind = PoolKind::Average;  // pad g with zeros
    Tensor taps = multiply(first_max_mask(x_cl, s, o), windows_of(g_cl, zero_pad, o));
    out = from_cl(sum(taps, window_axes(d)), s);
  }
  if (autograd::should_record(g)) {
    autograd::record("max_pool_select", {g}, out,
                     [x, y, s](const autograd::Context&, const Tensor& gg) {
                       return TensorList{pool_grad(gg, x, y, s)};
                     });
  }
  return out;
}

}  // namespace

Tensor pool_nd(const Tensor& x, const PoolSpec& spec) {
  auto& be = x.backend();
  const Shape y_shape = pool_output_shape(x.shape(), spec);
  Tensor y;
  if (y_shape.numel() == 0) {
    y = zeros_on(y_shape, x.dtype(), x.backend());
  } else if (backend::use_fused(be, Capability::Pool)) {
    y = empty(y_shape, x.dtype(), be);
    be.pool(y.array(), x.array(), spec);
  } else {
    NoGradScope no_grad;
    y = pool_decomposed(x, spec, y_shape);
  }
  if (is_floating(x.dtype()) && autograd::should_record(x)) {
    autograd::record(spec.kind == PoolKind::Max ? "max_pool" : "average_pool", {x}, y,
                     [x, spec](const autograd::Context& ctx, const Tensor& g) {
                       return TensorList{pool_grad(g, x, ctx.output(), spec)};
                     });
  }
  return y;
}

Tensor pool_grad(const Tensor& dy, const Tensor& x, const Tensor& y, const PoolSpec& spec) {
  auto& be = dy.backend();
  Tensor dx;
  if (x.size() == 0 || dy.size() == 0) {
    dx = zeros_on(x.shape(), dy.dtype(), dy.backend());
  } else if (backend::use_fused(be, Capability::Pool)) {
    dx = empty(x.shape(), dy.dtype(), be);
    be.pool_backward(dx.array(), dy.array(), x.array(), y.array(), spec);
  } else {
    NoGradScope no_grad;
    dx = grad_decomposed(dy, x, spec);
  }
  // Linear in dy; with respect to x the gradient is zero almost everywhere (no edge to x).
  if (autograd::should_record(dy)) {
    autograd::record("pool_grad", {dy}, dx,
                     [x, y, spec](const autograd::Context&, const Tensor& g) {
                       return TensorList{spec.kind == PoolKind::Max ? max_select(g, x, y, spec)
                                                                    : pool_nd(g, spec)};
                     });
  }
  return dx;
}

}  // namespace keras::ops::detail
