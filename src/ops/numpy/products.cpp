// dot, tensordot, outer, inner, kron, vdot: contractions reduced to one matrix product (or
// one broadcast multiply), so they are differentiable through matmul and multiply.

#include <algorithm>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

using linalg_detail::product;

struct Prepared {
  Tensor a, b;
};

// Both inputs defined, on one backend, and converted to their promoted dtype (products keep
// it: int8 . int8 stays int8 as in jnp.dot).
Prepared prepare_pair(std::string_view op, const Tensor& x1, const Tensor& x2) {
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  auto& be = detail::common_backend(op, {&x1, &x2});
  DType dtype = detail::promote({&x1, &x2});
  return {detail::prepare(x1, dtype, be), detail::prepare(x2, dtype, be)};
}

// Sum product of a over `axes_a` with b over `axes_b` (normalized, equal extents): the free
// axes of a then those of b, through one matrix product.
Tensor contract(const Tensor& a, const Tensor& b, const std::vector<int>& axes_a,
                const std::vector<int>& axes_b) {
  std::vector<int> free_a, free_b;
  for (int d = 0; d < a.ndim(); ++d)
    if (std::find(axes_a.begin(), axes_a.end(), d) == axes_a.end()) free_a.push_back(d);
  for (int d = 0; d < b.ndim(); ++d)
    if (std::find(axes_b.begin(), axes_b.end(), d) == axes_b.end()) free_b.push_back(d);
  int64_t P = 1, Q = 1, K = 1;
  Shape out_shape;
  for (int d : free_a) {
    P *= a.shape()[d];
    out_shape.push_back(a.shape()[d]);
  }
  for (int d : free_b) {
    Q *= b.shape()[d];
    out_shape.push_back(b.shape()[d]);
  }
  for (int d : axes_a) K *= a.shape()[d];
  std::vector<int> perm_a = free_a, perm_b = axes_b;
  perm_a.insert(perm_a.end(), axes_a.begin(), axes_a.end());
  perm_b.insert(perm_b.end(), free_b.begin(), free_b.end());
  Tensor a2 = reshape(transpose(a, perm_a), Shape{P, K});
  Tensor b2 = reshape(transpose(b, perm_b), Shape{K, Q});
  return reshape(product(a2, b2), out_shape);
}

// Checks that the paired axes have equal extents.
void check_pairs(std::string_view op, const Tensor& a, const Tensor& b,
                 const std::vector<int>& axes_a, const std::vector<int>& axes_b) {
  for (size_t i = 0; i < axes_a.size(); ++i)
    check(a.shape()[axes_a[i]] == b.shape()[axes_b[i]], op, ": shape mismatch between axis ",
          axes_a[i], " of x1 (shape ", a.shape(), ") and axis ", axes_b[i], " of x2 (shape ",
          b.shape(), "): ", a.shape()[axes_a[i]], " vs ", b.shape()[axes_b[i]], ".");
}

std::vector<int> normalize_list(std::string_view op, const std::vector<int>& axes, int ndim,
                                const char* which) {
  std::vector<int> out;
  for (int ax : axes) {
    check(ax >= -ndim && ax < ndim, op, ": axis ", ax, " of ", which,
          " is out of bounds for a tensor of rank ", ndim, ".");
    int d = ax < 0 ? ax + ndim : ax;
    check(std::find(out.begin(), out.end(), d) == out.end(), op, ": axis ", ax, " of ", which,
          " is repeated.");
    out.push_back(d);
  }
  return out;
}

}  // namespace

Tensor dot(const Tensor& x1, const Tensor& x2) {
  constexpr std::string_view op = "dot";
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  if (x1.ndim() == 0 || x2.ndim() == 0) return multiply(x1, x2);
  auto [a, b] = prepare_pair(op, x1, x2);
  if (b.ndim() == 1 || (a.ndim() <= 2 && b.ndim() == 2)) {
    const int64_t K2 = b.shape()[0];
    check(a.shape()[a.ndim() - 1] == K2, op, ": shapes ", x1.shape(), " and ", x2.shape(),
          " are not aligned: the last axis of x1 (", a.shape()[a.ndim() - 1],
          ") must match the ", b.ndim() == 1 ? "only" : "first", " axis of x2 (", K2, ").");
    return product(a, b);
  }
  std::vector<int> axes_a{a.ndim() - 1}, axes_b{b.ndim() - 2};
  check(a.shape()[a.ndim() - 1] == b.shape()[b.ndim() - 2], op, ": shapes ", x1.shape(), " and ",
        x2.shape(), " are not aligned: the last axis of x1 (", a.shape()[a.ndim() - 1],
        ") must match the second-to-last axis of x2 (", b.shape()[b.ndim() - 2], ").");
  return contract(a, b, axes_a, axes_b);
}

Tensor tensordot(const Tensor& x1, const Tensor& x2, const TensordotAxes& axes) {
  constexpr std::string_view op = "tensordot";
  auto [a, b] = prepare_pair(op, x1, x2);
  std::vector<int> axes_a, axes_b;
  if (axes.is_int()) {
    const int n = axes.n();
    check(n >= 0, op, ": axes must be non-negative; got ", n, ".");
    check(n <= a.ndim() && n <= b.ndim(), op, ": axes=", n, " exceeds the rank of x1 (shape ",
          x1.shape(), ") or x2 (shape ", x2.shape(), ").");
    for (int i = 0; i < n; ++i) {
      axes_a.push_back(a.ndim() - n + i);
      axes_b.push_back(i);
    }
  } else {
    check(axes.x1_axes().size() == axes.x2_axes().size(), op,
          ": the two axis lists must have the same length; got ", axes.x1_axes().size(), " and ",
          axes.x2_axes().size(), ".");
    axes_a = normalize_list(op, axes.x1_axes(), a.ndim(), "x1");
    axes_b = normalize_list(op, axes.x2_axes(), b.ndim(), "x2");
  }
  check_pairs(op, a, b, axes_a, axes_b);
  return contract(a, b, axes_a, axes_b);
}

Tensor outer(const Tensor& x1, const Tensor& x2) {
  auto [a, b] = prepare_pair("outer", x1, x2);
  return multiply(reshape(a, Shape{a.size(), 1}), reshape(b, Shape{1, b.size()}));
}

Tensor inner(const Tensor& x1, const Tensor& x2) {
  constexpr std::string_view op = "inner";
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  if (x1.ndim() == 0 || x2.ndim() == 0) return multiply(x1, x2);
  auto [a, b] = prepare_pair(op, x1, x2);
  check(a.shape().back() == b.shape().back(), op,
        ": the last dimensions of x1 and x2 must match; got shapes ", x1.shape(), " and ",
        x2.shape(), ".");
  if (a.ndim() == 1 && b.ndim() == 1) return product(a, b);
  return contract(a, b, {a.ndim() - 1}, {b.ndim() - 1});
}

Tensor kron(const Tensor& x1, const Tensor& x2) {
  auto [a, b] = prepare_pair("kron", x1, x2);
  const int nd = std::max(a.ndim(), b.ndim());
  // a as (a0, 1, a1, 1, ...) and b as (1, b0, 1, b1, ...): their product interleaves the axes.
  Shape sa, sb, out;
  for (int d = 0; d < nd; ++d) {
    const int ia = d - (nd - a.ndim()), ib = d - (nd - b.ndim());
    const int64_t da = ia >= 0 ? a.shape()[ia] : 1, db = ib >= 0 ? b.shape()[ib] : 1;
    sa.push_back(da);
    sa.push_back(1);
    sb.push_back(1);
    sb.push_back(db);
    out.push_back(da * db);
  }
  return reshape(multiply(reshape(a, sa), reshape(b, sb)), out);
}

Tensor vdot(const Tensor& x1, const Tensor& x2) {
  constexpr std::string_view op = "vdot";
  auto [a, b] = prepare_pair(op, x1, x2);
  check(a.size() == b.size(), op, ": the inputs must have the same number of elements; got shapes ",
        x1.shape(), " and ", x2.shape(), ".");
  // NumPy's and JAX's vdot conjugate the first operand.
  return product(ravel(is_complex(a.dtype()) ? conj(a) : a), ravel(b));
}

}  // namespace numpy
}  // namespace keras::ops
