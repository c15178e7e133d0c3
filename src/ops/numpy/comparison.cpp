// Comparisons, logical_not/and/or/xor and where.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

using backend::BinaryOp;

Tensor equal(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("equal", BinaryOp::Equal, x1, x2);
}
Tensor not_equal(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("not_equal", BinaryOp::NotEqual, x1, x2);
}
Tensor less(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("less", BinaryOp::Less, x1, x2);
}
Tensor less_equal(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("less_equal", BinaryOp::LessEqual, x1, x2);
}
Tensor greater(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("greater", BinaryOp::Greater, x1, x2);
}
Tensor greater_equal(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("greater_equal", BinaryOp::GreaterEqual, x1, x2);
}
Tensor logical_not(const Tensor& x) {
  return detail::unary_op("logical_not", backend::UnaryOp::LogicalNot, x, detail::Promotion::Keep,
                          nullptr);
}
Tensor logical_and(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("logical_and", BinaryOp::LogicalAnd, x1, x2);
}
Tensor logical_or(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("logical_or", BinaryOp::LogicalOr, x1, x2);
}
Tensor logical_xor(const Tensor& x1, const Tensor& x2) {
  return detail::predicate_op("logical_xor", BinaryOp::LogicalXor, x1, x2);
}

Tensor where(const Tensor& condition, const Tensor& x1, const Tensor& x2) {
  constexpr std::string_view op = "where";
  check(condition.defined() && x1.defined() && x2.defined(), op,
        ": an input is an undefined tensor.");
  auto& be = detail::common_backend(op, {&condition, &x1, &x2});
  DType dtype = detail::promote({&x1, &x2});
  if (is_complex(dtype)) {
    // The pairs of the chosen operand: the condition broadcast over the pair axis.
    Tensor c = expand_dims(detail::prepare(condition, DType::Bool, be), -1);
    return view_as_complex(where(c, view_as_real(detail::prepare(x1, dtype, be)),
                                 view_as_real(detail::prepare(x2, dtype, be))));
  }
  Tensor c = detail::prepare(condition, DType::Bool, be);
  Tensor a = detail::prepare(x1, dtype, be), b = detail::prepare(x2, dtype, be);
  Shape shape =
      detail::broadcast_shapes(op, detail::broadcast_shapes(op, c.shape(), a.shape()), b.shape());
  Tensor out = detail::empty(shape, dtype, be);
  be.where(out.array(), detail::broadcast_array(c.array(), shape),
           detail::broadcast_array(a.array(), shape), detail::broadcast_array(b.array(), shape));
  if (autograd::should_record(a, b)) {
    autograd::record(op, {a, b}, out, [c, a, b](const autograd::Context& ctx, const Tensor& g) {
      Tensor zero = zeros_like(g);
      return TensorList{
          ctx.needs_input_grad(0) ? detail::sum_to(where(c, g, zero), a.shape()) : Tensor(),
          ctx.needs_input_grad(1) ? detail::sum_to(where(c, zero, g), b.shape()) : Tensor()};
    });
  }
  return out;
}

}  // namespace numpy
}  // namespace keras::ops
