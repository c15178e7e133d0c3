// cholesky and cholesky_inverse.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace linalg {

using namespace linalg_detail;

Tensor cholesky(const Tensor& x, bool upper) {
  constexpr std::string_view op = "cholesky";
  check_matrix(op, x, true);
  if (needs_cpu(x))
    return via_cpu({x}, [upper](const TensorList& in) { return TensorList{cholesky(in[0], upper)}; })[0];
  Tensor a = detail::cast(x, float_dtype(x));
  bool ok = true;
  Tensor out = raw_cholesky(a, upper, ok);
  // JAX leaves NaNs in the factor; Keras checks for them eagerly and raises, and so do we.
  check(ok, op, ": the input of shape ", x.shape(),
        " is not positive definite (Cholesky decomposition failed).");
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, out, [upper](const autograd::Context& ctx, const Tensor& g) {
      // Murray (2016): dA = L^-H Phi(L^H dL) L^-1, Phi = lower triangle with half diagonal,
      // made Hermitian (only A's Hermitian part is an input: JAX symmetrizes it). The rule is
      // PyTorch's convention (the conjugate of JAX's for complex A): conjugated in and out.
      Tensor l = upper ? mH(ctx.output()) : ctx.output();
      Tensor gl = upper ? mH(conj(g)) : conj(g);
      Tensor p = matmul(mH(l), gl);
      Tensor phi = subtract(tril(p), multiply(diag_embed(diagonal(p, 0, -2, -1)), Tensor(0.5)));
      Tensor z = solve_triangular(mH(l), phi, /*lower=*/false);
      return TensorList{conj(symmetrize(mH(solve_triangular(mH(l), mH(z), /*lower=*/false))))};
    });
  }
  return out;
}

Tensor cholesky_inverse(const Tensor& x, bool upper) {
  constexpr std::string_view op = "cholesky_inverse";
  check_matrix(op, x, true);
  Tensor f = detail::cast(x, float_dtype(x));
  const int64_t n = f.shape().back();
  Tensor identity = broadcast_to(eye(n, f.dtype(), f.backend()), f.shape());
  Tensor inv_factor = solve_triangular(f, identity, /*lower=*/!upper);
  // A = L L^H gives A^-1 = L^-H L^-1; A = U^H U gives U^-1 U^-H.
  return upper ? matmul(inv_factor, mH(inv_factor)) : matmul(mH(inv_factor), inv_factor);
}

}  // namespace linalg
}  // namespace keras::ops
