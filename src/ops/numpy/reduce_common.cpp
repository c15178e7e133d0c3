#include "ops/numpy/reduce_common.h"

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/views.h"

namespace keras::ops::detail {

std::vector<int> mask_axes(uint64_t mask, int ndim) {
  std::vector<int> axes;
  for (int d = 0; d < ndim; ++d)
    if (mask >> d & 1) axes.push_back(d);
  return axes;
}

int64_t reduced_count(const Shape& shape, uint64_t mask) {
  int64_t n = 1;
  for (int d = 0; d < shape.rank(); ++d)
    if (mask >> d & 1) n *= shape[d];
  return n;
}

Tensor finish_reduce(const Tensor& kept, const Shape& x_shape, uint64_t mask, bool keepdims) {
  return keepdims ? kept : reshape(kept, reduced_shape(x_shape, mask, false));
}

Tensor expand_reduced(const Tensor& g, const Shape& x_shape, uint64_t mask) {
  return broadcast_to(reshape(g, reduced_shape(x_shape, mask, true)), x_shape);
}

std::optional<int> resolve_axis(std::string_view op, std::optional<int> axis, int ndim) {
  if (!axis) return std::nullopt;
  return normalize_axis(op, *axis, ndim);
}

Tensor isnan_mask(const Tensor& x) {
  if (is_complex(x.dtype())) return isnan(x);  // either part NaN
  if (!is_floating(x.dtype())) return filled(x.shape(), false, DType::Bool, x.backend());
  return run_unary(backend::UnaryOp::IsNan, x);
}

Tensor replace_nan(const Tensor& x, double value) {
  if (!is_floating(x.dtype()) && !is_complex(x.dtype())) return x;
  return where(isnan_mask(x), value, x);
}

Tensor move_axis_last(const Tensor& x, int axis) {
  if (axis == x.ndim() - 1) return x;
  std::vector<int> perm;
  for (int d = 0; d < x.ndim(); ++d)
    if (d != axis) perm.push_back(d);
  perm.push_back(axis);
  return transpose(x, perm);
}

Tensor move_last_axis_to(const Tensor& x, int axis) {
  const int n = x.ndim();
  if (axis == n - 1) return x;
  std::vector<int> perm;
  for (int d = 0, src = 0; d < n; ++d) perm.push_back(d == axis ? n - 1 : src++);
  return transpose(x, perm);
}

Tensor flip_axis(const Tensor& x, int axis) {
  const int64_t n = x.shape()[axis];
  if (n <= 1) return x;
  auto spec = full_spec(x.shape());
  spec[axis] = AxisIndex{n - 1, -1, n, true};
  return basic_view(x, spec);
}

Tensor slice_axis(const Tensor& x, int axis, int64_t start, int64_t stop) {
  auto spec = full_spec(x.shape());
  const int64_t len = std::max<int64_t>(0, stop - start);
  spec[axis] = AxisIndex{len > 0 ? start : 0, 1, len, true};
  return basic_view(x, spec);
}

Tensor merge_axes_last(const Tensor& x, uint64_t mask) {
  std::vector<int> perm;
  Shape shape;
  int64_t merged = 1;
  for (int d = 0; d < x.ndim(); ++d)
    if (!(mask >> d & 1)) {
      perm.push_back(d);
      shape.push_back(x.shape()[d]);
    }
  for (int d = 0; d < x.ndim(); ++d)
    if (mask >> d & 1) {
      perm.push_back(d);
      merged *= x.shape()[d];
    }
  shape.push_back(merged);
  return reshape(transpose(x, perm), shape);
}

Tensor split_axes_last(const Tensor& t, const Shape& x_shape, uint64_t mask) {
  std::vector<int> perm;
  Shape shape;
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < x_shape.rank(); ++d)
      if (static_cast<int>(mask >> d & 1) == pass) {
        perm.push_back(d);
        shape.push_back(x_shape[d]);
      }
  std::vector<int> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int>(i);
  return transpose(reshape(t, shape), inverse);
}


std::pair<Tensor, Tensor> sort_last(const Tensor& x, bool descending, bool want_values,
                                    bool want_indices) {
  auto& be = x.backend();
  const bool record = want_values && autograd::should_record(x);
  Tensor values = want_values ? empty(x.shape(), x.dtype(), be) : Tensor();
  Tensor indices = want_indices || record ? empty(x.shape(), DType::Int64, be) : Tensor();
  if (x.size() > 0)
    be.sort(values.defined() ? values.array() : Array{},
            indices.defined() ? indices.array() : Array{}, x.array(), descending);
  if (record) {
    Shape xs = x.shape();
    const int last = x.ndim() - 1;
    autograd::record("sort", {x}, values,
                     [indices, last, xs](const autograd::Context&, const Tensor& g) {
                       return TensorList{scatter_add_along(g, indices, last, xs)};
                     });
  }
  return {values, want_indices ? indices : Tensor()};
}

}  // namespace keras::ops::detail
