// Ops that rearrange elements without changing them: flip, fliplr, flipud, moveaxis, swapaxes,
// rot90 (all views), roll (one copy), view (a reinterpretation), ndim, size.

#include <algorithm>

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// Flip over the axes in `mask` as a view (negative strides); its own inverse, so the gradient
// rule is the same flip.
Tensor flip_mask(const Tensor& x, uint64_t mask) {
  if (mask == 0) return x;
  Strides strides = x.strides();
  int64_t offset = x.offset();
  for (int d = 0; d < x.ndim(); ++d) {
    if (!(mask >> d & 1) || x.shape()[d] == 0) continue;
    offset += (x.shape()[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  Tensor out = detail::make_view(x, x.shape(), strides, offset);
  if (autograd::should_record(x)) {
    autograd::record("flip", {x}, out, [mask](const autograd::Context&, const Tensor& g) {
      return TensorList{flip_mask(g, mask)};
    });
  }
  return out;
}

std::vector<int> axis_list(std::string_view op, const Axes& axes, int ndim) {
  check(!axes.is_none(), op, ": axes must be given.");
  std::vector<int> out;
  uint64_t seen = 0;
  for (int a : axes.list()) {
    int d = detail::normalize_axis(op, a, ndim);
    check(!(seen >> d & 1), op, ": axis ", a, " is repeated.");
    seen |= uint64_t{1} << d;
    out.push_back(d);
  }
  return out;
}

// The two pieces of one rolled axis: destination [s, n) takes source [0, n - s) and
// destination [0, s) takes source [n - s, n).
struct RollPiece {
  detail::AxisIndex dst, src;
};

}  // namespace

Tensor flip(const Tensor& x, const Axes& axis) {
  constexpr std::string_view op = "flip";
  check(x.defined(), op, ": the input is an undefined tensor.");
  return flip_mask(x, detail::axes_mask(op, axis, x.ndim()));
}

Tensor fliplr(const Tensor& x) {
  check(x.defined(), "fliplr: the input is an undefined tensor.");
  check(x.ndim() >= 2, "fliplr: the input must have at least 2 axes; got shape ", x.shape(), ".");
  return flip_mask(x, 2);
}

Tensor flipud(const Tensor& x) {
  check(x.defined(), "flipud: the input is an undefined tensor.");
  check(x.ndim() >= 1, "flipud: the input must have at least 1 axis; got shape ", x.shape(), ".");
  return flip_mask(x, 1);
}

Tensor moveaxis(const Tensor& x, const Axes& source, const Axes& destination) {
  constexpr std::string_view op = "moveaxis";
  check(x.defined(), op, ": the input is an undefined tensor.");
  detail::check_rank(op, x.ndim());
  std::vector<int> src = axis_list(op, source, x.ndim());
  std::vector<int> dst = axis_list(op, destination, x.ndim());
  check(src.size() == dst.size(), op, ": source and destination must have the same number of "
        "axes; got ", src.size(), " and ", dst.size(), " for a tensor of shape ", x.shape(), ".");
  std::vector<int> order;
  for (int d = 0; d < x.ndim(); ++d)
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
  std::vector<std::pair<int, int>> moves;
  for (size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (auto [to, from] : moves) order.insert(order.begin() + to, from);
  return transpose(x, order);
}

Tensor swapaxes(const Tensor& x, int axis1, int axis2) {
  constexpr std::string_view op = "swapaxes";
  check(x.defined(), op, ": the input is an undefined tensor.");
  int a = detail::normalize_axis(op, axis1, x.ndim());
  int b = detail::normalize_axis(op, axis2, x.ndim());
  std::vector<int> perm(static_cast<size_t>(x.ndim()));
  for (int d = 0; d < x.ndim(); ++d) perm[d] = d;
  std::swap(perm[a], perm[b]);
  return transpose(x, perm);
}

Tensor rot90(const Tensor& x, int k, std::array<int, 2> axes) {
  constexpr std::string_view op = "rot90";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() >= 2, op, ": the input must have at least 2 axes; got shape ", x.shape(), ".");
  int a = detail::normalize_axis(op, axes[0], x.ndim());
  int b = detail::normalize_axis(op, axes[1], x.ndim());
  check(a != b, op, ": axes must be two different axes; got (", axes[0], ", ", axes[1],
        ") for a tensor of shape ", x.shape(), ".");
  k = ((k % 4) + 4) % 4;
  if (k == 0) return x;
  if (k == 2) return flip_mask(x, (uint64_t{1} << a) | (uint64_t{1} << b));
  std::vector<int> perm(static_cast<size_t>(x.ndim()));
  for (int d = 0; d < x.ndim(); ++d) perm[d] = d;
  std::swap(perm[a], perm[b]);
  if (k == 1) return transpose(flip_mask(x, uint64_t{1} << b), perm);
  return flip_mask(transpose(x, perm), uint64_t{1} << b);
}

Tensor roll(const Tensor& x, int64_t shift, const Axes& axis) {
  check(x.defined(), "roll: the input is an undefined tensor.");
  if (axis.is_none()) return reshape(roll(ravel(x), std::vector<int64_t>{shift}, 0), x.shape());
  return roll(x, std::vector<int64_t>{shift}, axis);
}

Tensor roll(const Tensor& x, const std::vector<int64_t>& shift, const Axes& axis) {
  constexpr std::string_view op = "roll";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(!axis.is_none() || shift.size() == 1, op,
        ": a list of shifts needs a list of axes; got ", detail::list_string(shift),
        " with axis None.");
  if (axis.is_none()) return reshape(roll(ravel(x), shift, 0), x.shape());
  const auto& axes = axis.list();
  const size_t count = std::max(shift.size(), axes.size());
  check((shift.size() == count || shift.size() == 1) && (axes.size() == count || axes.size() == 1),
        op, ": shift ", detail::list_string(shift), " and ", axes.size(),
        " axes cannot be broadcast together.");
  // Shifts on one axis add up (NumPy); each is reduced modulo the extent.
  std::vector<int64_t> total(static_cast<size_t>(x.ndim()), 0);
  for (size_t i = 0; i < count; ++i) {
    int d = detail::normalize_axis(op, axes[axes.size() == 1 ? 0 : i], x.ndim());
    total[d] += shift[shift.size() == 1 ? 0 : i];
  }
  std::vector<int> rolled;
  for (int d = 0; d < x.ndim(); ++d) {
    int64_t n = x.shape()[d];
    total[d] = n == 0 ? 0 : ((total[d] % n) + n) % n;
    if (total[d] != 0) rolled.push_back(d);
  }
  if (rolled.empty()) return x;
  Tensor out = detail::empty(x.shape(), x.dtype(), x.backend());
  // Every combination of pieces over the rolled axes is one block copy.
  const size_t combos = size_t{1} << rolled.size();
  for (size_t c = 0; c < combos; ++c) {
    std::vector<detail::AxisIndex> dst = detail::full_spec(x.shape()), src = dst;
    bool empty_block = false;
    for (size_t r = 0; r < rolled.size(); ++r) {
      int d = rolled[r];
      int64_t n = x.shape()[d], s = total[d];
      RollPiece p = (c >> r & 1) ? RollPiece{{0, 1, s, true}, {n - s, 1, s, true}}
                                 : RollPiece{{s, 1, n - s, true}, {0, 1, n - s, true}};
      dst[d] = p.dst;
      src[d] = p.src;
      empty_block |= p.dst.length == 0;
    }
    if (empty_block || x.size() == 0) continue;
    detail::copy_into(x.backend(), detail::spec_view(out, dst).array(),
                      detail::spec_view(x, src).array());
  }
  if (autograd::should_record(x)) {
    std::vector<int64_t> back;
    std::vector<int> back_axes;
    for (int d : rolled) {
      back.push_back(-total[d]);
      back_axes.push_back(d);
    }
    autograd::record(op, {x}, out, [back, back_axes](const autograd::Context&, const Tensor& g) {
      return TensorList{roll(g, back, back_axes)};
    });
  }
  return out;
}

Tensor view(const Tensor& x, DType dtype) {
  constexpr std::string_view op = "view";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (dtype == x.dtype()) return x;
  const int64_t from = static_cast<int64_t>(itemsize(x.dtype()));
  const int64_t to = static_cast<int64_t>(itemsize(dtype));
  Shape shape = x.shape();
  if (from == to) {
    Tensor out = detail::make_view(x, shape, x.strides(), x.offset());
    out.impl()->array.dtype = dtype;
    return out;
  }
  check(x.ndim() > 0, op, ": cannot view a 0-d tensor of dtype ", x.dtype(), " as ", dtype,
        ": the item sizes differ (", from, " vs ", to, " bytes).");
  check(shape.back() * from % to == 0, op, ": cannot view a tensor of shape ", shape,
        " and dtype ", x.dtype(), " as ", dtype, ": the last axis holds ", shape.back() * from,
        " bytes, not a multiple of ", to, ".");
  // Byte offsets and strides must land on whole elements of the new dtype; a contiguous copy
  // always does.
  auto fits = [&](const Tensor& t) {
    if (t.shape().back() != 1 && t.strides().back() != 1) return false;
    if (t.offset() * from % to != 0) return false;
    for (int d = 0; d + 1 < t.ndim(); ++d)
      if (t.strides()[d] * from % to != 0) return false;
    return true;
  };
  Tensor base = fits(x) ? x : detail::run_copy(x, x.dtype());
  Strides strides = base.strides();
  for (int d = 0; d + 1 < base.ndim(); ++d) strides[d] = strides[d] * from / to;
  strides.back() = 1;
  shape[shape.size() - 1] = shape.back() * from / to;
  Tensor out = detail::make_view(base, shape, strides, base.offset() * from / to);
  out.impl()->array.dtype = dtype;
  return out;
}

int ndim(const Tensor& x) {
  check(x.defined(), "ndim: the input is an undefined tensor.");
  return x.ndim();
}

int64_t size(const Tensor& x) {
  check(x.defined(), "size: the input is an undefined tensor.");
  return x.size();
}

}  // namespace numpy
}  // namespace keras::ops
