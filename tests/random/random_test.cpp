// keras::random: reproducibility rules and the distributions' moments (checked against their
// closed forms with tolerances of several standard errors).

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "stats.h"
#include "keras/keras.h"
#include "keras/random/philox.h"

namespace keras {
namespace {

TEST(Philox, MatchesPublishedKnownAnswer) {
  // Random123's known-answer vectors (kat_vectors) for philox4x32_10: all-zero counter and
  // key, then all-ones counter and key.
  auto b = random::philox::philox4x32(0, 0, 0, 0, 0, 0);
  EXPECT_EQ(b.w[0], 0x6627e8d5u);
  EXPECT_EQ(b.w[1], 0xe169c58du);
  EXPECT_EQ(b.w[2], 0xbc57ac4cu);
  EXPECT_EQ(b.w[3], 0x9b00dbd8u);
  auto c = random::philox::philox4x32(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                      0xffffffffu, 0xffffffffu);
  EXPECT_EQ(c.w[0], 0x408f276du);
  EXPECT_EQ(c.w[1], 0x41c83b0eu);
  EXPECT_EQ(c.w[2], 0xa20bc7c6u);
  EXPECT_EQ(c.w[3], 0x6d5451fdu);
}

TEST(Random, IntegerSeedIsStateless) {
  Tensor a = random::normal({100}, 0, 1, std::nullopt, 7);
  Tensor b = random::normal({100}, 0, 1, std::nullopt, 7);
  EXPECT_TENSOR_EQ(a, b);
  Tensor c = random::normal({100}, 0, 1, std::nullopt, 8);
  EXPECT_NE(a.to_vector<float>(), c.to_vector<float>());
}

TEST(Random, GeneratorAdvances) {
  random::SeedGenerator gen(3);
  Tensor a = random::uniform({10}, 0, 1, std::nullopt, gen);
  Tensor b = random::uniform({10}, 0, 1, std::nullopt, gen);
  EXPECT_NE(a.to_vector<float>(), b.to_vector<float>());
  random::SeedGenerator again(3);
  EXPECT_TENSOR_EQ(random::uniform({10}, 0, 1, std::nullopt, again), a);
  EXPECT_EQ(gen.counter(), 2u);
}

TEST(Random, GlobalSeedMakesSeedlessDrawsReproducible) {
  utils::set_random_seed(123);
  Tensor a = random::normal({5});
  utils::set_random_seed(123);
  EXPECT_TENSOR_EQ(random::normal({5}), a);
}

TEST(Random, ThreadCountDoesNotChangeNumbers) {
  // A draw large enough to be split over the pool equals its prefix drawn alone.
  Tensor big = random::normal({100001}, 0, 1, std::nullopt, 11);
  Tensor small = random::normal({5}, 0, 1, std::nullopt, 11);
  EXPECT_TENSOR_EQ(big.slice({{0, 5}}), small);
}

TEST(Random, DistributionMoments) {
  const int64_t n = 200000;  // standard error of the mean ~ 0.0022 sigma
  auto u = test::sample_moments(random::uniform({n}, -2, 6, std::nullopt, 1).to_vector<double>());
  EXPECT_NEAR(u.mean, 2.0, 0.03);
  EXPECT_NEAR(u.var, 64.0 / 12.0, 0.1);
  EXPECT_GE(u.min, -2.0);
  EXPECT_LT(u.max, 6.0);
  auto g = test::sample_moments(random::normal({n}, 1.5, 2.0, std::nullopt, 2).to_vector<double>());
  EXPECT_NEAR(g.mean, 1.5, 0.02);
  EXPECT_NEAR(g.var, 4.0, 0.06);
  // Truncated at +-2 sigma: variance 1 - 2*2*phi(2)/(Phi(2)-Phi(-2)) = 0.7737413.
  auto t = test::sample_moments(random::truncated_normal({n}, 0, 1, std::nullopt, 3).to_vector<double>());
  EXPECT_NEAR(t.mean, 0.0, 0.01);
  EXPECT_NEAR(t.var, 0.7737413, 0.01);
  EXPECT_GE(t.min, -2.0);
  EXPECT_LE(t.max, 2.0);
  auto g64 = test::sample_moments(random::normal({n}, 0, 1, DType::Float64, 4).to_vector<double>());
  EXPECT_NEAR(g64.var, 1.0, 0.015);
  // Keras: "requires a floating point dtype" is a ValueError.
  EXPECT_THROW(random::normal({2}, 0, 1, DType::Int32), ValueError);
  EXPECT_THROW(random::uniform({2}, 0, 1, DType::Int32), ValueError);
  EXPECT_THROW(random::uniform({2}, 1, 0), ValueError);
}

TEST(Random, SeedlessGeneratorsDifferAndFollowTheGlobalSeed) {
  utils::set_random_seed(5);
  random::SeedGenerator a, b;
  EXPECT_NE(a.initial_seed(), b.initial_seed());
  utils::set_random_seed(5);
  random::SeedGenerator a2;
  EXPECT_EQ(a2.initial_seed(), a.initial_seed());
}

TEST(Random, StateRoundTrips) {
  random::SeedGenerator gen(42);
  random::normal({3}, 0, 1, std::nullopt, gen);
  auto [seed, counter] = gen.state();
  EXPECT_EQ(seed, 42u);
  EXPECT_EQ(counter, 1u);
  Tensor next = random::normal({3}, 0, 1, std::nullopt, gen);
  random::SeedGenerator restored(7);
  restored.set_state(seed, counter);
  EXPECT_TENSOR_EQ(random::normal({3}, 0, 1, std::nullopt, restored), next);
}

TEST(Random, EveryDrawAdvancesTheGeneratorOnce) {
  random::SeedGenerator gen(9);
  Tensor x = ops::ones({4, 4});
  random::normal({3}, 0, 1, std::nullopt, gen);
  random::uniform({3}, 0, 1, std::nullopt, gen);
  random::truncated_normal({3}, 0, 1, std::nullopt, gen);
  random::randint({3}, 0, 10, std::nullopt, gen);
  random::dropout(x, 0.5, std::nullopt, gen);
  random::shuffle(x, 0, gen);
  random::categorical(ops::zeros({2, 3}), 4, std::nullopt, gen);
  random::gamma({3}, 2.0, std::nullopt, gen);
  random::beta({3}, 2.0, 3.0, std::nullopt, gen);
  random::binomial({3}, 10.0, 0.5, std::nullopt, gen);
  EXPECT_EQ(gen.counter(), 10u);
  // As in Keras, dropout with rate 0 or 1 draws nothing.
  random::dropout(x, 0.0, std::nullopt, gen);
  random::dropout(x, 1.0, std::nullopt, gen);
  EXPECT_EQ(gen.counter(), 10u);
}

TEST(Random, IntegerSeedsAreStatelessForEveryDistribution) {
  Tensor x = ops::reshape(ops::arange(20.0), {4, 5});
  Tensor logits = test::make({0, 1, 2, -1, 0, 3}, {2, 3});
  auto draws = [&] {
    return TensorList{random::randint({50}, -3, 9, std::nullopt, 4),
                      random::dropout(x, 0.3, std::nullopt, 4),
                      random::shuffle(x, 1, 4),
                      random::categorical(logits, 7, std::nullopt, 4),
                      random::gamma({50}, 0.7, std::nullopt, 4),
                      random::beta({50}, 0.5, 2.0, std::nullopt, 4),
                      random::binomial({50}, 30.0, 0.6, std::nullopt, 4)};
  };
  TensorList a = draws(), b = draws();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_EQ(a[i], b[i]) << "draw " << i;
}

TEST(Random, ElementsDependOnTheirIndexAloneNotOnTheShapeOrThreads) {
  // Samplers with candidate draws lay an element's candidates side by side, so a large draw
  // (split over the thread pool) starts with the small one.
  auto prefix = [](const Tensor& big) { return big.slice({{0, 5}}); };
  EXPECT_TENSOR_EQ(prefix(random::gamma({100001}, 0.5, std::nullopt, 3)),
                   random::gamma({5}, 0.5, std::nullopt, 3));
  EXPECT_TENSOR_EQ(prefix(random::beta({100001}, 2.0, 0.5, std::nullopt, 3)),
                   random::beta({5}, 2.0, 0.5, std::nullopt, 3));
  EXPECT_TENSOR_EQ(prefix(random::binomial({100001}, 1000.0, 0.3, std::nullopt, 3)),
                   random::binomial({5}, 1000.0, 0.3, std::nullopt, 3));
  EXPECT_TENSOR_EQ(prefix(random::randint({100001}, 0, 1000, std::nullopt, 3)),
                   random::randint({5}, 0, 1000, std::nullopt, 3));
}

}  // namespace
}  // namespace keras
