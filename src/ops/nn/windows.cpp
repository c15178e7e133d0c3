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

Tensor filled(const Shape& shape, DType dtype, backend::Backend& b, const Scalar& value) {
  Tensor t = empty(shape, dtype, b);
  if (t.size() > 0) b.fill(t.array(), value);
  return t;
}

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
  Tensor out = filled(x_shape, w.dtype(), w.backend(), 0);
  Spatial o = out_extent(w.shape(), d);
  if (w.size() > 0) {
    // The destination overlaps itself where windows do; the copy primitive sums those.
    Tensor view = window_geometry_view(out, o, g);
    w.backend().copy(view.array(), w.array(), backend::CopyMode::Add);
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
  const int d = static_cast<int>(before.size());
  bool any = false;
  for (int i = 0; i < d; ++i) any = any || before[i] != 0 || after[i] != 0;
  if (!any) return x;
  Shape shape = x.shape();
  for (int i = 0; i < d; ++i) shape[1 + i] += before[i] + after[i];
  Tensor out = filled(shape, x.dtype(), x.backend(), value);
  if (x.size() > 0) {
    int64_t offset = 0;
    for (int i = 0; i < d; ++i) offset += before[i] * out.strides()[1 + i];
    Tensor interior = make_view(out, x.shape(), out.strides(), offset);
    x.backend().copy(interior.array(), x.array());
  }
  if (autograd::should_record(x)) {
    Spatial extent(x.shape().begin() + 1, x.shape().begin() + 1 + d);
    autograd::record("pad", {x}, out, [before, extent](const autograd::Context&, const Tensor& g) {
      return TensorList{crop_spatial(g, before, extent)};
    });
  }
  return out;
}

Tensor crop_spatial(const Tensor& x, const Spatial& begin, const Spatial& extent) {
  std::vector<AxisIndex> spec(static_cast<size_t>(x.ndim()));
  for (int a = 0; a < x.ndim(); ++a) spec[a].length = x.shape()[a];
  for (size_t i = 0; i < begin.size(); ++i) spec[1 + i] = AxisIndex{begin[i], 1, extent[i], true};
  return basic_view(x, spec);
}

namespace {

Tensor index_tensor(const std::vector<int64_t>& indices, backend::Backend& b) {
  Tensor t = empty(Shape{static_cast<int64_t>(indices.size())}, DType::Int64, b);
  if (!indices.empty())
    b.copy_from_host(*t.array().storage, 0, indices.data(), indices.size() * sizeof(int64_t));
  return t;
}

// The 1-d index tensor read along `axis` of `shape` (stride 0 elsewhere).
backend::Array index_along(const Tensor& index, const Shape& shape, int axis) {
  backend::Array a = index.array();
  a.shape = shape;
  a.strides = Strides(shape.size(), 0);
  a.strides[axis] = 1;
  return a;
}

Tensor take_embed(const Tensor& g, const Tensor& index, const Shape& x_shape, int axis);

Tensor take_with(const Tensor& x, const Tensor& index, int axis) {
  Shape shape = x.shape();
  shape[axis] = index.size();
  Tensor out = empty(shape, x.dtype(), x.backend());
  if (out.size() > 0)
    x.backend().gather(out.array(), x.array(), index_along(index, shape, axis), axis);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record("take", {x}, out,
                     [index, xs, axis](const autograd::Context&, const Tensor& g) {
                       return TensorList{take_embed(g, index, xs, axis)};
                     });
  }
  return out;
}

Tensor take_embed(const Tensor& g, const Tensor& index, const Shape& x_shape, int axis) {
  Tensor out = filled(x_shape, g.dtype(), g.backend(), 0);
  if (g.size() > 0)
    g.backend().scatter(out.array(), index_along(index, g.shape(), axis), g.array(), axis,
                        backend::ScatterReduce::Add);
  if (autograd::should_record(g)) {
    autograd::record("take_grad", {g}, out,
                     [index, axis](const autograd::Context&, const Tensor& gg) {
                       return TensorList{take_with(gg, index, axis)};
                     });
  }
  return out;
}

}  // namespace

Tensor take_axis(const Tensor& x, const std::vector<int64_t>& indices, int axis) {
  return take_with(x, index_tensor(indices, x.backend()), axis);
}

}  // namespace keras::ops::detail
