// det and slogdet from an LU factorization: the product of U's diagonal and the sign of the
// row permutation. Their gradients are det * A^-T and A^-T.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/linalg/common.h"

namespace keras::ops {

using namespace linalg_detail;

namespace {

// U's diagonal (..., n) and the permutation's sign (...), of the LU factorization of a.
std::pair<Tensor, Tensor> lu_diagonal_and_sign(const Tensor& a) {
  auto& be = a.backend();
  const int64_t n = a.shape().back();
  auto [lu, piv] = raw_lu(a);
  // Each pivot that is not its own row is one swap.
  Tensor swapped = not_equal(piv, add(iota(n, DType::Int32, be), Tensor(1)));
  Tensor flips = where(swapped, Tensor(-1.0), Tensor(1.0));
  Tensor sign = detail::cast(flips, real_part_dtype(a.dtype()));
  const uint64_t last = uint64_t{1} << (sign.ndim() - 1);
  sign = squeeze(detail::run_reduce(backend::ReduceOp::Prod, sign, last), -1);
  return {diagonal(lu, 0, -2, -1), sign};
}

Tensor prod_last(const Tensor& x) {
  // Complex products are arranged by ops::prod (backends multiply real numbers only).
  if (is_complex(x.dtype())) return prod(x, Axes(-1));
  return squeeze(detail::run_reduce(backend::ReduceOp::Prod, x, uint64_t{1} << (x.ndim() - 1)),
                 -1);
}

// g (...) -> g[..., None, None] * A^-T, the gradient of log|det A| scaled by g.
Tensor scaled_inverse_transpose(const Tensor& a, const Tensor& g) {
  return multiply(expand_dims(expand_dims(g, -1), -1), mT(inv(a)));
}

}  // namespace

inline namespace linalg {

Tensor det(const Tensor& x) {
  constexpr std::string_view op = "det";
  check_matrix(op, x, true);
  if (needs_cpu(x)) return via_cpu({x}, [](const TensorList& in) { return TensorList{det(in[0])}; })[0];
  Tensor a = detail::cast(x, float_dtype(x));
  auto [diag, sign] = lu_diagonal_and_sign(a);
  Tensor out = multiply(prod_last(diag), sign);
  if (autograd::should_record(a)) {
    autograd::record(op, {a}, out, [a](const autograd::Context& ctx, const Tensor& g) {
      return TensorList{scaled_inverse_transpose(a, multiply(g, ctx.output()))};
    });
  }
  return out;
}

}  // namespace linalg

inline namespace numpy {

std::pair<Tensor, Tensor> slogdet(const Tensor& x) {
  constexpr std::string_view op = "slogdet";
  check_matrix(op, x, true);
  if (needs_cpu(x)) {
    TensorList r = via_cpu({x}, [](const TensorList& in) {
      auto [s, l] = slogdet(in[0]);
      return TensorList{s, l};
    });
    return {r[0], r[1]};
  }
  Tensor a = detail::cast(x, float_dtype(x));
  auto [diag, perm_sign] = lu_diagonal_and_sign(a);
  // sign(z) = z / |z| for complex z: the determinant's phase.
  Tensor outs[2] = {multiply(prod_last(sign(diag)), perm_sign),
                    sum(log(absolute(diag)), -1)};
  if (autograd::should_record(a)) {
    Tensor inputs[1] = {a};
    autograd::record_multi(op, inputs, outs,
                           [a](const autograd::Context& ctx, std::span<const Tensor> grads) {
                             if (!is_complex(a.dtype()))
                               return TensorList{scaled_inverse_transpose(a, grads[1])};
                             // JAX's rule: with t = tr(A^-1 dA), dlogabsdet = Re t and
                             // dsign = i Im(t) sign, so gA = (g_log + i Im(g_sign sign)) A^-T.
                             Tensor turn = imag(multiply(grads[0], ctx.output(0)));
                             Tensor g = view_as_complex(stack({grads[1], turn}, -1));
                             return TensorList{scaled_inverse_transpose(a, g)};
                           });
  }
  return {outs[0], outs[1]};
}

}  // namespace numpy
}  // namespace keras::ops
