// Ops that return views sharing storage: reshape, transpose, expand_dims, squeeze,
// broadcast_to, ravel, and basic slicing (Tensor::slice, Tensor::operator[]).

#include <numeric>
#include <optional>

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {

namespace detail {

std::optional<Strides> view_strides(const Shape& old_shape, const Strides& old_strides,
                                    const Shape& new_shape) {
  if (old_shape.numel() == 0 || old_shape.rank() == 0) return contiguous_strides(new_shape);
  Strides out(new_shape.size());
  int view_d = new_shape.rank() - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int tensor_d = old_shape.rank() - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_shape[tensor_d];
    // At the start of a chunk of axes that are contiguous with each other, lay the new axes
    // over it.
    if (tensor_d == 0 || (old_shape[tensor_d - 1] != 1 &&
                          old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= new_shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

namespace {

// The view geometry of a spec over a tensor with the given strides and offset.
void view_geometry(const Tensor& x, const std::vector<AxisIndex>& spec, Shape& shape,
                   Strides& strides, int64_t& offset) {
  offset = x.offset();
  for (size_t d = 0; d < spec.size(); ++d) {
    const AxisIndex& a = spec[d];
    if (a.length > 0 || !a.keep) offset += a.start * x.strides()[d];
    if (a.keep) {
      shape.push_back(a.length);
      strides.push_back(x.strides()[d] * a.step);
    }
  }
}

}  // namespace

Tensor spec_view(const Tensor& x, const std::vector<AxisIndex>& spec) {
  Shape shape;
  Strides strides;
  int64_t offset;
  view_geometry(x, spec, shape, strides, offset);
  return make_view(x, shape, strides, offset);
}

Tensor basic_view(const Tensor& x, const std::vector<AxisIndex>& spec) {
  Tensor out = spec_view(x, spec);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record("slice", {x}, out, [xs, spec](const autograd::Context&, const Tensor& g) {
      return TensorList{basic_embed(g, xs, spec)};
    });
  }
  return out;
}

Tensor basic_embed(const Tensor& g, const Shape& shape, const std::vector<AxisIndex>& spec) {
  // zeros on g's backend (not the current one), with g written through the window.
  Tensor out = zeros_on(shape, g.dtype(), g.backend());
  if (g.size() > 0) copy_into(g.backend(), spec_view(out, spec).array(), g.array());
  if (autograd::should_record(g)) {
    autograd::record("slice_grad", {g}, out, [spec](const autograd::Context&, const Tensor& gg) {
      return TensorList{basic_view(gg, spec)};
    });
  }
  return out;
}

}  // namespace detail

inline namespace numpy {

namespace {

// Links a view to its input with the rule "reshape the gradient back".
void record_reshape_back(std::string_view op, const Tensor& x, Tensor& out) {
  if (!autograd::should_record(x)) return;
  Shape xs = x.shape();
  autograd::record(op, {x}, out, [xs](const autograd::Context&, const Tensor& g) {
    return TensorList{reshape(g, xs)};
  });
}

Shape resolve_reshape(const Tensor& x, const Shape& requested) {
  Shape shape = requested;
  int infer = -1;
  int64_t known = 1;
  for (int d = 0; d < shape.rank(); ++d) {
    if (shape[d] == -1) {
      check(infer < 0, "reshape: only one dimension can be -1; got new shape ", requested, ".");
      infer = d;
    } else {
      check(shape[d] >= 0, "reshape: invalid dimension ", shape[d], " in new shape ", requested,
            ".");
      known *= shape[d];
    }
  }
  if (infer >= 0) {
    check(known != 0 && x.size() % known == 0, "reshape: cannot reshape a tensor of shape ",
          x.shape(), " (", x.size(), " elements) into shape ", requested, ".");
    shape[infer] = x.size() / known;
  }
  check(shape.numel() == x.size(), "reshape: cannot reshape a tensor of shape ", x.shape(), " (",
        x.size(), " elements) into shape ", requested, " (", shape.numel(), " elements).");
  return shape;
}

}  // namespace

Tensor reshape(const Tensor& x, const Shape& new_shape) {
  check(x.defined(), "reshape: the input is an undefined tensor.");
  Shape shape = resolve_reshape(x, new_shape);
  if (shape == x.shape()) return x;
  auto strides = detail::view_strides(x.shape(), x.strides(), shape);
  Tensor out = strides ? detail::make_view(x, shape, *strides, x.offset())
                       : detail::make_view(detail::run_copy(x, x.dtype()), shape,
                                           contiguous_strides(shape), 0);
  record_reshape_back("reshape", x, out);
  return out;
}

Tensor ravel(const Tensor& x) { return reshape(x, Shape{x.size()}); }

Tensor transpose(const Tensor& x, const std::vector<int>& axes) {
  constexpr std::string_view op = "transpose";
  check(x.defined(), op, ": the input is an undefined tensor.");
  const int n = x.ndim();
  std::vector<int> perm(static_cast<size_t>(n));
  if (axes.empty()) {
    for (int i = 0; i < n; ++i) perm[i] = n - 1 - i;
  } else {
    check(static_cast<int>(axes.size()) == n, op, ": axes has ", axes.size(),
          " entries but the tensor has rank ", n, ".");
    std::vector<bool> seen(static_cast<size_t>(n), false);
    for (int i = 0; i < n; ++i) {
      int a = detail::normalize_axis(op, axes[i], n);
      check(!seen[a], op, ": axis ", axes[i], " is repeated in axes.");
      seen[a] = true;
      perm[i] = a;
    }
  }
  Shape shape;
  Strides strides;
  for (int a : perm) {
    shape.push_back(x.shape()[a]);
    strides.push_back(x.strides()[a]);
  }
  Tensor out = detail::make_view(x, shape, strides, x.offset());
  if (autograd::should_record(x)) {
    std::vector<int> inverse(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) inverse[perm[i]] = i;
    autograd::record(op, {x}, out, [inverse](const autograd::Context&, const Tensor& g) {
      return TensorList{transpose(g, inverse)};
    });
  }
  return out;
}

Tensor expand_dims(const Tensor& x, const Axes& axis) {
  constexpr std::string_view op = "expand_dims";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(!axis.is_none(), op, ": axis must be given.");
  const int out_rank = x.ndim() + static_cast<int>(axis.list().size());
  uint64_t mask = detail::axes_mask(op, axis, out_rank);
  Shape shape;
  Strides strides;
  int src = 0;
  for (int d = 0; d < out_rank; ++d) {
    if (mask >> d & 1) {
      shape.push_back(1);
      strides.push_back(src < x.ndim() ? x.strides()[src] * x.shape()[src] : 1);
    } else {
      shape.push_back(x.shape()[src]);
      strides.push_back(x.strides()[src]);
      ++src;
    }
  }
  Tensor out = detail::make_view(x, shape, strides, x.offset());
  record_reshape_back(op, x, out);
  return out;
}

Tensor squeeze(const Tensor& x, const Axes& axis) {
  constexpr std::string_view op = "squeeze";
  check(x.defined(), op, ": the input is an undefined tensor.");
  uint64_t mask = 0;
  if (axis.is_none()) {
    for (int d = 0; d < x.ndim(); ++d)
      if (x.shape()[d] == 1) mask |= uint64_t{1} << d;
  } else {
    mask = detail::axes_mask(op, axis, x.ndim());
    for (int d = 0; d < x.ndim(); ++d)
      check(!(mask >> d & 1) || x.shape()[d] == 1, op, ": cannot squeeze axis ", d,
            " of a tensor of shape ", x.shape(), ": its extent is ", x.shape()[d], ", not 1.");
  }
  Shape shape;
  Strides strides;
  for (int d = 0; d < x.ndim(); ++d)
    if (!(mask >> d & 1)) {
      shape.push_back(x.shape()[d]);
      strides.push_back(x.strides()[d]);
    }
  if (shape == x.shape()) return x;
  Tensor out = detail::make_view(x, shape, strides, x.offset());
  record_reshape_back(op, x, out);
  return out;
}

Tensor broadcast_to(const Tensor& x, const Shape& shape) {
  constexpr std::string_view op = "broadcast_to";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() <= shape.rank(), op, ": cannot broadcast a tensor of shape ", x.shape(),
        " to the lower-rank shape ", shape, ".");
  for (int i = 0; i < x.ndim(); ++i) {
    int64_t have = x.shape()[i], want = shape[shape.rank() - x.ndim() + i];
    check(have == want || have == 1, op, ": cannot broadcast a tensor of shape ", x.shape(),
          " to shape ", shape, ".");
  }
  if (shape == x.shape()) return x;
  backend::Array a = detail::broadcast_array(x.array(), shape);
  Tensor out = detail::make_view(x, shape, a.strides, x.offset());
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record(op, {x}, out, [xs](const autograd::Context&, const Tensor& g) {
      return TensorList{detail::sum_to(g, xs)};
    });
  }
  return out;
}

}  // namespace numpy
}  // namespace keras::ops

namespace keras {

Tensor Tensor::slice(std::initializer_list<Slice> slices) const {
  constexpr std::string_view op = "slice";
  check(defined(), op, ": the tensor is undefined.");
  check(static_cast<int>(slices.size()) <= ndim(), op, ": ", slices.size(),
        " slices given for a tensor of rank ", ndim(), ".");
  std::vector<ops::detail::AxisIndex> spec(static_cast<size_t>(ndim()));
  for (int d = 0; d < ndim(); ++d) spec[d].length = shape()[d];
  int axis = 0;
  for (const Slice& s : slices) {
    spec[axis] = ops::detail::resolve_slice(op, s, shape()[axis], axis);
    ++axis;
  }
  return ops::detail::basic_view(*this, spec);
}

Tensor Tensor::operator[](int64_t i) const {
  check(defined() && ndim() > 0, "operator[]: cannot index a ",
        defined() ? "0-d tensor" : "undefined tensor", ".");
  std::vector<ops::detail::AxisIndex> spec(static_cast<size_t>(ndim()));
  for (int d = 1; d < ndim(); ++d) spec[d].length = shape()[d];
  spec[0] = ops::detail::resolve_index("operator[]", i, shape()[0], 0);
  return ops::detail::basic_view(*this, spec);
}

}  // namespace keras

namespace keras::ops::detail {

AxisIndex resolve_slice(std::string_view op, const Slice& s, int64_t n, int axis) {
  const int64_t step = s.step.value_or(1);
  check(step != 0, op, ": slice step cannot be zero (axis ", axis, ").");
  auto bound = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t i = *v < 0 ? *v + n : *v;
    return step > 0 ? std::clamp<int64_t>(i, 0, n) : std::clamp<int64_t>(i, -1, n - 1);
  };
  int64_t start = bound(s.start, step > 0 ? 0 : n - 1);
  int64_t stop = bound(s.stop, step > 0 ? n : -1);
  int64_t len = step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                         : std::max<int64_t>(0, (start - stop - step - 1) / -step);
  return AxisIndex{len > 0 ? start : 0, step, len, true};
}

AxisIndex resolve_index(std::string_view op, int64_t i, int64_t n, int axis) {
  if (i < -n || i >= n)
    throw IndexError(keras::detail::cat(op, ": index ", i, " is out of bounds for axis ", axis,
                                        " with size ", n, "."));
  return AxisIndex{i < 0 ? i + n : i, 1, 1, false};
}

}  // namespace keras::ops::detail
