// gamma and beta against their closed forms: support, moments, and a quantile fit.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "assertions.h"
#include "keras/keras.h"
#include "stats.h"

namespace keras {
namespace {

using test::moments_match;

constexpr int64_t kN = 200000;

class GammaMoments : public ::testing::TestWithParam<double> {};

TEST_P(GammaMoments, MeanAndVarianceEqualAlpha) {
  const double alpha = GetParam();
  Tensor g = random::gamma({kN}, alpha, DType::Float64, 11);
  auto v = g.to_vector<double>();
  EXPECT_GT(test::sample_moments(v).min, 0.0);
  EXPECT_TRUE(moments_match(v, alpha, alpha, 6.0 / alpha));
}

// alpha < 1 takes the boost; 1 is the smallest alpha sampled directly.
INSTANTIATE_TEST_SUITE_P(Alphas, GammaMoments, ::testing::Values(0.3, 0.5, 1.0, 2.5, 10.0, 300.0));

TEST(Gamma, ExponentialQuantiles) {
  // Gamma(1) is Exp(1): P(X <= x) = 1 - e^-x, checked at the deciles (chi-square over bins).
  auto v = random::gamma({kN}, 1.0, std::nullopt, 12).to_vector<double>();
  std::vector<double> counts(10, 0.0);
  for (double x : v) {
    auto bin = static_cast<size_t>(std::floor(10 * (1 - std::exp(-x))));
    counts[std::min<size_t>(bin, 9)] += 1;
  }
  EXPECT_TRUE(test::chi_square_fits(counts, std::vector<double>(10, 0.1)));
}

TEST(Gamma, TensorAlphaDtypesAndEdges) {
  // Per-column alpha broadcast over rows.
  Tensor g = random::gamma({kN / 4, 4}, test::make({0.5, 1, 4, 0}, {4}), std::nullopt, 13);
  EXPECT_EQ(g.dtype(), DType::Float32);
  EXPECT_TENSOR_NEAR(ops::mean(g, 0), test::make({0.5, 1, 4, 0}, {4}), 0, 0.05);
  Tensor h = random::gamma({5, 2}, 2.0, DType::Float16, 10);
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_GT(ops::min(h).item<double>(), 0.0);
  EXPECT_TRUE(std::isnan(random::gamma({1}, -1.0, DType::Float64, 1).item<double>()));
}

TEST(Gamma, BadArguments) {
  EXPECT_THROW(random::gamma({2}, 1.0, DType::Int32), ValueError);
  try {
    random::gamma({2, 3}, test::make({1, 2}, {2}), std::nullopt, 1);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(2,)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(2, 3)"), std::string::npos) << e.what();
  }
}

struct BetaCase {
  double a, b;
};

class BetaMoments : public ::testing::TestWithParam<BetaCase> {};

TEST_P(BetaMoments, MeanAndVariance) {
  auto [a, b] = GetParam();
  auto v = random::beta({kN}, a, b, DType::Float64, 14).to_vector<double>();
  auto m = test::sample_moments(v);
  EXPECT_GE(m.min, 0.0);
  EXPECT_LE(m.max, 1.0);
  const double s = a + b;
  const double var = a * b / (s * s * (s + 1));
  const double kurt = 6 * ((a - b) * (a - b) * (s + 1) - a * b * (s + 2)) / (a * b * (s + 2) * (s + 3));
  EXPECT_TRUE(moments_match(v, a / s, var, kurt));
}

// Keras's test parameters, plus a U-shaped and a very small one.
INSTANTIATE_TEST_SUITE_P(Parameters, BetaMoments,
                         ::testing::Values(BetaCase{3, 2}, BetaCase{7, 15}, BetaCase{0.5, 0.9},
                                           BetaCase{1.5, 4.5}, BetaCase{1, 1},
                                           BetaCase{0.05, 0.05}));

TEST(Beta, UniformWhenBothAreOne) {
  auto v = random::beta({kN}, 1.0, 1.0, std::nullopt, 15).to_vector<double>();
  std::vector<double> counts(20, 0.0);
  for (double x : v) counts[std::min<size_t>(static_cast<size_t>(x * 20), 19)] += 1;
  EXPECT_TRUE(test::chi_square_fits(counts, std::vector<double>(20, 0.05)));
}

TEST(Beta, BroadcastParametersAndFloat16) {
  Tensor v = random::beta({kN / 10, 3}, test::make({7, 0.5, 1.5}, {1, 3}),
                          test::make({15, 0.9, 4.5}, {1, 3}), std::nullopt, 16);
  EXPECT_TENSOR_NEAR(ops::mean(v, 0), test::make({7.0 / 22, 0.5 / 1.4, 0.25}, {3}), 0, 0.012);
  Tensor h = random::beta({100}, 3.0, 2.0, DType::Float16, 17);
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_THROW(random::beta({3}, test::make({1, 2}, {2}), 1.0), ValueError);
}

}  // namespace
}  // namespace keras
