// GradientTape, value_and_grad, Variable and the engine's bookkeeping. Values are checked
// against closed-form derivatives; rules of individual ops are checked by finite differences
// in gradcheck_test.cpp.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;

TEST(GradientTape, SimpleGradient) {
  Tensor x = make({1, 2, 3}, {3});
  GradientTape tape;
  tape.watch(x);
  Tensor y = ops::sum(ops::square(x));
  EXPECT_TENSOR_NEAR(tape.gradient(y, x), make({2, 4, 6}, {3}), 1e-6, 0);
}

TEST(GradientTape, NothingIsRecordedWithoutATape) {
  Variable w(make({1, 2}, {2}));
  Tensor y = ops::multiply(w, 3.0);
  EXPECT_FALSE(y.requires_grad());  // inference builds no graph
  {
    GradientTape tape;
    EXPECT_TRUE(ops::multiply(w, 3.0).requires_grad());
    NoGradScope no_grad;
    EXPECT_FALSE(ops::multiply(w, 3.0).requires_grad());
  }
}

TEST(GradientTape, NonPersistentTapeRefusesSecondCall) {
  Tensor x = make({1}, {1});
  GradientTape tape;
  tape.watch(x);
  Tensor y = ops::exp(x);
  tape.gradient(y, x);
  EXPECT_THROW(tape.gradient(y, x), RuntimeError);
}

TEST(GradientTape, PersistentTapeAndJacobian) {
  Tensor x = make({1, 2}, {2});
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor y = ops::multiply(x, x);  // y_i = x_i^2, Jacobian diag(2 x)
  Tensor j = tape.jacobian(y, x);
  EXPECT_TENSOR_NEAR(j, make({2, 0, 0, 4}, {2, 2}), 1e-6, 0);
  EXPECT_TENSOR_NEAR(tape.gradient(ops::sum(y), x), make({2, 4}, {2}), 1e-6, 0);
}

TEST(GradientTape, SecondOrderThroughNestedTapes) {
  // d/dx x^3 = 3x^2, d2/dx2 = 6x at x = 2: 12 and 12.
  Tensor x = make({2}, {1}, DType::Float64);
  GradientTape outer;
  outer.watch(x);
  Tensor dy;
  {
    GradientTape inner;
    inner.watch(x);
    Tensor y = ops::multiply(ops::multiply(x, x), x);
    dy = inner.gradient(y, x);
  }
  EXPECT_NEAR(dy.item<double>(), 12.0, 1e-12);
  EXPECT_NEAR(outer.gradient(dy, x).item<double>(), 12.0, 1e-12);
}

TEST(GradientTape, ThirdOrderOfExp) {
  Tensor x = make({0.5}, {1}, DType::Float64);
  GradientTape t3;
  t3.watch(x);
  GradientTape t2;
  t2.watch(x);
  GradientTape t1;
  t1.watch(x);
  Tensor y = ops::exp(ops::multiply(x, 2.0));  // y''' = 8 e^{2x}
  Tensor d1 = t1.gradient(y, x);
  Tensor d2 = t2.gradient(d1, x);
  Tensor d3 = t3.gradient(d2, x);
  EXPECT_NEAR(d3.item<double>(), 8 * std::exp(1.0), 1e-10);
}

TEST(GradientTape, UnconnectedSourcesGiveZerosOrUndefined) {
  Tensor x = make({1, 2}, {2}), z = make({3}, {1});
  GradientTape tape(true);
  tape.watch(x);
  tape.watch(z);
  Tensor y = ops::sum(x);
  auto g = tape.gradient(y, {x, z});
  EXPECT_TENSOR_NEAR(g[1], make({0}, {1}), 0, 0);
  auto g2 = tape.gradient(y, {x, z}, Tensor(), UnconnectedGradients::None);
  EXPECT_FALSE(g2[1].defined());
}

TEST(GradientTape, BroadcastingSumsBack) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3}), b = make({10, 20, 30}, {3});
  GradientTape tape(true);
  tape.watch(a);
  tape.watch(b);
  Tensor y = ops::sum(ops::multiply(a, b));
  EXPECT_TENSOR_NEAR(tape.gradient(y, b), make({5, 7, 9}, {3}), 1e-6, 0);
  EXPECT_TENSOR_NEAR(tape.gradient(y, a), make({10, 20, 30, 10, 20, 30}, {2, 3}), 1e-6, 0);
}

TEST(GradientTape, GradientThroughViewsAndReuse) {
  Tensor x = make({1, 2, 3, 4}, {2, 2});
  GradientTape tape;
  tape.watch(x);
  Tensor t = x.transpose();
  // x used twice: directly and through the transposed view.
  Tensor y = ops::sum(ops::multiply(x, t[0].reshape({1, 2})));
  // y = x00 x00 + x01 x10 + x10 x00 + x11 x10
  Tensor g = tape.gradient(y, x);
  EXPECT_TENSOR_NEAR(g, make({2 * 1 + 3, 3, 2 + 4 + 1, 3}, {2, 2}), 1e-6, 0);
}

TEST(ValueAndGrad, OverVariables) {
  Variable w(make({1, 2, 3, 4}, {2, 2}), {.name = "w"});
  Tensor a = make({1, 1, 0, 1}, {2, 2});
  auto [loss, grads] =
      value_and_grad([&] { return ops::sum(ops::square(ops::matmul(a, w))); }, {w});
  // a @ w = [[4, 6], [3, 4]]: loss = 16 + 36 + 9 + 16; dL/dw = a^T (2 a w).
  EXPECT_NEAR(loss.item<double>(), 77.0, 1e-5);
  EXPECT_TENSOR_NEAR(grads[0], make({8, 12, 14, 20}, {2, 2}), 1e-6, 0);
}

TEST(ValueAndGrad, OverTensorsAndGradOfFunction) {
  Tensor g = grad([](const Tensor& x) { return ops::sum(ops::tanh(x)); }, make({0}, {1}));
  EXPECT_NEAR(g.item<double>(), 1.0, 1e-7);
  auto r = value_and_grad(
      [](const std::vector<Tensor>& v) { return ops::sum(ops::multiply(v[0], v[1])); },
      std::vector<Tensor>{make({2}, {1}), make({5}, {1})});
  EXPECT_NEAR(r.grads[0].item<double>(), 5.0, 0);
  EXPECT_NEAR(r.grads[1].item<double>(), 2.0, 0);
}

TEST(Variable, AssignInPlaceOrCopyOnWrite) {
  Variable v(make({1, 2}, {2}), {.name = "v"});
  const void* before = v.value().array().storage->data();
  v.assign(make({3, 4}, {2}));
  EXPECT_EQ(v.value().array().storage->data(), before);  // nobody else held it: in place
  Tensor held = v.value();                              // now someone does
  v.assign_add(make({1, 1}, {2}));
  EXPECT_EQ(held.to_vector<float>(), (std::vector<float>{3, 4}));  // untouched
  EXPECT_EQ(v.numpy<float>(), (std::vector<float>{4, 5}));
  v.assign(0.5);
  EXPECT_EQ(v.numpy<float>(), (std::vector<float>{0.5, 0.5}));
  try {
    v.assign(make({1, 2, 3}, {3}));
    FAIL();
  } catch (const ValueError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("'v'"), std::string::npos) << m;
    EXPECT_NE(m.find("(2,)"), std::string::npos) << m;
  }
}

TEST(Variable, GradientFollowsTheVariableAcrossAssignments) {
  Variable v(make({2}, {1}));
  GradientTape tape;
  Tensor y1 = ops::multiply(v, 3.0);
  v.assign(make({5}, {1}));
  Tensor y2 = ops::multiply(v, 4.0);
  EXPECT_NEAR(tape.gradient(ops::add(y1, y2), v).item<double>(), 7.0, 0);
}

TEST(Variable, NonTrainableGetsNoGradient) {
  Variable v(make({2}, {1}), {.trainable = false});
  GradientTape tape;
  Tensor y = ops::square(v);
  EXPECT_FALSE(y.requires_grad());
  EXPECT_NEAR(tape.gradient(y, v).item<double>(), 0.0, 0);
  v.set_trainable(true);
  EXPECT_TRUE(ops::square(v).requires_grad());
}

TEST(StopGradient, BlocksFlow) {
  Tensor x = make({3}, {1});
  GradientTape tape;
  tape.watch(x);
  Tensor y = ops::add(ops::square(x), ops::stop_gradient(ops::square(x)));
  EXPECT_NEAR(tape.gradient(y, x).item<double>(), 6.0, 0);
}

TEST(Autograd, IntegerOutputsCarryNoGradient) {
  Tensor x = make({1.5, -2}, {2});
  GradientTape tape;
  tape.watch(x);
  EXPECT_FALSE(ops::cast(x, DType::Int32).requires_grad());
  EXPECT_FALSE(ops::greater(x, 0.0).requires_grad());
}

}  // namespace
}  // namespace keras

namespace keras {
namespace {

TEST(ValueAndGrad, GradOfGradComposes) {
  // d2/dx2 sin(x) = -sin(x), through two nested keras::grad calls.
  Tensor x = test::make({0.7}, {1}, DType::Float64);
  auto first = [](const Tensor& v) {
    return ops::sum(grad([](const Tensor& u) { return ops::sum(ops::sin(u)); }, v));
  };
  EXPECT_NEAR(grad(first, x).item<double>(), -std::sin(0.7), 1e-12);
}

}  // namespace
}  // namespace keras
