#include "ops/detail/elementwise.h"

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops::detail {

Tensor unary_op(std::string_view name, backend::UnaryOp op, const Tensor& x, Promotion promotion,
                UnaryGrad grad, double p0, double p1) {
  check(x.defined(), name, ": the input is an undefined tensor.");
  DType dtype = promote({&x});
  if (promotion == Promotion::ToFloat) dtype = float_result_type(dtype);
  Tensor xc = prepare(x, dtype, x.backend());
  Tensor y = run_unary(op, xc, p0, p1);
  if (grad && autograd::should_record(xc)) {
    autograd::record(name, {xc}, y, [xc, grad](const autograd::Context& ctx, const Tensor& g) {
      return TensorList{grad(xc, ctx.output(), g)};
    });
  }
  return y;
}

Tensor binary_op(std::string_view name, backend::BinaryOp op, const Tensor& a, const Tensor& b,
                 Promotion promotion, BinaryGrad grad) {
  check(a.defined() && b.defined(), name, ": an input is an undefined tensor.");
  Backend& be = common_backend(name, {&a, &b});
  DType dtype = promote({&a, &b});
  if (promotion == Promotion::ToFloat) dtype = float_result_type(dtype);
  Tensor ac = prepare(a, dtype, be), bc = prepare(b, dtype, be);
  Tensor y = run_binary(op, ac, bc);
  if (grad && autograd::should_record(ac, bc)) {
    autograd::record(name, {ac, bc}, y,
                     [ac, bc, grad](const autograd::Context& ctx, const Tensor& g) {
                       bool need_a = ctx.needs_input_grad(0), need_b = ctx.needs_input_grad(1);
                       auto [ga, gb] = grad(ac, bc, ctx.output(), g, need_a, need_b);
                       return TensorList{need_a ? sum_to(ga, ac.shape()) : Tensor(),
                                         need_b ? sum_to(gb, bc.shape()) : Tensor()};
                     });
  }
  return y;
}

Tensor predicate_op(std::string_view name, backend::BinaryOp op, const Tensor& a,
                    const Tensor& b) {
  check(a.defined() && b.defined(), name, ": an input is an undefined tensor.");
  Backend& be = common_backend(name, {&a, &b});
  DType dtype = promote({&a, &b});
  return run_binary(op, prepare(a, dtype, be), prepare(b, dtype, be));
}

Tensor sum_to(const Tensor& g, const Shape& shape) {
  if (g.shape() == shape) return g;
  const int lead = g.ndim() - shape.rank();
  std::vector<int> axes;
  for (int d = 0; d < g.ndim(); ++d)
    if (d < lead || (shape[d - lead] == 1 && g.shape()[d] != 1)) axes.push_back(d);
  Tensor s = axes.empty() ? g : ops::sum(g, axes, /*keepdims=*/true);
  return ops::reshape(s, shape);
}

}  // namespace keras::ops::detail
