// qr: Householder QR through the backend, with the gradient of Walter and Lehmann (tall and
// square) extended to wide matrices by splitting A = [X | Y].

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace linalg {

using namespace linalg_detail;

namespace {

// dA for A = Q R with M >= N: (gQ + Q copyltu(M)) R^-T, M = R gR^T - gQ^T Q, where copyltu
// mirrors the lower triangle onto the upper one.
Tensor qr_grad_tall(const Tensor& q, const Tensor& r, const Tensor& gq, const Tensor& gr) {
  Tensor m = subtract(matmul(r, mT(gr)), matmul(mT(gq), q));
  Tensor sym = add(tril(m), mT(tril(m, -1)));
  Tensor b = add(gq, matmul(q, sym));
  return mT(solve_triangular(r, mT(b), /*lower=*/false));
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
          if (m >= n) return TensorList{qr_grad_tall(q, r, grads[0], grads[1])};
          // A = [X | Y] with X square: X = Q U and Y = Q V, so gY = Q gV and X sees
          // gQ + Y gV^T.
          Tensor y = slice_axis(a, rank - 1, m, n - m);
          Tensor gu = slice_axis(grads[1], rank - 1, 0, m);
          Tensor gv = slice_axis(grads[1], rank - 1, m, n - m);
          Tensor gx = qr_grad_tall(q, slice_axis(r, rank - 1, 0, m),
                                   add(grads[0], matmul(y, mT(gv))), gu);
          return TensorList{concatenate({gx, matmul(q, gv)}, -1)};
        });
  }
  return {outs[0], outs[1]};
}

}  // namespace linalg
}  // namespace keras::ops
