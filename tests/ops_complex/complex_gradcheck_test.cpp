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

// The factorizations of complex matrices, through functions that do not depend on the free
// phases of singular and eigen vectors; Hermitian inputs built as B B^H + 3I or (B + B^H) / 2.
TEST(ComplexGradcheck, LinearAlgebra) {
  using Fn = std::function<Tensor(const Tensor&)>;
  auto hermitian_pd = [](const Tensor& b) {
    return ops::add(ops::matmul(b, ops::conj(ops::transpose(b))), ops::multiply(ops::eye(3), 3.0));
  };
  auto shifted = [](const Tensor& b) { return ops::add(b, ops::multiply(ops::eye(3), 3.0)); };
  auto weighted = [](const Tensor& v, const Tensor& values) {
    Tensor d = ops::multiply(values, ops::linspace(1.0, 2.0, values.shape().back()));
    return ops::matmul(ops::multiply(v, ops::expand_dims(ops::cast(d, v.dtype()), -2)),
                       ops::conj(ops::transpose(v)));
  };
  const std::pair<const char*, Fn> square[] = {
      {"det", [&](const Tensor& b) { return ops::det(shifted(b)); }},
      {"slogdet",
       [&](const Tensor& b) {
         auto [sign, log] = ops::slogdet(shifted(b));
         return ops::add(sign, log);
       }},
      {"lu_factor", [&](const Tensor& b) { return ops::lu_factor(shifted(b)).first; }},
      {"solve_triangular",
       [&](const Tensor& b) {
         return ops::add(ops::solve_triangular(shifted(b), b, true),
                         ops::solve_triangular(shifted(b), b, false));
       }},
      {"cholesky",
       [&](const Tensor& b) {
         return ops::add(ops::cholesky(hermitian_pd(b)), ops::cholesky(hermitian_pd(b), true));
       }},
      {"cholesky_inverse",
       [&](const Tensor& b) {
         return ops::add(ops::cholesky_inverse(shifted(b)),
                         ops::cholesky_inverse(shifted(b), true));
       }},
      {"eigh", [&](const Tensor& b) {
         Tensor h = ops::multiply(ops::add(b, ops::conj(ops::transpose(b))), 0.5);
         auto [w, v] = ops::eigh(h);
         return ops::concatenate({ops::cast(w, v.dtype()), ops::ravel(weighted(v, w)),
                                  ops::ravel(ops::cast(ops::abs(v), v.dtype()))},
                                 0);
       }}};
  for (const auto& [name, f] : square)
    expect_gradcheck(
        name,
        [f](const std::vector<Tensor>& x) { return both_parts(ops::ravel(f(complex_of(x, 0)))); },
        {randn({3, 3}, 31), randn({3, 3}, 32)});
  // Tall, wide and square: QR (keras-cpp differentiates the wide QR, JAX does not), SVD,
  // least squares and the pseudo-inverse, and the singular-value norms.
  const std::pair<const char*, Fn> rectangular[] = {
      {"qr",
       [](const Tensor& a) {
         auto [q, r] = ops::qr(a);
         return ops::concatenate({ops::ravel(q), ops::ravel(r)}, 0);
       }},
      {"svd",
       [&](const Tensor& a) {
         auto [u, s, vh] = ops::svd(a, false);
         Tensor rebuilt = ops::matmul(
             ops::multiply(
                 u, ops::expand_dims(
                        ops::cast(ops::multiply(s, ops::linspace(1.0, 2.0, s.shape().back())),
                                  u.dtype()),
                        -2)),
             vh);
         return ops::concatenate({ops::cast(s, u.dtype()), ops::ravel(rebuilt),
                                  ops::ravel(ops::cast(ops::abs(u), u.dtype())),
                                  ops::ravel(ops::cast(ops::abs(vh), u.dtype()))},
                                 0);
       }},
      {"lstsq and pinv",
       [](const Tensor& a) {
         Tensor b = ops::cast(ops::arange(a.shape()[0]), a.dtype());
         return ops::concatenate({ops::lstsq(a, b), ops::ravel(ops::pinv(a))}, 0);
       }},
      {"norm 2, -2 and nuc", [](const Tensor& a) {
         return ops::cast(
             ops::stack({ops::norm(a, 2), ops::norm(a, -2), ops::norm(a, ops::NormOrd("nuc"))}, 0),
             a.dtype());
       }}};
  // randn's rows are shifted sines (matrices of rank 2): 2I makes them full rank with
  // distinct singular values.
  for (const auto& [name, f] : rectangular)
    for (Shape shape : {Shape{4, 3}, Shape{3, 4}, Shape{3, 3}})
      expect_gradcheck(name,
                       [f, shape](const std::vector<Tensor>& x) {
                         return both_parts(f(ops::add(
                             complex_of(x, 0), ops::multiply(ops::eye(shape[0], shape[1]), 2.0))));
                       },
                       {randn(shape, 33), randn(shape, 34)});
}

// The ops complex_rest.py checks against jax.grad, by finite differences too (no ties: the
// orderings' gradients follow the chosen operand).
TEST(ComplexGradcheck, RestOfTheOps) {
  using Fn = std::function<Tensor(const Tensor&, const Tensor&)>;
  const std::pair<const char*, Fn> ops2[] = {
      {"maximum and minimum",
       [](const Tensor& a, const Tensor& b) {
         return ops::concatenate({ops::maximum(a, b), ops::minimum(a, b)}, 0);
       }},
      {"fmax and fmin",
       [](const Tensor& a, const Tensor& b) {
         return ops::concatenate({ops::fmax(a, b), ops::fmin(a, b)}, 0);
       }},
      {"logaddexp and logaddexp2",
       [](const Tensor& a, const Tensor& b) {
         return ops::concatenate({ops::logaddexp(a, b), ops::logaddexp2(a, b)}, 0);
       }},
      {"divide_no_nan", [](const Tensor& a, const Tensor& b) { return ops::divide_no_nan(a, b); }},
      {"linspace", [](const Tensor& a, const Tensor& b) { return ops::linspace(a, b, 4); }},
      {"cross", [](const Tensor& a, const Tensor& b) { return ops::cross(a, b); }},
      {"softmax, log_softmax and logsumexp",
       [](const Tensor& a, const Tensor&) {
         return ops::concatenate({ops::ravel(ops::softmax(a)), ops::ravel(ops::log_softmax(a)),
                                  ops::ravel(ops::logsumexp(a, 1))},
                                 0);
       }},
      {"sigmoid, silu, sinc and rsqrt",
       [](const Tensor& a, const Tensor&) {
         return ops::concatenate({ops::ravel(ops::sigmoid(a)), ops::ravel(ops::silu(a)),
                                  ops::ravel(ops::sinc(a)), ops::ravel(ops::rsqrt(a))},
                                 0);
       }},
      {"softplus, log_sigmoid, softsign, squareplus, tanh_shrink and gelu",
       [](const Tensor& a, const Tensor&) {
         return ops::concatenate({ops::ravel(ops::softplus(a)), ops::ravel(ops::log_sigmoid(a)),
                                  ops::ravel(ops::softsign(a)), ops::ravel(ops::squareplus(a)),
                                  ops::ravel(ops::tanh_shrink(a)), ops::ravel(ops::gelu(a))},
                                 0);
       }},
      {"average, trapezoid, diff and corrcoef", [](const Tensor& a, const Tensor&) {
         return ops::concatenate({ops::ravel(ops::average(a, 1)), ops::ravel(ops::trapezoid(a)),
                                  ops::ravel(ops::diff(a)), ops::ravel(ops::corrcoef(a))},
                                 0);
       }}};
  for (const auto& [name, f] : ops2)
    expect_gradcheck(
        name,
        [f](const std::vector<Tensor>& x) {
          return ops::ravel(both_parts(f(complex_of(x, 0), complex_of(x, 2))));
        },
        {randn({2, 3}, 41), randn({2, 3}, 42), randn({2, 3}, 43, 1.0, 0.3), randn({2, 3}, 44)});
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
