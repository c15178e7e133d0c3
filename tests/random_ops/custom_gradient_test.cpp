// ops::custom_gradient: the tape uses the user's rule (not the forward ops), for one and several
// inputs, to higher order, and rejects rules of the wrong shape.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"

namespace keras {
namespace {

using ops::GradFn;
using ops::GradFn1;
using test::make;

Tensor f64(const std::vector<double>& v, const Shape& shape) { return make(v, shape, DType::Float64); }

// Keras's docstring example: log(1 + e^x) with a gradient that stays finite for large x.
auto log1pexp = ops::custom_gradient([](const Tensor& x) {
  Tensor e = ops::exp(x);
  return std::pair{ops::log(1.0 + e), [e](const Tensor& upstream) {
                     return upstream * (1.0 - 1.0 / (1.0 + e));
                   }};
});

TEST(CustomGradient, TheTapeUsesTheRule) {
  // At x = 100 in float32, e^x overflows: the forward ops' own gradient is inf / inf = NaN,
  // the custom rule gives 1.
  Tensor x = make({0.0, 100.0}, {2});
  Tensor naive = grad([](const Tensor& t) { return ops::sum(ops::log(1.0 + ops::exp(t))); }, x);
  EXPECT_TRUE(std::isnan(naive.to_vector<float>()[1]));
  Tensor g = grad([](const Tensor& t) { return ops::sum(log1pexp(t)); }, x);
  EXPECT_TENSOR_NEAR(g, make({0.5, 1.0}, {2}), 1e-6, 0);
  // A rule that is deliberately not the derivative shows that nothing else is used.
  auto fake = ops::custom_gradient([](const Tensor& t) {
    return std::pair{t * t, [](const Tensor& up) { return up * 42.0; }};
  });
  Tensor y = make({1, 2, 3}, {3});
  EXPECT_TENSOR_NEAR(fake(y), make({1, 4, 9}, {3}), 0, 0);
  EXPECT_TENSOR_NEAR(grad([&](const Tensor& t) { return ops::sum(fake(t)); }, y),
                     make({42, 42, 42}, {3}), 0, 0);
}

TEST(CustomGradient, StraightThroughEstimator) {
  // sign() has a zero gradient; the straight-through rule passes the upstream gradient on.
  auto ste = ops::custom_gradient([](const Tensor& t) {
    return std::pair{ops::sign(t), GradFn1([](const Tensor& up) { return up; })};
  });
  Tensor x = f64({-0.5, 0.25, 2}, {3});
  Tensor g = grad([&](const Tensor& t) { return ops::sum(ste(t) * t); }, x);
  // d/dx (ste(x) x) = sign(x) + x under the rule.
  EXPECT_TENSOR_NEAR(g, f64({-1.5, 1.25, 3}, {3}), 1e-12, 0);
}

TEST(CustomGradient, SeveralInputsAndOutputs) {
  // (x y, x + y) with its true gradient: gradcheck agrees with finite differences.
  auto f = ops::custom_gradient([](const TensorList& in) {
    Tensor x = in[0], y = in[1];
    GradFn rule = [x, y](const TensorList& up) {
      return TensorList{up[0] * y + up[1], up[0] * x + up[1]};
    };
    return std::pair{TensorList{x * y, x + y}, rule};
  });
  auto r = keras::testing::gradcheck(
      [&](const TensorList& in) {
        TensorList out = f(in);
        return ops::concatenate({out[0], out[1] * 3.0});
      },
      {f64({0.5, -1, 2}, {3}), f64({1.5, 0.25, -3}, {3})});
  EXPECT_TRUE(r.ok) << r.message;
  // Only the first output used: the second's upstream arrives as zeros.
  std::vector<Tensor> grads = keras::grad(
      [&](const TensorList& in) { return ops::sum(f(in)[0]); },
      {f64({2, 3}, {2}), f64({5, 7}, {2})});
  EXPECT_TENSOR_NEAR(grads[0], f64({5, 7}, {2}), 0, 0);
  EXPECT_TENSOR_NEAR(grads[1], f64({2, 3}, {2}), 0, 0);
}

TEST(CustomGradient, SecondOrderThroughTheRule) {
  // The rule of log1pexp uses e = exp(x), which keeps its history, so the second derivative
  // is the sigmoid's: s (1 - s).
  Tensor x = f64({-1, 0.5, 2}, {3});
  GradientTape outer;
  outer.watch(x);
  Tensor dx;
  {
    GradientTape inner;
    inner.watch(x);
    dx = inner.gradient(ops::sum(log1pexp(x)), x);
  }
  Tensor d2x = outer.gradient(ops::sum(dx), x);
  std::vector<double> expected;
  for (double v : {-1.0, 0.5, 2.0}) {
    double s = 1 / (1 + std::exp(-v));
    expected.push_back(s * (1 - s));
  }
  EXPECT_TENSOR_NEAR(d2x, f64(expected, {3}), 1e-12, 0);
}

TEST(CustomGradient, WithoutATapeOrGradientNeeded) {
  Tensor x = make({1, 2}, {2});
  EXPECT_TENSOR_NEAR(log1pexp(x), ops::log(1.0 + ops::exp(x)), 1e-6, 0);
  // Integer inputs need no gradient: the rule is never asked.
  auto f = ops::custom_gradient([](const Tensor& t) {
    return std::pair{t * 2, GradFn1([](const Tensor&) -> Tensor {
                       ADD_FAILURE() << "rule called";
                       return Tensor();
                     })};
  });
  GradientTape tape;
  EXPECT_EQ(f(make({3}, {1}, DType::Int32)).to_vector<int>(), std::vector<int>{6});
}

TEST(CustomGradient, RulesOfTheWrongShapeAreErrors) {
  auto wrong_count = ops::custom_gradient([](const TensorList& in) {
    return std::pair{TensorList{in[0] + in[1]},
                     GradFn([](const TensorList& up) { return TensorList{up[0]}; })};
  });
  Tensor a = f64({1, 2}, {2}), b = f64({3, 4}, {2});
  try {
    keras::grad([&](const TensorList& in) { return ops::sum(wrong_count(in)[0]); }, {a, b});
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("returned 1 gradients for a function of 2 inputs"),
              std::string::npos)
        << e.what();
  }
  auto wrong_shape = ops::custom_gradient([](const Tensor& t) {
    return std::pair{t * 1.0, GradFn1([](const Tensor& up) { return ops::sum(up); })};
  });
  try {
    grad([&](const Tensor& t) { return ops::sum(wrong_shape(t)); }, a);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("shape ()"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(2,)"), std::string::npos) << e.what();
  }
  auto no_rule = ops::custom_gradient([](const Tensor& t) { return std::pair{t, GradFn1()}; });
  EXPECT_THROW(grad([&](const Tensor& t) { return ops::sum(no_rule(t)); }, a), ValueError);
}

}  // namespace
}  // namespace keras
