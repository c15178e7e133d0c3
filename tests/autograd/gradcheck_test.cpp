// Every differentiable op of the engine core against central differences in float64.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"

namespace keras {
namespace {

using test::expect_gradcheck;
using test::randn;
using test::sin_values;

using test::make;
using Fn = test::GradFn;

TEST(Gradcheck, ElementwiseBinary) {
  Tensor a = randn({3, 4}, 1), b = randn({4}, 2, 1.0, 3.0), pos = randn({3, 4}, 3, 0.5, 2.0);
  expect_gradcheck("add", [](auto& x) { return ops::add(x[0], x[1]); }, {a, b});
  expect_gradcheck("subtract", [](auto& x) { return ops::subtract(x[0], x[1]); }, {a, b});
  expect_gradcheck("multiply", [](auto& x) { return ops::multiply(x[0], x[1]); }, {a, b});
  expect_gradcheck("divide", [](auto& x) { return ops::divide(x[0], x[1]); }, {a, b});
  expect_gradcheck("power", [](auto& x) { return ops::power(x[0], x[1]); }, {pos, a});
  expect_gradcheck("maximum", [](auto& x) { return ops::maximum(x[0], x[1]); }, {a, randn({3, 4}, 9)});
  expect_gradcheck("minimum", [](auto& x) { return ops::minimum(x[0], x[1]); }, {a, randn({3, 4}, 9)});
  Tensor c = ops::greater(randn({3, 4}, 5), 0.0);
  expect_gradcheck("where", [c](auto& x) { return ops::where(c, x[0], x[1]); }, {a, b});
}

TEST(Gradcheck, ElementwiseUnary) {
  Tensor a = randn({2, 5}, 4), pos = randn({2, 5}, 6, 0.5, 2.0);
  expect_gradcheck("negative", [](auto& x) { return ops::negative(x[0]); }, {a});
  expect_gradcheck("absolute", [](auto& x) { return ops::absolute(x[0]); }, {a});
  expect_gradcheck("square", [](auto& x) { return ops::square(x[0]); }, {a});
  expect_gradcheck("sqrt", [](auto& x) { return ops::sqrt(x[0]); }, {pos});
  expect_gradcheck("exp", [](auto& x) { return ops::exp(x[0]); }, {a});
  expect_gradcheck("log", [](auto& x) { return ops::log(x[0]); }, {pos});
  expect_gradcheck("tanh", [](auto& x) { return ops::tanh(x[0]); }, {a});
  // Through float32, the differences are only as fine as float32: a larger step.
  expect_gradcheck("cast", [](auto& x) { return ops::cast(ops::cast(x[0], DType::Float32), DType::Float64); }, {a},
                   {.eps = 1e-2, .atol = 1e-4, .rtol = 1e-4});
}

TEST(Gradcheck, Reductions) {
  Tensor a = randn({3, 4, 2}, 7);
  expect_gradcheck("sum", [](auto& x) { return ops::sum(x[0], {0, 2}); }, {a});
  expect_gradcheck("sum_keepdims", [](auto& x) { return ops::sum(x[0], -1, true); }, {a});
  expect_gradcheck("mean", [](auto& x) { return ops::mean(x[0], 1); }, {a});
  expect_gradcheck("max", [](auto& x) { return ops::max(x[0], 1); }, {a});
  expect_gradcheck("min", [](auto& x) { return ops::min(x[0]); }, {a});
}

TEST(Gradcheck, ViewsAndJoins) {
  Tensor a = randn({2, 3, 4}, 8);
  expect_gradcheck("reshape", [](auto& x) { return ops::reshape(x[0], {4, 6}); }, {a});
  expect_gradcheck("transpose", [](auto& x) { return ops::transpose(x[0], {2, 0, 1}); }, {a});
  expect_gradcheck("reshape_of_transpose", [](auto& x) { return ops::reshape(ops::transpose(x[0]), {-1}); }, {a});
  expect_gradcheck("expand_dims", [](auto& x) { return ops::expand_dims(x[0], 1); }, {a});
  expect_gradcheck("squeeze", [](auto& x) { return ops::squeeze(ops::expand_dims(x[0], 0)); }, {a});
  expect_gradcheck("broadcast_to", [](auto& x) { return ops::broadcast_to(x[0], {5, 2, 3, 4}); }, {a});
  expect_gradcheck("slice", [](auto& x) { return x[0].slice({{}, {None, None, -2}, {1, 3}}); }, {a});
  expect_gradcheck("index", [](auto& x) { return x[0][1][-1]; }, {a});
  expect_gradcheck("concatenate", [](auto& x) { return ops::concatenate({x[0], x[1]}, 1); },
                   {a, randn({2, 1, 4}, 9)});
  expect_gradcheck("stack", [](auto& x) { return ops::stack({x[0], x[1]}, -1); }, {a, randn({2, 3, 4}, 10)});
}

TEST(Gradcheck, Matmul) {
  expect_gradcheck("matmul_2d", [](auto& x) { return ops::matmul(x[0], x[1]); },
                   {randn({3, 4}, 11), randn({4, 2}, 12)});
  expect_gradcheck("matmul_broadcast", [](auto& x) { return ops::matmul(x[0], x[1]); },
                   {randn({2, 1, 3, 4}, 13), randn({5, 4, 2}, 14)});
  expect_gradcheck("matmul_vectors", [](auto& x) { return ops::matmul(x[0], x[1]); },
                   {randn({4}, 15), randn({4, 3}, 16)});
  expect_gradcheck("matmul_vec_vec", [](auto& x) { return ops::matmul(x[0], x[1]); },
                   {randn({4}, 17), randn({4}, 18)});
}

TEST(Gradcheck, DetectsAWrongGradient) {
  // The checker itself must fail on a broken rule: stop_gradient hides half the dependence.
  auto r = testing::gradcheck(
      [](auto& x) { return ops::multiply(x[0], ops::stop_gradient(x[0])); }, {randn({3}, 19)});
  EXPECT_FALSE(r.ok);
}

}  // namespace
}  // namespace keras
