// Complex gradients against central finite differences in float64. Two checks: every complex
// op, with the complex numbers built from real inputs (gradcheck differentiates the real
// parametrization); and JAX's convention for a complex leaf, grad = dL/dx - i dL/dy, with the
// partial derivatives taken numerically.

#include <gtest/gtest.h>

#include <complex>

#include "gradcheck_helpers.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::expect_gradcheck;
using test::randn;
using C = std::complex<double>;

Tensor complex_of(const std::vector<Tensor>& x, size_t i) {
  return ops::view_as_complex(ops::stack({x[i], x[i + 1]}, -1));
}

// A real tensor that depends on both parts of z (gradcheck needs a real output).
Tensor both_parts(const Tensor& z) {
  return ops::concatenate({ops::real(z), ops::multiply(ops::imag(z), 0.7)}, -1);
}

TEST(ComplexGradcheck, UnaryOps) {
  using Fn = Tensor (*)(const Tensor&);
  const std::pair<const char*, Fn> unary[] = {
      {"negative", &ops::negative}, {"square", &ops::square}, {"reciprocal", &ops::reciprocal},
      {"exp", &ops::exp},           {"log", &ops::log},       {"sqrt", &ops::sqrt},
      {"conj", &ops::conj},         {"sin", &ops::sin},       {"cos", &ops::cos},
      {"tan", &ops::tan},           {"sinh", &ops::sinh},     {"cosh", &ops::cosh},
      {"tanh", &ops::tanh},         {"exp2", &ops::exp2},     {"expm1", &ops::expm1},
      {"log1p", &ops::log1p},       {"log2", &ops::log2},     {"log10", &ops::log10},
      {"arcsin", &ops::arcsin},     {"arccos", &ops::arccos}, {"arctan", &ops::arctan},
      {"arcsinh", &ops::arcsinh},   {"arctanh", &ops::arctanh},
      // arccosh over both half-planes: jax.grad has the wrong sign for Re z < 0, so the Keras
      // fixture checks the right half only and this check the rest.
      {"arccosh", &ops::arccosh}};
  for (auto [name, f] : unary)
    expect_gradcheck(name, [f](const std::vector<Tensor>& x) {
      return both_parts(f(complex_of(x, 0)));
    }, {randn({2, 3}, 1), randn({2, 3}, 2)});
  for (auto [name, f] : {std::pair<const char*, Fn>{"abs", &ops::abs}, {"angle", &ops::angle},
                         {"real", &ops::real}, {"imag", &ops::imag}})
    expect_gradcheck(name, [f](const std::vector<Tensor>& x) { return f(complex_of(x, 0)); },
                     {randn({2, 3}, 3), randn({2, 3}, 4)});
}

TEST(ComplexGradcheck, BinaryOpsReductionsAndShapes) {
  using Fn = Tensor (*)(const Tensor&, const Tensor&);
  for (auto [name, f] : {std::pair<const char*, Fn>{"add", &ops::add}, {"subtract", &ops::subtract},
                         {"multiply", &ops::multiply}, {"divide", &ops::divide},
                         {"matmul", &ops::matmul}, {"power", &ops::power}})
    expect_gradcheck(name, [f](const std::vector<Tensor>& x) {
      return both_parts(f(complex_of(x, 0), complex_of(x, 2)));
    }, {randn({3, 3}, 5), randn({3, 3}, 6), randn({3, 3}, 7, 1.0, 0.5), randn({3, 3}, 8)});
  // A real operand promoted to complex, broadcast along the rows.
  expect_gradcheck("multiply by real", [](const std::vector<Tensor>& x) {
    return both_parts(ops::multiply(complex_of(x, 0), x[2]));
  }, {randn({2, 4}, 9), randn({2, 4}, 10), randn({4}, 11)});
  expect_gradcheck("sum, mean and cumsum", [](const std::vector<Tensor>& x) {
    Tensor z = complex_of(x, 0);
    return ops::concatenate({both_parts(ops::sum(z, 0)), both_parts(ops::mean(z, -1)),
                             ops::ravel(both_parts(ops::cumsum(z, 1)))}, 0);
  }, {randn({2, 3}, 12), randn({2, 3}, 13)});
  expect_gradcheck("prod and cumprod", [](const std::vector<Tensor>& x) {
    Tensor z = complex_of(x, 0);
    return ops::concatenate(
        {both_parts(ops::prod(z, 1)), both_parts(ops::reshape(ops::prod(z), {1})),
         ops::ravel(both_parts(ops::cumprod(z, 1)))},
        0);
  }, {randn({2, 5}, 19), randn({2, 5}, 20)});
  // The orderings choose elements (no ties in random draws): the chosen ones get the gradient.
  expect_gradcheck("max, min and sort", [](const std::vector<Tensor>& x) {
    Tensor z = complex_of(x, 0);
    return ops::concatenate({both_parts(ops::max(z, 1)), both_parts(ops::min(z, 1)),
                             ops::ravel(both_parts(ops::sort(z, 1)))}, 0);
  }, {randn({3, 4}, 21), randn({3, 4}, 22)});
  expect_gradcheck("solve and inv", [](const std::vector<Tensor>& x) {
    Tensor a = ops::add(complex_of(x, 0), ops::multiply(ops::eye(3), 3.0));
    return ops::concatenate({ops::ravel(both_parts(ops::solve(a, complex_of(x, 2)))),
                             ops::ravel(both_parts(ops::inv(a)))}, 0);
  }, {randn({3, 3}, 23), randn({3, 3}, 24), randn({3, 2}, 25), randn({3, 2}, 26)});
  expect_gradcheck("view_as_complex", [](const std::vector<Tensor>& x) {
    return ops::view_as_real(ops::multiply(ops::view_as_complex(x[0]), 1.5));
  }, {randn({2, 3, 2}, 18)});
  expect_gradcheck("view_as_real", [](const std::vector<Tensor>& x) {
    Tensor z = ops::transpose(complex_of(x, 0));
    Tensor parts = ops::concatenate({z, z.slice({{}, {0, 1}})}, 1);
    Tensor chosen = ops::where(ops::greater(x[0], 0.0).transpose(), z, ops::conj(z));
    Tensor mixed = ops::concatenate({chosen, z.slice({{}, {1, 2}})}, 1);
    return ops::view_as_real(ops::stack({parts, mixed}, 0));
  }, {randn({3, 2}, 14), randn({3, 2}, 15)});
  expect_gradcheck("polar", [](const std::vector<Tensor>& x) {
    return both_parts(ops::polar(x[0], x[1]));
  }, {randn({5}, 16, 1.0, 2.0), randn({5}, 17)});
}

// L(z) = sum of a real function of z; the tape's gradient must be dL/dx - i dL/dy.
TEST(ComplexGradcheck, ComplexLeafFollowsJaxConvention) {
  const std::vector<C> values = {{0.3, -1.2}, {1.5, 0.4}, {-0.7, 0.9}, {2.0, -0.1}};
  const Tensor w = Tensor::from_vector(std::vector<C>{{1, 2}, {-0.5, 1}, {0.3, 0.3}, {2, -1}},
                                       {4});
  auto loss = [&](const Tensor& z) {
    Tensor y = ops::multiply(ops::exp(ops::multiply(z, w)), ops::conj(ops::sqrt(z)));
    return ops::add(ops::sum(ops::abs(y)), ops::sum(ops::angle(ops::divide(y, z))));
  };
  Tensor z = Tensor::from_vector(values, {4});
  GradientTape tape;
  tape.watch(z);
  Tensor l = loss(z);
  Tensor g = tape.gradient(l, {z})[0];
  ASSERT_EQ(g.dtype(), DType::Complex128);
  std::vector<C> analytic = g.to_vector<C>();
  const double h = 1e-6;
  for (size_t i = 0; i < values.size(); ++i) {
    auto at = [&](C delta) {
      std::vector<C> v = values;
      v[i] += delta;
      return loss(Tensor::from_vector(v, {4})).item<double>();
    };
    const double dx = (at({h, 0}) - at({-h, 0})) / (2 * h);
    const double dy = (at({0, h}) - at({0, -h})) / (2 * h);
    EXPECT_NEAR(analytic[i].real(), dx, 1e-6) << "element " << i;
    EXPECT_NEAR(analytic[i].imag(), -dy, 1e-6) << "element " << i;
  }
}

}  // namespace
}  // namespace keras
