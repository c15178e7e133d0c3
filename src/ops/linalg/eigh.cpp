// eigh: the symmetric eigendecomposition, with PyTorch's Hermitian gradient.

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
          // gA = V (diag(gw) + skew(V^T gV) / 2E) V^T with E_ij = w_j - w_i: symmetric, and
          // defined for distinct eigenvalues.
          Tensor w = ctx.output(0), v = ctx.output(1);
          const int64_t n = w.shape().back();
          Tensor vtgv = matmul(mT(v), grads[1]);
          Tensor skew = multiply(subtract(vtgv, mT(vtgv)), Tensor(0.5));
          Tensor e = add(subtract(expand_dims(w, -2), expand_dims(w, -1)),
                         eye(n, w.dtype(), w.backend()));
          Tensor inner = add(divide(skew, e), diag_embed(grads[0]));
          return TensorList{matmul(matmul(v, inner), mT(v))};
        });
  }
  return {outs[0], outs[1]};
}

}  // namespace linalg
}  // namespace keras::ops
