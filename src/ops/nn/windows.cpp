#include "ops/nn/windows.h"

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops::detail {

namespace {

// The geometry of window_view over a tensor with x's strides and offset.
Tensor window_geometry_view(const Tensor& x, const Spatial& out, const WindowGeometry& g) {
  const int d = static_cast<int>(out.size());
  const Strides& xs = x.strides();
  Shape shape{x.shape()[0]};
  Strides strides{xs[0]};
  for (int i = 0; i < d; ++i) {
    shape.push_back(out[i]);
    strides.push_back(xs[1 + i] * g.strides[i]);
  }
  for (int i = 0; i < d; ++i) {
    shape.push_back(g.window[i]);
    strides.push_back(xs[1 + i] * g.dilation[i]);
  }
  shape.push_back(x.shape()[d + 1]);
  strides.push_back(xs[d + 1]);
  for (int i = 0; i < d; ++i)
    check(out[i] == 0 ||
              (out[i] - 1) * g.strides[i] + (g.window[i] - 1) * g.dilation[i] < x.shape()[1 + i],
          "window_view: windows of ", tuple_string(g.window), " do not fit in shape ", x.shape(),
          ".");
  return make_view(x, shape, strides, x.offset());
}

Spatial out_extent(const Shape& windows, int d) {
  return Spatial(windows.begin() + 1, windows.begin() + 1 + d);
}

}  // namespace

Tensor window_view(const Tensor& x, const Spatial& out, const WindowGeometry& g) {
  Tensor w = window_geometry_view(x, out, g);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record("window_view", {x}, w, [xs, g](const autograd::Context&, const Tensor& gw) {
      return TensorList{window_embed(gw, xs, g)};
    });
  }
  return w;
}

Tensor window_embed(const Tensor& w, const Shape& x_shape, const WindowGeometry& g) {
  const int d = static_cast<int>(g.window.size());
  Tensor out = filled(x_shape, 0, w.dtype(), w.backend());
  Spatial o = out_extent(w.shape(), d);
  if (w.size() > 0) {
    // The destination overlaps itself where windows do; the copy primitive sums those.
    Tensor view = window_geometry_view(out, o, g);
    detail::copy_into(w.backend(), view.array(), w.array(), backend::CopyMode::Add);
  }
  if (autograd::should_record(w)) {
    autograd::record("window_embed", {w}, out, [o, g](const autograd::Context&, const Tensor& gg) {
      return TensorList{window_view(gg, o, g)};
    });
  }
  return out;
}

Tensor pad_spatial(const Tensor& x, const Spatial& before, const Spatial& after,
                   const Scalar& value) {
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
  bool any = false;
  for (size_t i = 0; i < before.size(); ++i) {
    widths[1 + i] = {before[i], after[i]};
    any = any || before[i] != 0 || after[i] != 0;
  }
  return any ? ops::pad(x, widths, "constant", value) : x;
}

Tensor crop_spatial(const Tensor& x, const Spatial& begin, const Spatial& extent) {
  std::vector<AxisIndex> spec(static_cast<size_t>(x.ndim()));
  for (int a = 0; a < x.ndim(); ++a) spec[a].length = x.shape()[a];
  for (size_t i = 0; i < begin.size(); ++i) spec[1 + i] = AxisIndex{begin[i], 1, extent[i], true};
  return basic_view(x, spec);
}


Tensor take_axis(const Tensor& x, const std::vector<int64_t>& indices, int axis) {
  return index_select(x, index_tensor(indices, x), axis);
}

}  // namespace keras::ops::detail
