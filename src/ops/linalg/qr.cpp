// qr: Householder QR through the backend, with the gradient of Walter and Lehmann (tall and
// square) extended to wide matrices by splitting A = [X | Y].

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace linalg {

using namespace linalg_detail;

namespace {

// dA for A = Q R with M >= N, in PyTorch's convention (the conjugate of JAX's for complex A):
// (gQ + Q W) R^-H with W the Hermitian matrix whose upper triangle is K = gR R^H - Q^H gQ (its
// diagonal's real part on the diagonal: the phases of R's diagonal are fixed by the QR).
Tensor qr_grad_tall(const Tensor& q, const Tensor& r, const Tensor& gq, const Tensor& gr) {
  Tensor k = subtract(matmul(gr, mH(r)), matmul(mH(q), gq));
  Tensor upper = triu(k, 1);
  Tensor diag = diagonal(k, 0, -2, -1);
  if (is_complex(diag.dtype())) diag = detail::cast(real(diag), diag.dtype());
  Tensor w = add(add(upper, mH(upper)), diag_embed(diag));
  Tensor b = add(gq, matmul(q, w));
  return mH(solve_triangular(r, mH(b), /*lower=*/false));
}

}  // namespace

std::pair<Tensor, Tensor> qr(const Tensor& x, std::string_view mode) {
  constexpr std::string_view op = "qr";
  check(mode == "reduced" || mode == "complete", op,
        ": mode must be 'reduced' or 'complete'; got '", mode, "'.");
  check_matrix(op, x, false);
  if (needs_cpu(x)) {
    std::string m(mode);
    TensorList r = via_cpu({x}, [m](const TensorList& in) {
      auto [q, rr] = qr(in[0], m);
      return TensorList{q, rr};
    });
    return {r[0], r[1]};
  }
  const bool complete = mode == "complete";
  Tensor a = detail::cast(x, float_dtype(x));
  auto [q, r] = raw_qr(a, complete);
  Tensor outs[2] = {q, r};
  if (autograd::should_record(a)) {
    Tensor inputs[1] = {a};
    Shape shape = a.shape();
    autograd::record_multi(
        op, inputs, outs,
        [a, shape, complete](const autograd::Context& ctx, std::span<const Tensor> grads) {
          const int rank = shape.rank();
          const int64_t m = shape[rank - 2], n = shape[rank - 1];
          check(!(complete && m > n), "qr: the gradient of mode='complete' is not defined for a ",
                "tall input (shape ", shape, "): the last ", m - n,
                " columns of q are not unique. Use mode='reduced'.");
          Tensor q = ctx.output(0), r = ctx.output(1);
          // PyTorch's convention inside: the cotangents conjugated in and the result out.
          Tensor gq = conj(grads[0]), gr = conj(grads[1]);
          if (m >= n) return TensorList{conj(qr_grad_tall(q, r, gq, gr))};
          // A = [X | Y] with X square: X = Q U and Y = Q V, so gY = Q gV and X sees
          // gQ + Y gV^H.
          Tensor y = slice_axis(a, rank - 1, m, n - m);
          Tensor gu = slice_axis(gr, rank - 1, 0, m);
          Tensor gv = slice_axis(gr, rank - 1, m, n - m);
          Tensor gx =
              qr_grad_tall(q, slice_axis(r, rank - 1, 0, m), add(gq, matmul(y, mH(gv))), gu);
          return TensorList{conj(concatenate({gx, matmul(q, gv)}, -1))};
        });
  }
  return {outs[0], outs[1]};
}

}  // namespace linalg
}  // namespace keras::ops
