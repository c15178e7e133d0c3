// Every differentiable elementwise op against central differences in float64, at points away
// from its discontinuities; second derivatives where a rule has a special case.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"

namespace keras {
namespace {

using test::expect_gradcheck;
using test::randn;
using test::sin_values;

using Fn = test::GradFn;

// Deterministic, irregular float64 values in [shift - scale, shift + scale].
Tensor of(const std::vector<double>& v) {
  return Tensor::from_vector(v, Shape{static_cast<int64_t>(v.size())});
}

using Unary = Tensor (*)(const Tensor&);
using Binary = Tensor (*)(const Tensor&, const Tensor&);

void check_unary(const std::string& name, Unary f, const Tensor& x) {
  expect_gradcheck(name, [f](auto& in) { return f(in[0]); }, {x});
}
void check_binary(const std::string& name, Binary f, const Tensor& a, const Tensor& b) {
  expect_gradcheck(name, [f](auto& in) { return f(in[0], in[1]); }, {a, b});
}

// d/dx of sum(f(x)), itself differentiated by gradcheck: checks the rules' own gradients.
Fn second_order(Unary f) {
  return [f](const std::vector<Tensor>& in) {
    Tensor x = in[0];
    GradientTape tape;
    tape.watch(x);
    Tensor y = ops::sum(f(x));
    return tape.gradient(y, x);
  };
}

TEST(ElementwiseGradcheck, Smooth) {
  Tensor a = sin_values({2, 5}, 1, 2.0);         // (-2, 2)
  Tensor pos = sin_values({2, 5}, 2, 1.5, 2.0);  // (0.5, 3.5)
  Tensor unit = sin_values({2, 5}, 3, 0.9);      // (-0.9, 0.9)
  check_unary("negative", ops::negative, a);
  check_unary("square", ops::square, a);
  check_unary("sqrt", ops::sqrt, pos);
  check_unary("cbrt", ops::cbrt, a);
  check_unary("reciprocal", ops::reciprocal, pos);
  check_unary("exp", ops::exp, a);
  check_unary("exp2", ops::exp2, a);
  check_unary("expm1", ops::expm1, a);
  check_unary("log", ops::log, pos);
  check_unary("log1p", ops::log1p, sin_values({2, 5}, 4, 0.4, 0.0));
  check_unary("log2", ops::log2, pos);
  check_unary("log10", ops::log10, pos);
  check_unary("sin", ops::sin, a);
  check_unary("cos", ops::cos, a);
  check_unary("tan", ops::tan, sin_values({2, 5}, 5, 1.2));
  check_unary("arcsin", ops::arcsin, unit);
  check_unary("arccos", ops::arccos, unit);
  check_unary("arctan", ops::arctan, a);
  check_unary("sinh", ops::sinh, a);
  check_unary("cosh", ops::cosh, a);
  check_unary("tanh", ops::tanh, a);
  check_unary("arcsinh", ops::arcsinh, a);
  check_unary("arccosh", ops::arccosh, sin_values({2, 5}, 6, 1.0, 2.5));
  check_unary("arctanh", ops::arctanh, unit);
  check_unary("deg2rad", ops::deg2rad, a);
  check_unary("rad2deg", ops::rad2deg, a);
  check_unary("erf", ops::erf, a);
  check_unary("erfc", ops::erfc, a);
  check_unary("erfinv", ops::erfinv, unit);
  check_unary("rsqrt", ops::rsqrt, pos);
  check_unary("real", ops::real, a);
  check_unary("conj", ops::conj, a);
  check_unary("conjugate", ops::conjugate, a);
  check_unary("imag", ops::imag, a);
}

TEST(ElementwiseGradcheck, AwayFromKinks) {
  // abs/fabs/sign/angle away from 0; rounding away from integers and half-integers.
  Tensor a = of({-1.7, -0.4, 0.3, 1.2, 2.6, -2.2});
  check_unary("absolute", ops::absolute, a);
  check_unary("abs", ops::abs, a);
  check_unary("fabs", ops::fabs, a);
  check_unary("sign", ops::sign, a);
  check_unary("angle", ops::angle, a);
  check_unary("floor", ops::floor, a);
  check_unary("ceil", ops::ceil, a);
  check_unary("trunc", ops::trunc, a);
  expect_gradcheck("round", [](auto& x) { return ops::round(x[0]); }, {a});
  expect_gradcheck("round_decimals", [](auto& x) { return ops::round(x[0], 1); },
                   {of({-1.72, -0.43, 0.31, 1.26})});
  // clip: inside the bounds the gradient passes, outside it is 0.
  expect_gradcheck("clip", [](auto& x) { return ops::clip(x[0], -1.0, 1.5); }, {a});
  // nan_to_num: the identity on finite values, 0 where a value was replaced.
  // (Default replacements of inf are near DBL_MAX, which central differences cannot sum.)
  expect_gradcheck("nan_to_num", [](auto& x) { return ops::nan_to_num(x[0]); },
                   {of({1.5, -2.0, NAN, 0.25})});
  expect_gradcheck("nan_to_num_values",
                   [](auto& x) { return ops::nan_to_num(x[0], 1.0, 2.0, -2.0); },
                   {of({1.5, -2.0, NAN, INFINITY, -INFINITY, 0.25})});
}

TEST(ElementwiseGradcheck, Binary) {
  Tensor a = sin_values({3, 4}, 7, 2.0), b = sin_values({4}, 8, 1.0, 2.5);  // b in (1.5, 3.5)
  Tensor c = sin_values({3, 4}, 9, 2.0);
  check_binary("add", ops::add, a, b);
  check_binary("subtract", ops::subtract, a, b);
  check_binary("multiply", ops::multiply, a, b);
  check_binary("divide", ops::divide, a, b);
  check_binary("true_divide", ops::true_divide, a, b);
  check_binary("divide_no_nan", ops::divide_no_nan, a, b);
  check_binary("power", ops::power, sin_values({3, 4}, 10, 1.0, 2.0), a);
  check_binary("maximum", ops::maximum, a, c);
  check_binary("minimum", ops::minimum, a, c);
  check_binary("fmax", ops::fmax, a, c);
  check_binary("fmin", ops::fmin, a, c);
  check_binary("logaddexp", ops::logaddexp, a, b);
  check_binary("logaddexp2", ops::logaddexp2, a, b);
  check_binary("arctan2", ops::arctan2, a, b);
  check_binary("hypot", ops::hypot, a, c);
  // Quotients away from integers, so floor/trunc of a / b are locally constant.
  Tensor n = of({5.3, -5.3, 7.9, -2.2, 0.7}), d = of({2.0, 2.0, -3.0, -1.5, 0.4});
  check_binary("floor_divide", ops::floor_divide, n, d);
  check_binary("mod", ops::mod, n, d);
  check_binary("fmod", ops::fmod, n, d);
  expect_gradcheck("operator%", [](auto& x) { return x[0] % x[1]; }, {n, d});
  // fmax/fmin with NaN: the gradient goes to the number.
  expect_gradcheck("fmax_nan", [](auto& x) { return ops::fmax(x[0], x[1]); },
                   {of({1.0, NAN}), of({NAN, 2.0})});
  // logaddexp with an infinite operand: all the gradient goes to the other.
  expect_gradcheck("logaddexp_inf", [](auto& x) { return ops::logaddexp(x[0], x[1]); },
                   {of({-INFINITY, 1.0}), of({0.5, -INFINITY})});
  // ldexp: differentiable in x1; the integer exponent is skipped.
  Tensor e = Tensor::from_vector(std::vector<int32_t>{3, -2, 0, 10}, Shape{4});
  expect_gradcheck("ldexp", [](auto& x) { return ops::ldexp(x[0], x[1]); },
                   {of({0.3, -1.2, 2.0, 0.01}), e});
  // heaviside: x2 passes through where x1 == 0 (x1 itself is skipped: a jump at 0).
  expect_gradcheck("heaviside", [](auto& x) { return ops::heaviside(x[0], x[1]); },
                   {of({-1.0, 0.0, 2.0, 0.0}), of({0.3, 0.4, 0.5, 0.6})}, {.skip = {0}});
  // divide_no_nan where the divisor is 0: the numerator's gradient is 0 there.
  expect_gradcheck("divide_no_nan_zero", [](auto& x) { return ops::divide_no_nan(x[0], x[1]); },
                   {of({1.5, -2.0, 3.0}), of({0.0, 2.0, 0.0})}, {.skip = {1}});
  Tensor cond = ops::greater(sin_values({3, 4}, 11), 0.0);
  expect_gradcheck("where", [cond](auto& x) { return ops::where(cond, x[0], x[1]); }, {a, b});
}

TEST(ElementwiseGradcheck, Special) {
  // i0 on both sides of the series/asymptotic switch of its derivative (|x| = 20). Large and
  // small values go in separate checks: the differences of a sum of values near 1e9 cannot
  // resolve the derivative of a value near 1.
  check_unary("i0", ops::i0, of({-3.0, -0.4, 0.0, 0.7, 5.5}));
  check_unary("i0_large", ops::i0, of({12.0, 19.5, 21.0, -24.0}));
  // sinc at 0, in the series region of its derivative, and beyond.
  check_unary("sinc", ops::sinc, of({0.0, 1e-3, -0.05, 0.09, 0.11, -0.7, 2.3, 5.5}));
  check_unary("erfinv_tails", ops::erfinv, of({-0.99, 0.995, 0.5}));
}

TEST(ElementwiseGradcheck, SecondOrder) {
  Tensor a = of({-1.3, -0.2, 0.4, 1.1, 2.2});
  expect_gradcheck("sinc''", second_order(ops::sinc), {of({0.0, 1e-3, -0.05, 0.11, 1.7, -2.4})});
  expect_gradcheck("i0''", second_order(ops::i0), {of({-3.0, 0.0, 0.7})});
  expect_gradcheck("i0''_large", second_order(ops::i0), {of({12.0, 19.9, 20.1, -23.0})});
  expect_gradcheck("erf''", second_order(ops::erf), {a});
  expect_gradcheck("erfinv''", second_order(ops::erfinv), {of({-0.6, 0.1, 0.8})});
  expect_gradcheck("rsqrt''", second_order(ops::rsqrt), {of({0.5, 1.5, 3.0})});
  expect_gradcheck("cbrt''", second_order(ops::cbrt), {a});
  expect_gradcheck("arccosh''", second_order(ops::arccosh), {of({1.5, 2.0, 4.0})});
  expect_gradcheck("tan''", second_order(ops::tan), {a});
  expect_gradcheck(
      "logaddexp''",
      second_order([](const Tensor& x) { return ops::logaddexp(x, ops::multiply(x, 0.5)); }), {a});
  expect_gradcheck("hypot''",
                   second_order([](const Tensor& x) { return ops::hypot(x, ops::add(x, 1.0)); }),
                   {a});
  expect_gradcheck("divide_no_nan''", second_order([](const Tensor& x) {
                     return ops::divide_no_nan(ops::square(x), ops::add(x, 3.0));
                   }),
                   {a});
}

TEST(ElementwiseGradcheck, IntegerAndBoolOutputsCarryNoGradient) {
  Tensor x = sin_values({4}, 12);
  GradientTape tape;
  tape.watch(x);
  for (const Tensor& y : {ops::isnan(x), ops::signbit(x), ops::isclose(x, x), ops::less(x, 0.0),
                          ops::logical_and(x, x), ops::isreal(x)})
    EXPECT_FALSE(y.requires_grad());
  // nextafter has no derivative: its result is not connected to x.
  EXPECT_FALSE(ops::nextafter(x, 1.0).requires_grad());
}

TEST(ElementwiseGradcheck, ZeroGradientAtSingularPoints) {
  // divide_no_nan and hypot give 0 (not NaN) where the plain formulas divide by 0; sinc'(0) = 0.
  Tensor a = of({1.0, 0.0}), b = of({0.0, 0.0});
  GradientTape tape(/*persistent=*/true);
  tape.watch(a);
  tape.watch(b);
  Tensor q = ops::sum(ops::divide_no_nan(a, b));
  Tensor h = ops::sum(ops::hypot(a, b));
  Tensor s = ops::sum(ops::sinc(b));
  auto dq = tape.gradient(q, std::vector<Tensor>{a, b});
  EXPECT_TENSOR_EQ(dq[0], of({0.0, 0.0}));
  EXPECT_TENSOR_EQ(dq[1], of({0.0, 0.0}));
  auto dh = tape.gradient(h, std::vector<Tensor>{a, b});
  EXPECT_TENSOR_EQ(dh[0], of({1.0, 0.0}));
  EXPECT_TENSOR_EQ(dh[1], of({0.0, 0.0}));
  EXPECT_TENSOR_EQ(tape.gradient(s, b), of({0.0, 0.0}));
}

TEST(ElementwiseGradcheck, SincSecondDerivativeAtZero) {
  // sinc''(0) = -pi^2 / 3, which needs the rule's series branch (a where() around the direct
  // formula would give 0).
  Tensor x = of({0.0});
  GradientTape outer;
  outer.watch(x);
  Tensor d;
  {
    GradientTape inner;
    inner.watch(x);
    d = inner.gradient(ops::sum(ops::sinc(x)), x);
  }
  Tensor dd = outer.gradient(ops::sum(d), x);
  EXPECT_NEAR(dd.item<double>(), -std::numbers::pi * std::numbers::pi / 3, 1e-12);
}

}  // namespace
}  // namespace keras
