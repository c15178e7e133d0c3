// randint, categorical and binomial against their closed forms: ranges, moments and
// chi-square fits of the frequencies.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "keras/keras.h"
#include "stats.h"

namespace keras {
namespace {

using test::chi_square_fits;
using test::histogram;
using test::moments_match;

constexpr int64_t kN = 200000;

// Binomial(n, p) probabilities of 0..n.
std::vector<double> binomial_pmf(int n, double p) {
  std::vector<double> out;
  for (int k = 0; k <= n; ++k)
    out.push_back(std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                           k * std::log(p) + (n - k) * std::log1p(-p)));
  return out;
}

TEST(Randint, RangeDtypeAndUniformity) {
  Tensor r = random::randint({kN}, -3, 9, std::nullopt, 1);
  EXPECT_EQ(r.dtype(), DType::Int32);
  auto v = r.to_vector<double>();
  auto m = test::sample_moments(v);
  EXPECT_EQ(m.min, -3);
  EXPECT_EQ(m.max, 8);
  // Discrete uniform on 12 values: mean 2.5, variance (12^2 - 1) / 12.
  EXPECT_TRUE(moments_match(v, 2.5, 143.0 / 12.0, -1.2));
  for (double& x : v) x += 3;
  EXPECT_TRUE(chi_square_fits(histogram(v, 12), std::vector<double>(12, 1.0 / 12)));
}

TEST(Randint, DtypesAndWideRanges) {
  Tensor a = random::randint({1000}, 0, 256, DType::UInt8, 2);
  EXPECT_EQ(a.dtype(), DType::UInt8);
  auto m = test::sample_moments(a.to_vector<double>());
  EXPECT_GE(m.min, 0);
  EXPECT_LE(m.max, 255);
  // A range wider than 32 bits draws from 64-bit words.
  Tensor b = random::randint({kN}, -(int64_t{1} << 40), int64_t{1} << 40, DType::Int64, 3);
  EXPECT_EQ(b.dtype(), DType::Int64);
  auto vb = b.to_vector<double>();
  const double half = std::ldexp(1.0, 40);
  EXPECT_TRUE(moments_match(vb, -0.5, half * half / 3.0, -1.2));
}

TEST(Randint, BadArguments) {
  EXPECT_THROW(random::randint({2}, 0, 5, DType::Float32), ValueError);
  EXPECT_THROW(random::randint({2}, 0, 5, DType::Bool), ValueError);
  EXPECT_THROW(random::randint({2}, 5, 5), ValueError);
  try {
    random::randint({2}, 0, 300, DType::Int8);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("int8"), std::string::npos) << e.what();
  }
}

TEST(Categorical, FrequenciesMatchSoftmax) {
  const std::vector<double> logits = {1.0, 0.0, -1.0, 2.0, -INFINITY, 0.5};
  Tensor l = test::make(logits, {1, 6});
  Tensor s = random::categorical(l, kN, std::nullopt, 4);
  EXPECT_EQ(s.dtype(), DType::Int32);
  EXPECT_EQ(s.shape(), (Shape{1, kN}));
  double z = 0;
  for (double x : logits) z += std::exp(x);
  std::vector<double> probs;
  for (double x : logits) probs.push_back(std::exp(x) / z);
  auto h = histogram(s.to_vector<double>(), 6);
  EXPECT_EQ(h[4], 0) << "a class with logit -inf was drawn";
  EXPECT_TRUE(chi_square_fits(h, probs));
}

TEST(Categorical, RowsAreIndependentDistributions) {
  // Row 0 puts nearly all mass on class 2, row 1 on class 0.
  Tensor l = test::make({0, 0, 30, 30, 0, 0}, {2, 3}, DType::Float64);
  Tensor s = random::categorical(l, 100, DType::Int64, 5);
  EXPECT_EQ(s.dtype(), DType::Int64);
  auto v = s.to_vector<int64_t>();
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(v[i], 2);
    EXPECT_EQ(v[100 + i], 0);
  }
  EXPECT_EQ(random::categorical(l, 0).shape(), (Shape{2, 0}));
}

TEST(Categorical, BadArguments) {
  try {
    random::categorical(ops::zeros({5}), 2);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(5,)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(random::categorical(ops::zeros({2, 3}), -1), ValueError);
  EXPECT_THROW(random::categorical(ops::zeros({2, 0}), 3), ValueError);
}

struct BinomialCase {
  double n, p;
};

class BinomialMoments : public ::testing::TestWithParam<BinomialCase> {};

TEST_P(BinomialMoments, MeanAndVariance) {
  auto [n, p] = GetParam();
  Tensor k = random::binomial({kN}, n, p, std::nullopt, 6);
  EXPECT_EQ(k.dtype(), DType::Float32);
  auto v = k.to_vector<double>();
  auto m = test::sample_moments(v);
  EXPECT_GE(m.min, 0);
  EXPECT_LE(m.max, n);
  for (double x : v) ASSERT_EQ(x, std::floor(x));
  const double var = n * p * (1 - p);
  EXPECT_TRUE(moments_match(v, n * p, var, (1 - 6 * p * (1 - p)) / var));
}

// Inversion (n q < 10), BTRS (n q >= 10), the boundary, and the mirrored p > 1/2 of each.
INSTANTIATE_TEST_SUITE_P(Regimes, BinomialMoments,
                         ::testing::Values(BinomialCase{5, 0.3}, BinomialCase{1000, 0.002},
                                           BinomialCase{20, 0.5}, BinomialCase{40, 0.25},
                                           BinomialCase{1e5, 0.5}, BinomialCase{6e5, 0.6},
                                           BinomialCase{1000, 0.995}, BinomialCase{30, 0.9}));

TEST(Binomial, FrequenciesMatchThePmfInBothRegimes) {
  for (auto [n, p] : {std::pair{12, 0.3}, std::pair{60, 0.45}, std::pair{50, 0.8}}) {
    Tensor k = random::binomial({kN}, static_cast<double>(n), p, DType::Float64, 7);
    auto h = histogram(k.to_vector<double>(), static_cast<size_t>(n + 1));
    EXPECT_TRUE(chi_square_fits(h, binomial_pmf(n, p))) << "n=" << n << " p=" << p;
  }
}

TEST(Binomial, BroadcastParametersAndEdges) {
  // Keras's test case: per-element counts and probabilities.
  Tensor counts = test::make({1e5, 2e5, 3e5, 4e5, 5e5, 6e5}, {2, 3});
  Tensor probs = test::make({0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {2, 3});
  Tensor k = random::binomial({2, 3}, counts, probs, std::nullopt, 8);
  auto kv = k.to_vector<double>(), nv = counts.to_vector<double>(), pv = probs.to_vector<double>();
  for (size_t i = 0; i < 6; ++i) EXPECT_NEAR(kv[i] / nv[i], pv[i], 0.005);
  // p = 0 gives 0, p = 1 gives n, n = 0 gives 0; a bad p gives NaN.
  Tensor e = random::binomial({4}, test::make({7, 7, 0, 7}, {4}), test::make({0, 1, 0.5, 1.5}, {4}),
                              DType::Float64, 9);
  auto ev = e.to_vector<double>();
  EXPECT_EQ(ev[0], 0);
  EXPECT_EQ(ev[1], 7);
  EXPECT_EQ(ev[2], 0);
  EXPECT_TRUE(std::isnan(ev[3]));
  // Per-column counts broadcast over rows.
  Tensor col = random::binomial({kN / 2, 2}, test::make({4, 200}, {2}), 0.5, std::nullopt, 10);
  Tensor means = ops::mean(col, 0);
  EXPECT_TENSOR_NEAR(means, test::make({2, 100}, {2}), 0, 0.12);
}

TEST(Binomial, BadArguments) {
  try {
    random::binomial({3, 2}, test::make({1, 2, 3}, {3}), 0.5);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(3,)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(3, 2)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(random::binomial({3}, 5.0, 0.5, DType::Int32), ValueError);
}

}  // namespace
}  // namespace keras
