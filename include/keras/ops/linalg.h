#pragma once
// keras.ops.linalg: decompositions, solvers and norms, differentiable.
//
// Every op works on batches of matrices in the last two axes, computes in the input's floating
// dtype (integers and bool in floatx(); float16 and bfloat16 factor in float32), and runs on any
// backend: one without the Linalg capability computes on "cpu" and gets its results back.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace linalg {

/// Cholesky factor of symmetric positive-definite matrices (..., M, M): lower L with
/// x = L L^T, or upper U = L^T with x = U^T U. Reads the lower (upper) triangle only.
/// ValueError when a matrix is not positive definite, as Keras raises.
Tensor cholesky(const Tensor& x, bool upper = false);

/// Inverse of A = L L^T (or U^T U when `upper`) given its Cholesky factor x.
Tensor cholesky_inverse(const Tensor& x, bool upper = false);

/// Determinant of square matrices (..., M, M) -> (...).
Tensor det(const Tensor& x);

/// Eigenvalues (ascending, (..., M)) and eigenvectors (columns, (..., M, M)) of symmetric
/// matrices; reads the lower triangle.
std::pair<Tensor, Tensor> eigh(const Tensor& x);

/// Eigenvalues (..., M) and right eigenvectors (columns, (..., M, M)) of general real square
/// matrices, both complex (complex128 for float64 input, complex64 otherwise), in LAPACK geev's
/// order, each vector of unit length with its largest component real (as NumPy and JAX on the
/// CPU); NaN for a matrix whose QR iteration fails. No gradient yet: NotImplementedError under a
/// GradientTape that watches x.
std::pair<Tensor, Tensor> eig(const Tensor& x);

/// Inverse of square matrices.
Tensor inv(const Tensor& x);

/// Least-squares solution of a @ x = b for a (M, N) and b (M,) or (M, K). Singular values below
/// rcond * the largest count as zero (default: eps * max(M, N)).
Tensor lstsq(const Tensor& a, const Tensor& b, std::optional<double> rcond = std::nullopt);

/// LU factorization with partial pivoting of (..., M, N): the packed factors (unit-diagonal L
/// below the diagonal, U on and above) and the row swaps as 0-based int32 pivots (..., min(M, N)),
/// as JAX's lu_factor.
std::pair<Tensor, Tensor> lu_factor(const Tensor& x);

/// x raised to the integer power n by repeated squaring; n < 0 inverts first, n == 0 gives the
/// identity.
Tensor matrix_power(const Tensor& x, int n);

/// Number of singular values above `tol` (an absolute threshold; default
/// max(M, N) * eps * the largest singular value), as int32 (...).
Tensor matrix_rank(const Tensor& x, std::optional<double> tol = std::nullopt);

/// The `ord` argument of norm: None (default), a number (inf and -inf included), "fro" or "nuc".
class NormOrd {
 public:
  /// Which form the argument takes: None, a number (p()), "fro" or "nuc".
  enum class Kind { None, Number, Fro, Nuc };
  NormOrd() = default;
  /// None (the default): the 2-norm of vectors, the Frobenius norm of matrices.
  NormOrd(std::nullopt_t) {}                         // NOLINT
  /// A number: 2, -1, 0.5, INFINITY, ...
  template <typename T>
    requires std::is_arithmetic_v<T>
  NormOrd(T p) : kind_(Kind::Number), p_(static_cast<double>(p)) {}  // NOLINT
  /// "fro" or "nuc"; other names are a ValueError.
  NormOrd(std::string_view name);  // NOLINT
  /// "fro" or "nuc"; other names are a ValueError.
  NormOrd(const char* name) : NormOrd(std::string_view(name)) {}  // NOLINT
  /// Which form this is.
  Kind kind() const { return kind_; }
  /// The order when kind() is Kind::Number (inf and -inf included); 0 otherwise.
  double p() const { return p_; }
  /// How Keras would print it: None, 2, inf, 'fro', ...
  std::string to_string() const;

 private:
  Kind kind_ = Kind::None;
  double p_ = 0;
};

/// Vector norm (one axis, or all of a 1-d input) or matrix norm (two axes, or a 2-d input) as
/// numpy.linalg.norm; axis None with ord None is the 2-norm of all elements.
Tensor norm(const Tensor& x, const NormOrd& ord = {}, const Axes& axis = {},
            bool keepdims = false);

/// Moore-Penrose pseudo-inverse (..., N, M) of (..., M, N) through the SVD; singular values at
/// or below rcond * the largest are dropped (default: 10 * max(M, N) * eps, as JAX).
Tensor pinv(const Tensor& x, std::optional<double> rcond = std::nullopt);

/// QR decomposition: mode "reduced" gives q (..., M, K), r (..., K, N) with K = min(M, N);
/// "complete" gives q (..., M, M), r (..., M, N).
std::pair<Tensor, Tensor> qr(const Tensor& x, std::string_view mode = "reduced");

/// Solves a @ x = b for square a (..., M, M); b is (..., M) (one vector per matrix, when its
/// rank is one less than a's or it is 1-d) or (..., M, N). Batch axes broadcast.
Tensor solve(const Tensor& a, const Tensor& b);

/// Solves a @ x = b for triangular a, reading only its lower (or upper) triangle.
Tensor solve_triangular(const Tensor& a, const Tensor& b, bool lower = false);

/// Singular value decomposition (u, s, vh) with s descending, x = u @ diag(s) @ vh:
/// u (..., M, M) and vh (..., N, N), or (..., M, K) and (..., K, N) without full_matrices.
/// Without compute_uv only s is computed (u and vh are undefined tensors).
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& x, bool full_matrices = true,
                                       bool compute_uv = true);

/// What jvp returns.
struct JvpResult {
  /// fun(primals), without the auxiliary outputs.
  TensorList primals_out;   // fun(primals), without the auxiliary outputs
  /// The Jacobian of fun at primals applied to tangents, one per primal output.
  TensorList tangents_out;  // the Jacobian of fun at primals applied to tangents
  /// fun's auxiliary outputs (empty without has_aux).
  TensorList aux;           // the auxiliary outputs (with has_aux)
};

/// Forward-mode Jacobian-vector product of fun at primals along tangents (same shapes). With
/// has_aux, fun's last output is auxiliary data: returned as is, not differentiated.
/// Computed as two reverse passes (the gradient of a vjp with respect to its cotangent).
JvpResult jvp(const std::function<TensorList(const TensorList&)>& fun, const TensorList& primals,
              const TensorList& tangents, bool has_aux = false);
/// jvp of a function of one tensor: (fun(primal), J @ tangent).
std::pair<Tensor, Tensor> jvp(const std::function<Tensor(const Tensor&)>& fun,
                              const Tensor& primal, const Tensor& tangent);

}  // namespace linalg
}  // namespace keras::ops

#pragma GCC visibility pop
