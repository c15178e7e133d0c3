#include "ops/detail/elementwise.h"

#include <string>

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/op_utils.h"

namespace keras::ops::detail {

DType compute_dtype(DType promoted, Promotion promotion) {
  switch (promotion) {
    case Promotion::Keep:
      return promoted;
    case Promotion::Numeric:
      return promoted == DType::Bool ? DType::Int32 : promoted;
    case Promotion::ToFloat:
      return float_result_type(promoted);
    case Promotion::Inexact:
      // Complex is inexact too: never cast away an imaginary part.
      if (is_floating(promoted) || is_complex(promoted)) return promoted;
      return promoted == DType::Int64 ? DType::Float64 : config::floatx();
  }
  return promoted;
}

Tensor unary_op(std::string_view name, backend::UnaryOp op, const Tensor& x, Promotion promotion,
                UnaryGrad grad, double p0, double p1) {
  check(x.defined(), name, ": the input is an undefined tensor.");
  if (complex_detail::any_complex({&x})) return complex_detail::unary(name, op, x);
  DType dtype = compute_dtype(promote({&x}), promotion);
  Tensor xc = prepare(x, dtype, x.backend());
  Tensor y = run_unary(op, xc, p0, p1);
  if (grad && autograd::should_record(xc)) {
    autograd::record(name, {xc}, y, [xc, grad](const autograd::Context& ctx, const Tensor& g) {
      return TensorList{grad(xc, ctx.output(), g)};
    });
  }
  return y;
}

namespace {

void record_binary(std::string_view name, const Tensor& ac, const Tensor& bc, Tensor& y,
                   BinaryGrad grad) {
  autograd::record(name, {ac, bc}, y,
                   [ac, bc, grad](const autograd::Context& ctx, const Tensor& g) {
                     bool need_a = ctx.needs_input_grad(0), need_b = ctx.needs_input_grad(1);
                     auto [ga, gb] = grad(ac, bc, ctx.output(), g, need_a, need_b);
                     return TensorList{need_a ? sum_to(ga, ac.shape()) : Tensor(),
                                       need_b ? sum_to(gb, bc.shape()) : Tensor()};
                   });
}

}  // namespace

Tensor binary_op(std::string_view name, backend::BinaryOp op, const Tensor& a, const Tensor& b,
                 Promotion promotion, BinaryGrad grad) {
  check(a.defined() && b.defined(), name, ": an input is an undefined tensor.");
  if (complex_detail::any_complex({&a, &b})) return complex_detail::binary(name, op, a, b);
  Backend& be = common_backend(name, {&a, &b});
  DType dtype = compute_dtype(promote({&a, &b}), promotion);
  Tensor ac = prepare(a, dtype, be), bc = prepare(b, dtype, be);
  // Checked here so the message names the op rather than the primitive.
  broadcast_shapes(name, ac.shape(), bc.shape());
  Tensor y = run_binary(op, ac, bc);
  if (grad && autograd::should_record(ac, bc)) record_binary(name, ac, bc, y, grad);
  return y;
}

Tensor predicate_op(std::string_view name, backend::BinaryOp op, const Tensor& a, const Tensor& b) {
  check(a.defined() && b.defined(), name, ": an input is an undefined tensor.");
  if (complex_detail::any_complex({&a, &b})) return complex_detail::predicate(name, op, a, b);
  Backend& be = common_backend(name, {&a, &b});
  DType dtype = promote({&a, &b});
  Tensor ac = prepare(a, dtype, be), bc = prepare(b, dtype, be);
  broadcast_shapes(name, ac.shape(), bc.shape());
  return run_binary(op, ac, bc);
}

Tensor composite_unary(std::string_view name, const Tensor& x, Promotion promotion,
                       const std::function<Tensor(const Tensor&)>& forward, UnaryGrad grad) {
  check(x.defined(), name, ": the input is an undefined tensor.");
  if (is_complex(x.dtype())) complex_detail::unsupported(name, x.dtype());
  DType dtype = compute_dtype(promote({&x}), promotion);
  Tensor xc = prepare(x, dtype, x.backend());
  Tensor y;
  {
    NoGradScope no_grad;  // the composition's own nodes would duplicate `grad`
    y = forward(xc);
  }
  if (grad && autograd::should_record(xc)) {
    autograd::record(name, {xc}, y, [xc, grad](const autograd::Context& ctx, const Tensor& g) {
      return TensorList{grad(xc, ctx.output(), g)};
    });
  }
  return y;
}

Tensor composite_binary(std::string_view name, const Tensor& a, const Tensor& b,
                        Promotion promotion,
                        const std::function<Tensor(const Tensor&, const Tensor&)>& forward,
                        BinaryGrad grad) {
  check(a.defined() && b.defined(), name, ": an input is an undefined tensor.");
  if (complex_detail::any_complex({&a, &b})) complex_detail::unsupported(name, promote({&a, &b}));
  Backend& be = common_backend(name, {&a, &b});
  DType dtype = compute_dtype(promote({&a, &b}), promotion);
  Tensor ac = prepare(a, dtype, be), bc = prepare(b, dtype, be);
  broadcast_shapes(name, ac.shape(), bc.shape());
  Tensor y;
  {
    NoGradScope no_grad;
    y = forward(ac, bc);
  }
  if (grad && autograd::should_record(ac, bc)) record_binary(name, ac, bc, y, grad);
  return y;
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

Tensor unchanged(const Tensor& x) {
  return x.is_weak() ? prepare(x, promote({&x}), x.backend()) : x;
}

Tensor zero_grad(const Tensor&, const Tensor&, const Tensor& g) {
  return zeros_like(g);
}

namespace {

bool is_integer_like(const Tensor& t, bool allow_bool) {
  if (t.is_weak()) {
    const Scalar& v = t.impl()->weak_value;
    return v.is_integral() || (allow_bool && v.is_bool());
  }
  return is_integer(t.dtype()) || (allow_bool && t.dtype() == DType::Bool);
}

// "float32 of shape (2, 3)", or "a C++ float literal".
std::string describe(const Tensor& t) {
  if (t.is_weak()) {
    const Scalar& v = t.impl()->weak_value;
    return v.is_floating() ? "a float literal"
                           : (v.is_bool() ? "a bool literal" : "an int literal");
  }
  return keras::detail::cat(t.dtype(), " of shape ", t.shape());
}

std::string describe_all(std::initializer_list<const Tensor*> inputs) {
  std::string out;
  for (const Tensor* t : inputs) {
    if (!out.empty()) out += " and ";
    out += describe(*t);
  }
  return out;
}

}  // namespace

void require_integer(std::string_view op, std::initializer_list<const Tensor*> inputs,
                     bool allow_bool) {
  for (const Tensor* t : inputs) {
    check(t->defined(), op, ": an input is an undefined tensor.");
    if (!is_integer_like(*t, allow_bool))
      throw TypeError(keras::detail::cat(
          op, ": expected ", allow_bool ? "integer or bool" : "integer", " inputs, got ",
          describe_all(inputs), ". Cast with ops::cast(x, keras::int32) first."));
  }
}

void reject_bool(std::string_view op, std::initializer_list<const Tensor*> inputs,
                 std::string_view hint) {
  bool all_bool = true;
  for (const Tensor* t : inputs) {
    check(t->defined(), op, ": an input is an undefined tensor.");
    all_bool =
        all_bool && (t->is_weak() ? t->impl()->weak_value.is_bool() : t->dtype() == DType::Bool);
  }
  // Mixed bool and numeric inputs promote to the numeric dtype, which is fine.
  if (all_bool)
    throw TypeError(keras::detail::cat(op, ": not supported for bool inputs (got ",
                                       describe_all(inputs), "); ", hint));
}

}  // namespace keras::ops::detail
