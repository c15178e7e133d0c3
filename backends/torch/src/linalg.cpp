// Linear algebra over batches of matrices, through ATen's LAPACK bindings (torch.linalg).

#include <cmath>

#include "aten_views.h"
#include "torch_backend.h"

namespace keras::torch_backend {
namespace {

// A complex array as the real array of its (real, imaginary) pairs, which the views below take.
// Only these primitives take complex arrays: scalar_type refuses complex, so that no other
// kernel computes on one by mistake.
Array pairs_of(const Array& a) {
  if (!is_complex(a.dtype)) return a;
  Array pairs = a;
  pairs.dtype = complex_part_dtype(a.dtype);
  pairs.offset *= 2;
  for (int d = 0; d < pairs.rank(); ++d) pairs.strides[d] *= 2;
  pairs.shape.push_back(2);
  pairs.strides.push_back(1);
  return pairs;
}

// compute_view(a), complex arrays included (as ATen complex tensors).
at::Tensor matrix_view(const Array& a) {
  if (!is_complex(a.dtype)) return compute_view(a);
  at::Tensor pairs = compute_view(pairs_of(a));
  return at::view_as_complex(pairs.is_contiguous() ? pairs : pairs.contiguous());
}

// assign(out, value), complex arrays included.
void assign_matrix(const Array& out, const at::Tensor& value) {
  if (!is_complex(out.dtype)) return assign(out, value);
  assign(pairs_of(out), at::view_as_real(value.resolve_conj()));
}

// ATen refuses non-finite input to its iterative decompositions, where LAPACK (and so the cpu
// backend) returns NaN: NaN it is, in every output.
bool fill_nan_if_not_finite(const at::Tensor& m, std::initializer_list<const Array*> outputs) {
  if (at::isfinite(m).all().item<bool>()) return false;
  for (const Array* out : outputs) {
    if (!out->storage) continue;
    const Array target = pairs_of(*out);
    assign(target,
           at::full(sizes_of(target), NAN, options_beside(target, compute_type(target.dtype))));
  }
  return true;
}

}  // namespace

bool TorchBackend::cholesky(const Array& out, const Array& x, bool upper) {
  at::Tensor m = matrix_view(x);
  if (fill_nan_if_not_finite(m, {&out})) return false;  // not positive definite, as LAPACK says
  auto [factor, info] = at::linalg_cholesky_ex(m, upper);
  assign_matrix(out, factor);
  return info.numel() == 0 || info.eq(0).all().item<bool>();
}

void TorchBackend::lu_factor(const Array& lu, const Array& pivots, const Array& x) {
  // The _ex form does not raise on a singular matrix (U has a zero pivot), as LAPACK does not.
  auto [factor, pivot, info] =
      at::linalg_lu_factor_ex(matrix_view(x));  // pivots are 1-based, as LAPACK's
  assign_matrix(lu, factor);
  assign_matrix(pivots, pivot);
}

void TorchBackend::triangular_solve(const Array& out, const Array& a, const Array& b, bool lower,
                                    bool left, bool transpose_a, bool unit_diagonal) {
  at::Tensor m = matrix_view(a);
  bool upper = !lower;
  if (transpose_a) {  // the transpose of a lower triangle is an upper one
    m = m.transpose(-2, -1);
    upper = !upper;
  }
  assign_matrix(out, at::linalg_solve_triangular(m, matrix_view(b), upper, left, unit_diagonal));
}

void TorchBackend::qr(const Array& q, const Array& r, const Array& x, bool complete) {
  at::Tensor m = matrix_view(x);
  if (fill_nan_if_not_finite(m, {&q, &r})) return;
  auto [qm, rm] = at::linalg_qr(m, complete ? "complete" : "reduced");
  if (q.storage) assign_matrix(q, qm);
  if (r.storage) assign_matrix(r, rm);
}

void TorchBackend::svd(const Array& u, const Array& s, const Array& vt, const Array& x,
                       bool full_matrices) {
  at::Tensor m = matrix_view(x);
  if (fill_nan_if_not_finite(m, {&u, &s, &vt})) return;
  if (!u.storage && !vt.storage) {
    assign_matrix(s, at::linalg_svdvals(m));
    return;
  }
  auto [um, sm, vh] = at::linalg_svd(m, full_matrices);
  assign_matrix(u, um);
  assign_matrix(s, sm);
  assign_matrix(vt, vh);
}

void TorchBackend::eigh(const Array& values, const Array& vectors, const Array& x, bool lower) {
  at::Tensor m = matrix_view(x);
  if (fill_nan_if_not_finite(m, {&values, &vectors})) return;
  auto [w, v] = at::linalg_eigh(m, lower ? "L" : "U");
  assign_matrix(values, w);
  if (vectors.storage) assign_matrix(vectors, v);
}

bool TorchBackend::eig(const Array& values, const Array& vectors, const Array& x) {
  at::Tensor m = matrix_view(x);
  if (fill_nan_if_not_finite(m, {&values, &vectors})) return false;
  // Complex results viewed as (real, imaginary) pairs: keras-cpp's backends hold real arrays.
  if (!vectors.storage) {
    assign_matrix(values, at::view_as_real(at::linalg_eigvals(m)));
    return true;
  }
  auto [w, v] = at::linalg_eig(m);
  assign_matrix(values, at::view_as_real(w));
  assign_matrix(vectors, at::view_as_real(v));
  return true;
}

}  // namespace keras::torch_backend
