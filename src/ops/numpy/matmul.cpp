// matmul with NumPy's rules for 1-d operands and broadcast batch axes; the same-dtype product
// that dot, tensordot, einsum and the linalg ops build on.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"
#include "ops/linalg/common.h"
#include "ops/numpy/int8_matmul.h"

namespace keras::ops {

namespace {

// Batched product of operands of rank >= 2 (no 1-d handling, no gradient).
Tensor batched_matmul(const Tensor& a, const Tensor& b, detail::Backend& be) {
  const int ra = a.ndim(), rb = b.ndim();
  Shape batch_a(a.shape().begin(), a.shape().end() - 2);
  Shape batch_b(b.shape().begin(), b.shape().end() - 2);
  Shape batch = detail::broadcast_shapes("matmul", batch_a, batch_b);
  const int64_t M = a.shape()[ra - 2], K = a.shape()[ra - 1], N = b.shape()[rb - 1];
  Shape sa = batch, sb = batch, so = batch;
  sa.push_back(M);
  sa.push_back(K);
  sb.push_back(K);
  sb.push_back(N);
  so.push_back(M);
  so.push_back(N);
  Tensor out = detail::empty(so, a.dtype(), be);
  be.matmul(out.array(), detail::broadcast_array(a.array(), sa),
            detail::broadcast_array(b.array(), sb));
  return out;
}

}  // namespace

namespace linalg_detail {

Tensor product(const Tensor& a, const Tensor& b) {
  constexpr std::string_view op = "matmul";
  // Complex operands (dot, tensordot, inner, vdot, einsum and matmul come here): real products.
  if (complex_detail::any_complex({&a, &b})) return complex_detail::matmul(a, b);
  auto& be = detail::common_backend(op, {&a, &b});
  const bool a_vec = a.ndim() == 1, b_vec = b.ndim() == 1;
  Tensor a2 = a_vec ? expand_dims(a, 0) : a;
  Tensor b2 = b_vec ? expand_dims(b, -1) : b;
  const int64_t K1 = a2.shape()[a2.ndim() - 1], K2 = b2.shape()[b2.ndim() - 2];
  check(K1 == K2, op, ": the contracted dimensions differ: shapes ", a.shape(), " and ",
        b.shape(), " (", K1, " vs ", K2, ").");
  Tensor out = batched_matmul(a2, b2, be);
  if (autograd::should_record(a2, b2)) {
    autograd::record(op, {a2, b2}, out, [a2, b2](const autograd::Context& ctx, const Tensor& g) {
      Tensor ga, gb;
      if (ctx.needs_input_grad(0)) ga = detail::sum_to(product(g, mT(b2)), a2.shape());
      if (ctx.needs_input_grad(1)) gb = detail::sum_to(product(mT(a2), g), b2.shape());
      return TensorList{ga, gb};
    });
  }
  if (a_vec) out = squeeze(out, -2);
  if (b_vec) out = squeeze(out, -1);
  return out;
}

}  // namespace linalg_detail

inline namespace numpy {

Tensor matmul(const Tensor& x1, const Tensor& x2) {
  constexpr std::string_view op = "matmul";
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  check(x1.ndim() >= 1 && x2.ndim() >= 1, op, ": inputs must have rank >= 1; got shapes ",
        x1.shape(), " and ", x2.shape(), ".");
  auto& be = detail::common_backend(op, {&x1, &x2});
  if (x1.dtype() == DType::Int8 && x2.dtype() == DType::Int8) {
    if (Tensor fused = detail::int8_matmul(x1, x2, be); fused.defined()) return fused;
  }
  // Keras: int8 @ int8 accumulates in int32; every other pair follows promotion.
  DType dtype = x1.dtype() == DType::Int8 && x2.dtype() == DType::Int8
                    ? DType::Int32
                    : detail::promote({&x1, &x2});
  return linalg_detail::product(detail::prepare(x1, dtype, be), detail::prepare(x2, dtype, be));
}

}  // namespace numpy
}  // namespace keras::ops
