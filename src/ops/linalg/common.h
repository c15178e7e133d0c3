#pragma once
// What the products (dot, einsum, ...) and keras.ops.linalg share: matrix views and masks,
// a differentiable strided view, the same-dtype matrix product, the routing of linalg work to
// a backend with LAPACK kernels, and thin wrappers over the Linalg primitives.

#include <functional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "keras/core/small_vector.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops::linalg_detail {

using detail::Backend;

// ---- allocation and matrix helpers ---------------------------------------------------------

/// The n x n identity on `be` (ops::eye uses the current backend).
Tensor eye(int64_t n, DType dtype, Backend& be);
/// 1 - eye: zeros on the diagonal, ones elsewhere.
Tensor off_diagonal(int64_t n, DType dtype, Backend& be);
/// 0, 1, ..., n-1 as `dtype` on `be`.
Tensor iota(int64_t n, DType dtype, Backend& be);
/// `length` entries of `axis` from `start` by `step` (a view); `keep` false drops the axis
/// (length 1). Differentiable.
Tensor slice_axis(const Tensor& x, int axis, int64_t start, int64_t length, int64_t step = 1,
                  bool keep = true);
/// x with its last two axes swapped (a view).
Tensor mT(const Tensor& x);
/// x with its last two axes swapped and conjugated (mT for real x).
Tensor mH(const Tensor& x);
/// (x + x^H) / 2 over the last two axes: the Hermitian part (the symmetric part of real x).
Tensor symmetrize(const Tensor& x);
/// The real embedding of complex z (..., m, n): [[X, -Y], [Y, X]] (..., 2m, 2n) for
/// z = X + iY. It maps products to products and conjugate transposes to transposes, so
/// solves and pseudo-inverses of z are those of its embedding. Differentiable.
Tensor real_embedding(const Tensor& z);
/// The dtype of a real result (singular values, Hermitian eigenvalues) of x: its part dtype
/// when x is complex, else x's.
inline DType real_part_dtype(DType t) {
  return is_complex(t) ? complex_part_dtype(t) : t;
}
/// (..., n) -> (..., n, n) with `d` on the diagonal. Differentiable.
Tensor diag_embed(const Tensor& d);
/// Sum over `axes` keeping x's dtype (ops::sum widens narrow integers, as Keras does).
Tensor sum_keep_dtype(const Tensor& x, const std::vector<int>& axes, bool keepdims = false);

/// A view of `x` whose axis j has extent shape[j] and stride sum_i coef[j][i] * x.strides[i]
/// (offset unchanged), so diagonals and overlapping windows are views. Differentiable: the
/// gradient adds each element of g back where it was read from.
using StrideMap = std::vector<SmallVector<int64_t, 8>>;
Tensor restride(const Tensor& x, const Shape& shape, const StrideMap& coef);

/// The matrix product of operands of one dtype with NumPy's matmul rules (1-d operands become
/// matrices, batch axes broadcast). Differentiable.
Tensor product(const Tensor& a, const Tensor& b);

// ---- checks and dtypes -----------------------------------------------------------------------

/// ValueError naming `op` unless x is defined and has rank >= 2 (and square last axes).
void check_matrix(std::string_view op, const Tensor& x, bool square);
/// The dtype linalg computes in: floats stay, integers and bool become floatx().
DType float_dtype(const Tensor& x);

// ---- routing ---------------------------------------------------------------------------------

/// True when x lives on a backend without the Linalg capability.
bool needs_cpu(const Tensor& x);
/// fn run on "cpu" copies of `inputs`, with its results moved back to the inputs' backend: how
/// a backend without LAPACK kernels runs linalg (gradients flow through the moves).
TensorList via_cpu(const TensorList& inputs,
                   const std::function<TensorList(const TensorList&)>& fn);

// ---- the Linalg primitives (no gradients; x on a backend that has them) --------------------

/// The Cholesky factor; `ok` is false when some matrix is not positive definite (its factor is
/// NaN).
Tensor raw_cholesky(const Tensor& x, bool upper, bool& ok);
/// (lu, pivots): pivots int32, 1-based row swaps as LAPACK.
std::pair<Tensor, Tensor> raw_lu(const Tensor& x);
/// Solves a @ out = b (or out @ a = b when !left) for triangular a; batch axes broadcast.
Tensor raw_triangular_solve(const Tensor& a, const Tensor& b, bool lower, bool left,
                            bool transpose_a, bool unit_diagonal);
/// (q, r).
std::pair<Tensor, Tensor> raw_qr(const Tensor& x, bool complete);
/// (u, s, vh); u and vh are undefined unless compute_uv.
std::tuple<Tensor, Tensor, Tensor> raw_svd(const Tensor& x, bool full_matrices, bool compute_uv);
/// (eigenvalues ascending, eigenvectors or undefined), from the lower triangle.
std::pair<Tensor, Tensor> raw_eigh(const Tensor& x, bool vectors);
/// The row permutation (int32, 0-based) that LAPACK's 1-based swaps apply: rows perm[i] of A
/// form the rows of L @ U. Copies the pivots to the host once (a data-dependent index map).
Tensor pivots_to_permutation(const Tensor& pivots, int64_t rows);
/// Rows of b (..., m, n) taken in the order `perm` (..., m); batch axes broadcast.
Tensor permute_rows(const Tensor& b, const Tensor& perm);
/// a^-1 b through an LU factorization of a (no gradient); batch axes broadcast.
Tensor lu_solve(const Tensor& a, const Tensor& b);

}  // namespace keras::ops::linalg_detail
