// cross: the cross product of 2- and 3-vectors along any axis, from component views and
// elementwise ops (a missing third component counts as zero and is never materialized).

#include <array>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// Products and differences where an undefined tensor stands for a zero component.
Tensor times(const Tensor& a, const Tensor& b) {
  return a.defined() && b.defined() ? multiply(a, b) : Tensor();
}
Tensor minus(const Tensor& a, const Tensor& b) {
  if (!b.defined()) return a;
  if (!a.defined()) return negative(b);
  return subtract(a, b);
}

}  // namespace

Tensor cross(const Tensor& x1, const Tensor& x2, int axisa, int axisb, int axisc,
             std::optional<int> axis) {
  constexpr std::string_view op = "cross";
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  check(x1.ndim() >= 1 && x2.ndim() >= 1, op, ": inputs must have rank >= 1; got shapes ",
        x1.shape(), " and ", x2.shape(), ".");
  if (axis) axisa = axisb = axisc = *axis;
  auto& be = detail::common_backend(op, {&x1, &x2});
  const DType dtype = detail::promote({&x1, &x2});
  Tensor a = detail::prepare(x1, dtype, be), b = detail::prepare(x2, dtype, be);
  a = moveaxis(a, detail::normalize_axis(op, axisa, a.ndim()), a.ndim() - 1);
  b = moveaxis(b, detail::normalize_axis(op, axisb, b.ndim()), b.ndim() - 1);
  const int64_t na = a.shape().back(), nb = b.shape().back();
  check((na == 2 || na == 3) && (nb == 2 || nb == 3), op,
        ": the vector axes must have extent 2 or 3; got ", na, " (axisa=", axisa, " of shape ",
        x1.shape(), ") and ", nb, " (axisb=", axisb, " of shape ", x2.shape(), ").");
  Shape batch = detail::broadcast_shapes(op, Shape(a.shape().begin(), a.shape().end() - 1),
                                         Shape(b.shape().begin(), b.shape().end() - 1));
  std::array<Tensor, 3> u, v;
  for (int i = 0; i < 3; ++i) {
    if (i < na) u[i] = linalg_detail::slice_axis(a, a.ndim() - 1, i, 1, 1, false);
    if (i < nb) v[i] = linalg_detail::slice_axis(b, b.ndim() - 1, i, 1, 1, false);
  }
  Tensor z = minus(times(u[0], v[1]), times(u[1], v[0]));
  if (na == 2 && nb == 2) return broadcast_to(z, batch);
  std::array<Tensor, 3> c = {minus(times(u[1], v[2]), times(u[2], v[1])),
                             minus(times(u[2], v[0]), times(u[0], v[2])), z};
  // With a 3-vector on either side every component has a nonzero term.
  std::vector<Tensor> parts;
  for (Tensor& t : c) parts.push_back(broadcast_to(t, batch));
  Tensor out = stack(parts, -1);
  const int c_axis = detail::normalize_axis(op, axisc, out.ndim());
  return moveaxis(out, out.ndim() - 1, c_axis);
}

}  // namespace numpy
}  // namespace keras::ops
