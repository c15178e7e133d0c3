#include "ops/linalg/common.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "keras/autograd/node.h"
#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "ops/detail/views.h"

namespace keras::ops::linalg_detail {

using backend::Array;

Tensor eye(int64_t n, DType dtype, Backend& be) {
  // Backends fill real arrays only: a complex identity is the real one with zero imaginary parts.
  if (is_complex(dtype)) return detail::cast(eye(n, complex_part_dtype(dtype), be), dtype);
  Tensor out = detail::zeros_on(Shape{n, n}, dtype, be);
  if (n > 0) {
    Array diag = out.array();
    diag.shape = Shape{n};
    diag.strides = Strides{n + 1};
    be.fill(diag, 1);
  }
  return out;
}

Tensor iota(int64_t n, DType dtype, Backend& be) {
  Tensor out = detail::empty(Shape{n}, dtype, be);
  if (n > 0) be.arange(out.array(), 0, 1);
  return out;
}

Tensor slice_axis(const Tensor& x, int axis, int64_t start, int64_t length, int64_t step,
                  bool keep) {
  std::vector<detail::AxisIndex> spec;
  for (int d = 0; d < x.ndim(); ++d) spec.push_back({0, 1, x.shape()[d], true});
  spec[axis] = {start, step, length, keep};
  return detail::basic_view(x, spec);
}

Tensor mT(const Tensor& x) {
  std::vector<int> perm(static_cast<size_t>(x.ndim()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(x, perm);
}

namespace {

// The transpose of restride: zeros of `x_shape` with each element of g added where restride
// read it.
Tensor restride_adjoint(const Tensor& g, const Shape& x_shape, const StrideMap& coef) {
  auto& be = g.backend();
  Tensor out = detail::zeros_on(x_shape, g.dtype(), be);
  if (g.size() > 0) {
    Array window = out.array();
    window.shape = g.shape();
    window.strides = Strides(static_cast<size_t>(g.ndim()), 0);
    const Strides base = contiguous_strides(x_shape);
    for (int j = 0; j < g.ndim(); ++j)
      for (size_t i = 0; i < coef[j].size(); ++i) window.strides[j] += coef[j][i] * base[i];
    detail::copy_into(be, window, g.array(), backend::CopyMode::Add);
  }
  if (autograd::should_record(g)) {
    Shape gs = g.shape();
    autograd::record("restride_grad", {g}, out,
                     [gs, coef](const autograd::Context&, const Tensor& gg) {
                       return TensorList{restride(gg, gs, coef)};
                     });
  }
  return out;
}

}  // namespace

Tensor off_diagonal(int64_t n, DType dtype, Backend& be) {
  return subtract(Tensor(1.0).astype(dtype), eye(n, dtype, be));
}

Tensor mH(const Tensor& x) {
  return is_complex(x.dtype()) ? conj(mT(x)) : mT(x);
}

Tensor real_embedding(const Tensor& z) {
  const Tensor x = real(z), y = imag(z);
  return concatenate({concatenate({x, negative(y)}, -1), concatenate({y, x}, -1)}, -2);
}

Tensor symmetrize(const Tensor& x) {
  return multiply(add(x, mH(x)), Tensor(0.5));
}

Tensor restride(const Tensor& x, const Shape& shape, const StrideMap& coef) {
  Strides strides(shape.size(), 0);
  for (int j = 0; j < shape.rank(); ++j)
    for (size_t i = 0; i < coef[j].size(); ++i) strides[j] += coef[j][i] * x.strides()[i];
  Tensor out = detail::make_view(x, shape, strides, x.offset());
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record("restride", {x}, out, [xs, coef](const autograd::Context&, const Tensor& g) {
      return TensorList{restride_adjoint(g, xs, coef)};
    });
  }
  return out;
}

Tensor diag_embed(const Tensor& d) {
  const int r = d.ndim();
  const int64_t n = d.shape()[r - 1];
  Shape shape = d.shape();
  shape.push_back(n);
  auto& be = d.backend();
  Tensor out = detail::zeros_on(shape, d.dtype(), be);
  if (out.size() > 0) {
    Array diag = out.array();
    diag.shape = d.shape();
    diag.strides = Strides(out.array().strides.begin(), out.array().strides.end() - 1);
    diag.strides[r - 1] = n + 1;
    detail::copy_into(be, diag, d.array());
  }
  if (autograd::should_record(d)) {
    autograd::record("diag_embed", {d}, out, [](const autograd::Context&, const Tensor& g) {
      return TensorList{diagonal(g)};
    });
  }
  return out;
}

Tensor sum_keep_dtype(const Tensor& x, const std::vector<int>& axes, bool keepdims) {
  if (axes.empty() && !keepdims) return x;
  return detail::cast(sum(x, Axes(axes), keepdims), x.dtype());
}

void check_matrix(std::string_view op, const Tensor& x, bool square) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() >= 2, op, ": expected a tensor of rank >= 2 (a matrix or a batch of matrices); ",
        "got shape ", x.shape(), ".");
  if (square)
    check(x.shape()[x.ndim() - 1] == x.shape()[x.ndim() - 2], op,
          ": expected square matrices in the last two axes; got shape ", x.shape(), ".");
}

DType float_dtype(const Tensor& x) { return float_result_type(x.dtype()); }

bool needs_cpu(const Tensor& x) {
  return !x.backend().supports(backend::Capability::Linalg) && x.backend().name() != "cpu";
}

TensorList via_cpu(const TensorList& inputs,
                   const std::function<TensorList(const TensorList&)>& fn) {
  std::string home;
  TensorList moved;
  moved.reserve(inputs.size());
  for (const Tensor& t : inputs) {
    if (t.defined() && !t.is_weak() && home.empty()) home = std::string(t.backend_name());
    moved.push_back(t.defined() && !t.is_weak() ? t.to("cpu") : t);
  }
  TensorList results = fn(moved);
  for (Tensor& t : results)
    if (t.defined() && !home.empty()) t = t.to(home);
  return results;
}

// ---- primitives ------------------------------------------------------------------------------

namespace {

Shape batch_of(const Tensor& x) { return Shape(x.shape().begin(), x.shape().end() - 2); }

Shape with_matrix(Shape batch, int64_t rows, int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

}  // namespace

Tensor raw_cholesky(const Tensor& x, bool upper, bool& ok) {
  auto& be = x.backend();
  Tensor out = detail::empty(x.shape(), x.dtype(), be);
  ok = be.cholesky(out.array(), x.array(), upper);
  return out;
}

std::pair<Tensor, Tensor> raw_lu(const Tensor& x) {
  auto& be = x.backend();
  const int r = x.ndim();
  Shape piv_shape = batch_of(x);
  piv_shape.push_back(std::min(x.shape()[r - 2], x.shape()[r - 1]));
  Tensor lu = detail::empty(x.shape(), x.dtype(), be);
  Tensor piv = detail::empty(piv_shape, DType::Int32, be);
  be.lu_factor(lu.array(), piv.array(), x.array());
  return {lu, piv};
}

Tensor raw_triangular_solve(const Tensor& a, const Tensor& b, bool lower, bool left,
                            bool transpose_a, bool unit_diagonal) {
  auto& be = b.backend();
  const int rb = b.ndim();
  const int64_t k = a.shape()[a.ndim() - 1];
  Shape batch = detail::broadcast_shapes("triangular_solve", batch_of(a), batch_of(b));
  Shape out_shape = with_matrix(batch, b.shape()[rb - 2], b.shape()[rb - 1]);
  Tensor out = detail::empty(out_shape, b.dtype(), be);
  be.triangular_solve(out.array(), detail::broadcast_array(a.array(), with_matrix(batch, k, k)),
                      detail::broadcast_array(b.array(), out_shape), lower, left, transpose_a,
                      unit_diagonal);
  return out;
}

std::pair<Tensor, Tensor> raw_qr(const Tensor& x, bool complete) {
  auto& be = x.backend();
  const int r = x.ndim();
  const int64_t m = x.shape()[r - 2], n = x.shape()[r - 1];
  const int64_t kq = complete ? m : std::min(m, n);
  Tensor q = detail::empty(with_matrix(batch_of(x), m, kq), x.dtype(), be);
  Tensor rr = detail::empty(with_matrix(batch_of(x), kq, n), x.dtype(), be);
  be.qr(q.array(), rr.array(), x.array(), complete);
  return {q, rr};
}

std::tuple<Tensor, Tensor, Tensor> raw_svd(const Tensor& x, bool full_matrices,
                                           bool compute_uv) {
  auto& be = x.backend();
  const int r = x.ndim();
  const int64_t m = x.shape()[r - 2], n = x.shape()[r - 1], k = std::min(m, n);
  Shape s_shape = batch_of(x);
  s_shape.push_back(k);
  Tensor s = detail::empty(s_shape, real_part_dtype(x.dtype()), be);
  Tensor u, vh;
  Array ua, va;
  if (compute_uv) {
    u = detail::empty(with_matrix(batch_of(x), m, full_matrices ? m : k), x.dtype(), be);
    vh = detail::empty(with_matrix(batch_of(x), full_matrices ? n : k, n), x.dtype(), be);
    ua = u.array();
    va = vh.array();
  }
  be.svd(ua, s.array(), va, x.array(), full_matrices);
  return {u, s, vh};
}

std::pair<Tensor, Tensor> raw_eigh(const Tensor& x, bool vectors) {
  auto& be = x.backend();
  Shape w_shape(x.shape().begin(), x.shape().end() - 1);
  Tensor w = detail::empty(w_shape, real_part_dtype(x.dtype()), be);
  Tensor v;
  Array va;
  if (vectors) {
    v = detail::empty(x.shape(), x.dtype(), be);
    va = v.array();
  }
  be.eigh(w.array(), va, x.array(), /*lower=*/true);
  return {w, v};
}

Tensor pivots_to_permutation(const Tensor& pivots, int64_t rows) {
  Shape shape(pivots.shape().begin(), pivots.shape().end() - 1);
  shape.push_back(rows);
  // Shape inference (a Functional graph's op node): the symbolic backend has no pivots to read.
  if (pivots.backend().is_symbolic()) return detail::empty(shape, DType::Int32, pivots.backend());
  const int64_t k = pivots.shape()[pivots.ndim() - 1];
  const int64_t count = Shape(pivots.shape().begin(), pivots.shape().end() - 1).numel();
  std::vector<int32_t> piv = pivots.to_vector<int32_t>();
  std::vector<int32_t> perm(static_cast<size_t>(count * rows));
  for (int64_t b = 0; b < count; ++b) {
    int32_t* p = perm.data() + b * rows;
    std::iota(p, p + rows, 0);
    for (int64_t i = 0; i < k; ++i) {
      const int32_t j = piv[static_cast<size_t>(b * k + i)] - 1;
      check<RuntimeError>(j >= 0 && j < rows, "lu: pivot ", j + 1, " out of range for ", rows,
                          " rows (a backend returned an invalid factorization).");
      std::swap(p[i], p[j]);
    }
  }
  return Tensor::from_vector(perm, shape, pivots.backend_name());
}

Tensor permute_rows(const Tensor& b, const Tensor& perm) {
  auto& be = b.backend();
  const int rb = b.ndim();
  Shape batch = detail::broadcast_shapes("permute_rows", batch_of(b),
                                         Shape(perm.shape().begin(), perm.shape().end() - 1));
  Shape out_shape = with_matrix(batch, b.shape()[rb - 2], b.shape()[rb - 1]);
  Tensor out = detail::empty(out_shape, b.dtype(), be);
  if (out.size() == 0) return out;
  Array index = perm.array();
  index.shape.push_back(1);
  index.strides.push_back(0);
  be.gather(out.array(), detail::broadcast_array(b.array(), out_shape),
            detail::broadcast_array(index, out_shape), out_shape.rank() - 2);
  return out;
}

Tensor lu_solve(const Tensor& a, const Tensor& b) {
  const int64_t n = a.shape()[a.ndim() - 1];
  auto [lu, piv] = raw_lu(a);
  Tensor pb = permute_rows(b, pivots_to_permutation(piv, n));
  Tensor y = raw_triangular_solve(lu, pb, /*lower=*/true, /*left=*/true, false, true);
  return raw_triangular_solve(lu, y, /*lower=*/false, /*left=*/true, false, false);
}

}  // namespace keras::ops::linalg_detail
