// ops::vectorize against numpy.vectorize results (computed by hand from NumPy's definition:
// the function applied per element or per core block of the broadcast arguments).

#include <gtest/gtest.h>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;

TEST(Vectorize, ElementwiseOverBroadcastArguments) {
  // numpy.vectorize(lambda a, b: a + b)([1, 2, 3, 4], 2) == [3, 4, 5, 6] (the Keras docstring).
  auto f = ops::vectorize([](const TensorList& x) { return ops::add(x[0], x[1]); });
  EXPECT_TENSOR_NEAR(f({make({1, 2, 3, 4}, {4}), make({2}, {})}), make({3, 4, 5, 6}, {4}), 0, 0);
  // A function that branches on its scalar argument (why one vectorizes).
  auto relu_like = ops::vectorize([](const TensorList& x) {
    return x[0].item<float>() > 0 ? x[0] : ops::multiply(x[0], 0.1);
  });
  EXPECT_TENSOR_NEAR(relu_like({make({-1, 2, -3, 4}, {2, 2})}),
                     make({-0.1, 2, -0.3, 4}, {2, 2}), 1e-6, 0);
}

TEST(Vectorize, SignatureMatrixVector) {
  // "(m,n),(n)->(m)" over a batch of 2: each call a matrix-vector product.
  auto mv = ops::vectorize([](const TensorList& x) { return ops::matmul(x[0], x[1]); },
                           {.signature = "(m,n),(n)->(m)"});
  Tensor a = ops::reshape(ops::cast(ops::arange(12), DType::Float32), {2, 2, 3});
  Tensor v = make({1, 0, -1}, {3});
  // Rows of a: [0 1 2], [3 4 5], [6 7 8], [9 10 11]; dotted with v: -2 each.
  EXPECT_TENSOR_NEAR(mv({a, v}), make({-2, -2, -2, -2}, {2, 2}), 0, 0);
}

TEST(Vectorize, ExcludedArgumentsPassThrough) {
  auto f = ops::vectorize(
      [](const TensorList& x) { return ops::multiply(x[0], ops::sum(x[1])); }, {.excluded = {1}});
  EXPECT_TENSOR_NEAR(f({make({1, 2}, {2}), make({1, 2, 3}, {3})}), make({6, 12}, {2}), 0, 0);
}

TEST(Vectorize, Differentiable) {
  auto f = ops::vectorize([](const TensorList& x) { return ops::multiply(ops::sin(x[0]), x[1]); });
  auto r = testing::gradcheck([&](const TensorList& x) { return f({x[0], x[1]}); },
                              {test::randn({2, 3}, 1), test::randn({3}, 2)});
  EXPECT_TRUE(r.ok) << r.message;
}

TEST(Vectorize, BadArgumentsAreNamed) {
  auto mv = ops::vectorize([](const TensorList& x) { return x[0]; }, {.signature = "(m,n)->(m)"});
  try {
    mv({make({1, 2}, {2})});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(2,)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ops::vectorize([](const TensorList& x) { return x[0]; }, {.signature = "(m"}),
               ValueError);
  auto two = ops::vectorize([](const TensorList& x) { return x[0]; }, {.signature = "(n),(n)->()"});
  EXPECT_THROW(two({make({1, 2}, {2}), make({1, 2, 3}, {3})}), ValueError);
}

}  // namespace
}  // namespace keras
