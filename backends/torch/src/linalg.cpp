// Linear algebra over batches of matrices, through ATen's LAPACK bindings (torch.linalg).

#include "aten_views.h"
#include "torch_backend.h"

namespace keras::torch_backend {

bool TorchBackend::cholesky(const Array& out, const Array& x, bool upper) {
  auto [factor, info] = at::linalg_cholesky_ex(compute_view(x), upper);
  assign(out, factor);
  return info.numel() == 0 || info.eq(0).all().item<bool>();
}

void TorchBackend::lu_factor(const Array& lu, const Array& pivots, const Array& x) {
  auto [factor, pivot] = at::linalg_lu_factor(compute_view(x));  // pivots are 1-based, as LAPACK's
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
  auto [qm, rm] = at::linalg_qr(compute_view(x), complete ? "complete" : "reduced");
  if (q.storage) assign(q, qm);
  if (r.storage) assign(r, rm);
}

void TorchBackend::svd(const Array& u, const Array& s, const Array& vt, const Array& x,
                       bool full_matrices) {
  at::Tensor m = compute_view(x);
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
  auto [w, v] = at::linalg_eigh(compute_view(x), lower ? "L" : "U");
  assign(values, w);
  if (vectors.storage) assign(vectors, v);
}

}  // namespace keras::torch_backend
