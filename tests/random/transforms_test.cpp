// dropout and shuffle: the drop rate and scaling, noise_shape, permutations, uniformity, and
// their gradients (finite differences in float64).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "assertions.h"
#include "keras/keras.h"
#include "keras/testing/gradcheck.h"
#include "stats.h"

namespace keras {
namespace {

TEST(Dropout, RateAndScaling) {
  const int64_t n = 200000;
  const double rate = 0.3;
  Tensor x = ops::full({n}, 2.0);
  auto v = random::dropout(x, rate, std::nullopt, 1).to_vector<float>();
  double zeros = 0;
  for (float y : v) {
    if (y == 0) {
      ++zeros;
    } else {
      ASSERT_EQ(y, static_cast<float>(2.0 / 0.7));
    }
  }
  // Binomial(n, rate) zeros: within 5 standard errors.
  EXPECT_NEAR(zeros / n, rate, 5 * std::sqrt(rate * (1 - rate) / n));
}

TEST(Dropout, DegenerateRatesAndDtypes) {
  Tensor x = test::make({1, -2, 3, 4}, {2, 2}, DType::Float16);
  EXPECT_TRUE(random::dropout(x, 0.0, std::nullopt, 1).is_same(x));
  EXPECT_TENSOR_EQ(random::dropout(x, 1.0, std::nullopt, 1), ops::zeros({2, 2}, DType::Float16));
  Tensor y = random::dropout(x, 0.5, std::nullopt, 1);
  EXPECT_EQ(y.dtype(), DType::Float16);
  // Keras's check: the kept ones of ones(10, 10) become 2, some become 0.
  Tensor ones = random::dropout(ops::ones({10, 10}), 0.5, std::nullopt, 0);
  EXPECT_EQ(ops::max(ones).item<double>(), 2.0);
  EXPECT_EQ(ops::min(ones).item<double>(), 0.0);
}

TEST(Dropout, NoiseShapeSharesDecisions) {
  // noise_shape (-1, 1, -1): one decision per (batch, channel), shared along axis 1.
  Tensor x = ops::ones({4, 50, 3});
  Tensor y = random::dropout(x, 0.5, Shape{-1, 1, -1}, 2);
  EXPECT_EQ(y.shape(), x.shape());
  auto v = y.to_vector<float>();
  for (int b = 0; b < 4; ++b)
    for (int c = 0; c < 3; ++c)
      for (int t = 1; t < 50; ++t) ASSERT_EQ(v[(b * 50 + t) * 3 + c], v[b * 150 + c]);
}

TEST(Dropout, BadArguments) {
  Tensor x = ops::ones({2, 3});
  EXPECT_THROW(random::dropout(x, 1.5), ValueError);
  EXPECT_THROW(random::dropout(x, -0.1), ValueError);
  EXPECT_THROW(random::dropout(ops::ones({2}, DType::Int32), 0.5), TypeError);
  try {
    random::dropout(x, 0.5, Shape{2, 2});
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(2, 2)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(2, 3)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(random::dropout(x, 0.5, Shape{2}), ValueError);
}

TEST(Dropout, Gradcheck) {
  Tensor x = test::make({0.5, -1, 2, 3, -0.25, 1.5, 0.75, -2}, {2, 4}, DType::Float64);
  auto r = keras::testing::gradcheck(
      [](const TensorList& in) { return random::dropout(in[0], 0.4, Shape{-1, 1}, 21); }, {x});
  EXPECT_TRUE(r.ok) << r.message;
  // The gradient is the mask scaled by 1 / (1 - rate).
  Tensor y = random::dropout(x, 0.4, std::nullopt, 22);
  Tensor g = grad([](const Tensor& t) { return ops::sum(random::dropout(t, 0.4, std::nullopt, 22)); }, x);
  auto yv = y.to_vector<double>(), gv = g.to_vector<double>();
  for (size_t i = 0; i < yv.size(); ++i) EXPECT_EQ(gv[i], yv[i] == 0 ? 0.0 : 1 / 0.6);
}

// The values of each line of `x` along axis 1 of a 2-d tensor, sorted.
std::vector<std::vector<double>> sorted_rows(const Tensor& x) {
  auto v = x.to_vector<double>();
  const int64_t rows = x.shape()[0], cols = x.shape()[1];
  std::vector<std::vector<double>> out;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> row(v.begin() + r * cols, v.begin() + (r + 1) * cols);
    std::sort(row.begin(), row.end());
    out.push_back(row);
  }
  return out;
}

TEST(Shuffle, PermutesEachLine) {
  Tensor x = ops::reshape(ops::arange(100), {10, 10});
  Tensor y = random::shuffle(x, 1, 0);
  EXPECT_EQ(y.dtype(), DType::Int32);
  EXPECT_EQ(sorted_rows(y), sorted_rows(x));
  EXPECT_NE(y.to_vector<int>(), x.to_vector<int>());
  // Along axis 0 (and -2), the columns hold the same values.
  for (int axis : {0, -2}) {
    Tensor z = ops::transpose(random::shuffle(x, axis, 0));
    EXPECT_EQ(sorted_rows(z), sorted_rows(ops::transpose(x)));
  }
  // Every 1-d line gets its own permutation, as on Keras's JAX backend.
  Tensor cols = random::shuffle(ops::reshape(ops::arange(1000), {100, 10}), 0, 3);
  auto c = cols.to_vector<int>();
  int same_as_first = 0;
  for (int j = 1; j < 10; ++j) same_as_first += (c[j] - j == c[0]);
  EXPECT_LT(same_as_first, 9);
}

TEST(Shuffle, PermutationsAreUniform) {
  // 120000 lines of 3: each of the 6 orders should appear 20000 times.
  const int64_t lines = 120000;
  Tensor base = ops::broadcast_to(ops::arange(3), {lines, 3});
  auto v = random::shuffle(base, 1, 4).to_vector<int>();
  std::map<int, double> counts;
  for (int64_t i = 0; i < lines; ++i) counts[v[i * 3] * 9 + v[i * 3 + 1] * 3 + v[i * 3 + 2]] += 1;
  ASSERT_EQ(counts.size(), 6u);
  std::vector<double> observed;
  for (auto& [order, n] : counts) observed.push_back(n);
  EXPECT_TRUE(test::chi_square_fits(observed, std::vector<double>(6, 1.0 / 6)));
}

TEST(Shuffle, EdgesAndErrors) {
  Tensor e = ops::zeros({0, 3});
  EXPECT_EQ(random::shuffle(e).shape(), (Shape{0, 3}));
  Tensor one = test::make({5}, {1});
  EXPECT_TENSOR_EQ(random::shuffle(one, 0, 1), one);
  EXPECT_THROW(random::shuffle(ops::convert_to_tensor(Scalar(1.0)), 0, 1), ValueError);
  try {
    random::shuffle(ops::zeros({2, 3}), 2, 1);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("axis 2"), std::string::npos) << e.what();
  }
}

TEST(Shuffle, Gradcheck) {
  Tensor x = test::make({0.5, -1, 2, 3, -0.25, 1.5, 0.75, -2, 4, 1, 0, 2}, {3, 4}, DType::Float64);
  for (int axis : {0, 1}) {
    auto r = keras::testing::gradcheck(
        [axis](const TensorList& in) { return ops::square(random::shuffle(in[0], axis, 31)); },
        {x});
    EXPECT_TRUE(r.ok) << "axis " << axis << ": " << r.message;
  }
}

}  // namespace
}  // namespace keras
