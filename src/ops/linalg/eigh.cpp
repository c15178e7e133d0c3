// eigh: the symmetric (Hermitian) eigendecomposition, with PyTorch's Hermitian gradient.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace linalg {

using namespace linalg_detail;

std::pair<Tensor, Tensor> eigh(const Tensor& x) {
  constexpr std::string_view op = "eigh";
  check_matrix(op, x, true);
  if (needs_cpu(x)) {
    TensorList r = via_cpu({x}, [](const TensorList& in) {
      auto [w, v] = eigh(in[0]);
      return TensorList{w, v};
    });
    return {r[0], r[1]};
  }
  Tensor a = detail::cast(x, float_dtype(x));
  auto [w, v] = raw_eigh(a, true);
  Tensor outs[2] = {w, v};
  if (autograd::should_record(a)) {
    Tensor inputs[1] = {a};
    autograd::record_multi(
        op, inputs, outs, [](const autograd::Context& ctx, std::span<const Tensor> grads) {
          // gA = V (diag(gw) + skew(V^H gV) / 2E) V^H with E_ij = w_j - w_i and
          // skew(X) = X - X^H: Hermitian, and defined for distinct eigenvalues. PyTorch's
          // convention inside (the conjugate of JAX's for complex A), so gV is conjugated in
          // and the result out. For complex A the vectors' phases are free and JAX's rule moves
          // none of them: the skew part's diagonal (i Im(V^H gV), zero for real A) is dropped.
          Tensor w = ctx.output(0), v = ctx.output(1);
          const int64_t n = w.shape().back();
          Tensor vtgv = matmul(mH(v), conj(grads[1]));
          Tensor skew = multiply(subtract(vtgv, mH(vtgv)), Tensor(0.5));
          if (is_complex(v.dtype())) skew = multiply(skew, off_diagonal(n, w.dtype(), w.backend()));
          Tensor e = add(subtract(expand_dims(w, -2), expand_dims(w, -1)),
                         eye(n, w.dtype(), w.backend()));
          Tensor inner = add(divide(skew, e), diag_embed(grads[0]));
          return TensorList{conj(matmul(matmul(v, inner), mH(v)))};
        });
  }
  return {outs[0], outs[1]};
}

}  // namespace linalg
}  // namespace keras::ops
