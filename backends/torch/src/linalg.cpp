// Linear algebra over batches of matrices, through ATen's LAPACK bindings (torch.linalg).

#include <cmath>

#include "aten_views.h"
#include "torch_backend.h"

namespace keras::torch_backend {
namespace {

// ATen refuses non-finite input to its iterative decompositions, where LAPACK (and so the cpu
// backend) returns NaN: NaN it is, in every output.
bool fill_nan_if_not_finite(const at::Tensor& m, std::initializer_list<const Array*> outputs) {
  if (at::isfinite(m).all().item<bool>()) return false;
  for (const Array* out : outputs)
    if (out->storage) assign(*out, at::full(sizes_of(*out), NAN, m.options()));
  return true;
}

}  // namespace

bool TorchBackend::cholesky(const Array& out, const Array& x, bool upper) {
  at::Tensor m = compute_view(x);
  if (fill_nan_if_not_finite(m, {&out})) return false;  // not positive definite, as LAPACK says
  auto [factor, info] = at::linalg_cholesky_ex(m, upper);
  assign(out, factor);
  return info.numel() == 0 || info.eq(0).all().item<bool>();
}

void TorchBackend::lu_factor(const Array& lu, const Array& pivots, const Array& x) {
  // The _ex form does not raise on a singular matrix (U has a zero pivot), as LAPACK does not.
  auto [factor, pivot, info] = at::linalg_lu_factor_ex(compute_view(x));  // pivots are 1-based, as LAPACK's
  assign(lu, factor);
  assign(pivots, pivot);
}

void TorchBackend::triangular_solve(const Array& out, const Array& a, const Array& b, bool lower,
                                    bool left, bool transpose_a, bool unit_diagonal) {
  at::Tensor m = compute_view(a);
  bool upper = !lower;
  if (transpose_a) {  // the transpose of a lower triangle is an upper one
    m = m.transpose(-2, -1);
    upper = !upper;
  }
  assign(out, at::linalg_solve_triangular(m, compute_view(b), upper, left, unit_diagonal));
}

void TorchBackend::qr(const Array& q, const Array& r, const Array& x, bool complete) {
  at::Tensor m = compute_view(x);
  if (fill_nan_if_not_finite(m, {&q, &r})) return;
  auto [qm, rm] = at::linalg_qr(m, complete ? "complete" : "reduced");
  if (q.storage) assign(q, qm);
  if (r.storage) assign(r, rm);
}

void TorchBackend::svd(const Array& u, const Array& s, const Array& vt, const Array& x,
                       bool full_matrices) {
  at::Tensor m = compute_view(x);
  if (fill_nan_if_not_finite(m, {&u, &s, &vt})) return;
  if (!u.storage && !vt.storage) {
    assign(s, at::linalg_svdvals(m));
    return;
  }
  auto [um, sm, vh] = at::linalg_svd(m, full_matrices);
  assign(u, um);
  assign(s, sm);
  assign(vt, vh);
}

void TorchBackend::eigh(const Array& values, const Array& vectors, const Array& x, bool lower) {
  at::Tensor m = compute_view(x);
  if (fill_nan_if_not_finite(m, {&values, &vectors})) return;
  auto [w, v] = at::linalg_eigh(m, lower ? "L" : "U");
  assign(values, w);
  if (vectors.storage) assign(vectors, v);
}

bool TorchBackend::eig(const Array& values, const Array& vectors, const Array& x) {
  at::Tensor m = compute_view(x);
  if (fill_nan_if_not_finite(m, {&values, &vectors})) return false;
  // Complex results viewed as (real, imaginary) pairs: keras-cpp's backends hold real arrays.
  if (!vectors.storage) {
    assign(values, at::view_as_real(at::linalg_eigvals(m)));
    return true;
  }
  auto [w, v] = at::linalg_eig(m);
  assign(values, at::view_as_real(w));
  assign(vectors, at::view_as_real(v));
  return true;
}

}  // namespace keras::torch_backend
