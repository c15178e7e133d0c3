// Diagonals and triangles: diagonal (a strided view), trace, diag, diagflat, eye, identity,
// tri, tril, triu, vander.

#include <algorithm>

#include "keras/autograd/node.h"
#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {

namespace {

// Where the diagonal at `offset` of the (a1, a2) planes lies in a tensor of `shape`.
struct DiagonalSpec {
  int64_t offset = 0;
  int a1 = 0, a2 = 1;

  int64_t length(const Shape& shape) const {
    const int64_t n1 = shape[a1], n2 = shape[a2];
    return offset >= 0 ? std::max<int64_t>(0, std::min(n1, n2 - offset))
                       : std::max<int64_t>(0, std::min(n1 + offset, n2));
  }
};

// The diagonal of `x` as the last axis of a view, recording nothing.
Tensor diagonal_geometry(const Tensor& x, const DiagonalSpec& spec) {
  Shape shape;
  Strides strides;
  for (int d = 0; d < x.ndim(); ++d) {
    if (d == spec.a1 || d == spec.a2) continue;
    shape.push_back(x.shape()[d]);
    strides.push_back(x.strides()[d]);
  }
  const int64_t len = spec.length(x.shape());
  const int64_t s1 = x.strides()[spec.a1], s2 = x.strides()[spec.a2];
  shape.push_back(len);
  strides.push_back(s1 + s2);
  int64_t offset = x.offset();
  if (len > 0) offset += spec.offset >= 0 ? spec.offset * s2 : -spec.offset * s1;
  return detail::make_view(x, shape, strides, offset);
}

Tensor diagonal_embed(const Tensor& g, const Shape& shape, const DiagonalSpec& spec);

Tensor diagonal_view(const Tensor& x, const DiagonalSpec& spec) {
  Tensor out = diagonal_geometry(x, spec);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record("diagonal", {x}, out, [xs, spec](const autograd::Context&, const Tensor& g) {
      return TensorList{diagonal_embed(g, xs, spec)};
    });
  }
  return out;
}

// zeros(shape) with `g` written on the diagonal: the adjoint of diagonal_view.
Tensor diagonal_embed(const Tensor& g, const Shape& shape, const DiagonalSpec& spec) {
  Tensor out = detail::zeros_on(shape, g.dtype(), g.backend());
  if (g.size() > 0) detail::copy_into(g.backend(), diagonal_geometry(out, spec).array(), g.array());
  if (autograd::should_record(g)) {
    autograd::record("diagonal_embed", {g}, out, [spec](const autograd::Context&, const Tensor& gg) {
      return TensorList{diagonal_view(gg, spec)};
    });
  }
  return out;
}

// 0, 1, ..., n-1 (or start, start + step, ...) of `dtype` on `backend`.
Tensor iota(int64_t n, DType dtype, backend::Backend& backend, double start = 0, double step = 1) {
  Tensor out = detail::empty(Shape{n}, dtype, backend);
  if (n > 0) backend.arange(out.array(), start, step);
  return out;
}

// The (N, M) bool mask of j - i <= k (lower) or j - i >= k (upper).
Tensor triangle_mask(int64_t N, int64_t M, int64_t k, bool lower, backend::Backend& be) {
  Tensor rows = reshape(iota(N, DType::Int64, be, static_cast<double>(k)), {N, 1});
  Tensor cols = reshape(iota(M, DType::Int64, be), {1, M});
  return lower ? greater_equal(rows, cols) : less_equal(rows, cols);
}

Tensor triangle(std::string_view op, const Tensor& x, int64_t k, bool lower) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() >= 2, op, ": the input must have at least 2 axes; got shape ", x.shape(), ".");
  auto& be = x.backend();
  const int64_t N = x.shape()[x.ndim() - 2], M = x.shape()[x.ndim() - 1];
  Tensor zero = detail::scalar_tensor(0, x.dtype(), be);
  return where(triangle_mask(N, M, k, lower, be), x, zero);
}

void check_dim(std::string_view op, std::string_view name, int64_t v) {
  check(v >= 0, op, ": ", name, " must be non-negative; got ", v, ".");
}

}  // namespace

inline namespace numpy {

Tensor diagonal(const Tensor& x, int64_t offset, int axis1, int axis2) {
  constexpr std::string_view op = "diagonal";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() >= 2, op, ": the input must have at least 2 axes; got shape ", x.shape(), ".");
  const int a1 = detail::normalize_axis(op, axis1, x.ndim());
  const int a2 = detail::normalize_axis(op, axis2, x.ndim());
  check(a1 != a2, op, ": axis1 and axis2 must differ; got axis1=", axis1, ", axis2=", axis2,
        " for a tensor of shape ", x.shape(), ".");
  return diagonal_view(x, DiagonalSpec{offset, a1, a2});
}

Tensor trace(const Tensor& x, int64_t offset, int axis1, int axis2) {
  check(x.defined(), "trace: the input is an undefined tensor.");
  return sum(diagonal(x, offset, axis1, axis2), -1);
}

Tensor diag(const Tensor& x, int64_t k) {
  constexpr std::string_view op = "diag";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (x.ndim() == 2) return diagonal(x, k);
  check(x.ndim() == 1, op, ": the input must be 1-d or 2-d; got shape ", x.shape(), ".");
  const int64_t n = x.size() + (k < 0 ? -k : k);
  return diagonal_embed(x, Shape{n, n}, DiagonalSpec{k, 0, 1});
}

Tensor diagflat(const Tensor& x, int64_t k) {
  check(x.defined(), "diagflat: the input is an undefined tensor.");
  return diag(ravel(x), k);
}

Tensor eye(int64_t N, std::optional<int64_t> M, int64_t k, std::optional<DType> dtype) {
  constexpr std::string_view op = "eye";
  const int64_t cols = M.value_or(N);
  check_dim(op, "N", N);
  check_dim(op, "M", cols);
  auto& be = backend::current();
  Tensor out = detail::zeros_on(Shape{N, cols}, dtype.value_or(config::floatx()), be);
  Tensor diag_view = diagonal_geometry(out, DiagonalSpec{k, 0, 1});
  if (diag_view.size() > 0) be.fill(diag_view.array(), 1);
  return out;
}

Tensor identity(int64_t n, std::optional<DType> dtype) { return eye(n, n, 0, dtype); }

Tensor tri(int64_t N, std::optional<int64_t> M, int64_t k, std::optional<DType> dtype) {
  constexpr std::string_view op = "tri";
  const int64_t cols = M.value_or(N);
  check_dim(op, "N", N);
  check_dim(op, "M", cols);
  Tensor mask = triangle_mask(N, cols, k, true, backend::current());
  return detail::run_copy(mask, dtype.value_or(config::floatx()));
}

Tensor tril(const Tensor& x, int64_t k) { return triangle("tril", x, k, true); }

Tensor triu(const Tensor& x, int64_t k) { return triangle("triu", x, k, false); }

Tensor vander(const Tensor& x, std::optional<int64_t> N, bool increasing) {
  constexpr std::string_view op = "vander";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() == 1, op, ": the input must be 1-d; got shape ", x.shape(), ".");
  check<TypeError>(x.dtype() != DType::Bool, op, ": a bool input has no powers; cast it first.");
  const int64_t n = N.value_or(x.size());
  check_dim(op, "N", n);
  // Exponents in x's own dtype, as JAX: the result keeps x's dtype.
  Tensor powers = increasing ? iota(n, x.dtype(), x.backend())
                             : iota(n, x.dtype(), x.backend(), static_cast<double>(n - 1), -1);
  return power(reshape(x, {x.size(), 1}), reshape(powers, {1, n}));
}

}  // namespace numpy
}  // namespace keras::ops
