// The regularization layers (Dropout, SpatialDropout1D/2D/3D, GaussianDropout, GaussianNoise,
// AlphaDropout, ActivityRegularization): statistics of the random layers against closed forms
// (kept fraction, scaling, preserved mean and variance), seeding, noise shapes, inference
// identity, gradients (closed forms and finite differences), shapes on symbolic inputs,
// configs and bad inputs.

#include <gtest/gtest.h>

#include <cmath>

#include "../random/stats.h"
#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "norm_test_util.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the test helpers

std::vector<double> values(const Tensor& t) { return ops::cast(t, DType::Float64).to_vector<double>(); }

/// |observed - expected| fraction within 5 binomial standard errors.
::testing::AssertionResult fraction_matches(double kept, double n, double p) {
  const double tol = 5 * std::sqrt(p * (1 - p) / n);
  if (std::abs(kept / n - p) > tol)
    return ::testing::AssertionFailure()
           << "fraction " << kept / n << ", expected " << p << " +- " << tol << " over " << n;
  return ::testing::AssertionSuccess();
}

int count_different(const Tensor& a, const Tensor& b) {
  auto va = values(a), vb = values(b);
  int n = 0;
  for (size_t i = 0; i < va.size(); ++i) n += va[i] != vb[i];
  return n;
}

/// d sum(layer(x) * up) / dx through the tape.
Tensor input_gradient(Layer& layer, const Tensor& x0, const Tensor& up, Tensor* y_out = nullptr) {
  Tensor x = ops::stop_gradient(x0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = layer(x, {.training = true});
  if (y_out) *y_out = y;
  return tape.gradient(ops::sum(ops::multiply(y, up)), x);
}

/// Central differences of a freshly built layer with a fixed seed (so every evaluation draws
/// the same noise) in float64.
template <typename Factory>
void expect_seeded_gradcheck(const std::string& name, Factory make_layer_fn, const Shape& shape) {
  expect_gradcheck(
      name,
      [&](const std::vector<Tensor>& xs) {
        auto layer = make_layer_fn();
        return (*layer)(xs[0], {.training = true});
      },
      {randn(shape, 4)});
}

// ---- Dropout -------------------------------------------------------------------------------

TEST(Dropout, InferenceIsTheIdentity) {
  backend::clear_session();
  auto d = layers::Dropout(0.5, {.seed = 1});
  EXPECT_EQ(d->name(), "dropout");
  Tensor x = sin_tensor({4, 5}, 1);
  EXPECT_TENSOR_EQ(d(x), x);
  EXPECT_TENSOR_EQ(d(x, {.training = false}), x);
  EXPECT_EQ(d->seed_generator()->counter(), 0u);  // nothing drawn
  EXPECT_TRUE(d->weights().empty());
  // rate 0 is the identity in training too (and has no generator, as in Keras).
  auto none = layers::Dropout(0.0);
  EXPECT_EQ(none->seed_generator(), nullptr);
  EXPECT_TENSOR_EQ(none(x, {.training = true}), x);
  // rate 1 drops everything.
  EXPECT_TENSOR_EQ(layers::Dropout(1.0)(x, {.training = true}), ops::zeros({4, 5}));
}

TEST(Dropout, KeepsOneMinusRateScaledByItsInverse) {
  const double rate = 0.3;
  auto d = layers::Dropout(rate, {.seed = 11});
  Tensor y = d(ops::ones({400, 500}), {.training = true});
  auto v = values(y);
  double kept = 0;
  for (double e : v) {
    if (e != 0) {
      ++kept;
      ASSERT_NEAR(e, 1 / (1 - rate), 1e-6);
    }
  }
  EXPECT_TRUE(fraction_matches(kept, v.size(), 1 - rate));
  // The expectation is preserved: mean 1, variance rate / (1 - rate) (a scaled Bernoulli).
  const double q = 1 - rate;
  EXPECT_TRUE(moments_match(v, 1.0, rate / q, (1 - 6 * q * (1 - q)) / (q * (1 - q))));
  EXPECT_EQ(d->seed_generator()->counter(), 1u);
}

TEST(Dropout, SeedsAndSuccessiveCalls) {
  Tensor x = sin_tensor({50, 40}, 2);
  auto a = layers::Dropout(0.5, {.seed = 42});
  auto b = layers::Dropout(0.5, {.seed = 42});
  Tensor a1 = a(x, {.training = true}), b1 = b(x, {.training = true});
  EXPECT_TENSOR_EQ(a1, b1);  // same seed, same mask
  Tensor a2 = a(x, {.training = true});
  EXPECT_GT(count_different(a1, a2), 500);  // the generator advances: a new mask
  EXPECT_TENSOR_EQ(b(x, {.training = true}), a2);
  EXPECT_GT(count_different(a1, layers::Dropout(0.5, {.seed = 43})(x, {.training = true})), 500);
  // Unseeded layers draw from the global generator: different from each other, reproducible
  // after set_random_seed.
  utils::set_random_seed(7);
  Tensor u1 = layers::Dropout(0.5)(x, {.training = true});
  Tensor u2 = layers::Dropout(0.5)(x, {.training = true});
  EXPECT_GT(count_different(u1, u2), 500);
  utils::set_random_seed(7);
  EXPECT_TENSOR_EQ(layers::Dropout(0.5)(x, {.training = true}), u1);
}

TEST(Dropout, NoiseShapeSharesDecisions) {
  // One decision per (sample, feature), shared along the 50 steps.
  auto d = layers::Dropout(0.5, {.noise_shape = Shape{-1, 1, 4}, .seed = 3});
  Tensor y = d(ops::ones({64, 50, 4}), {.training = true});
  auto v = values(y);
  double kept = 0;
  for (int b = 0; b < 64; ++b)
    for (int c = 0; c < 4; ++c) {
      double first = v[(b * 50) * 4 + c];
      kept += first != 0;
      for (int s = 1; s < 50; ++s) ASSERT_EQ(v[(b * 50 + s) * 4 + c], first);
    }
  EXPECT_TRUE(fraction_matches(kept, 256, 0.5));
  // A fixed noise shape: one decision per sample.
  auto per_sample = layers::Dropout(0.5, {.noise_shape = Shape{8, 1, 1}, .seed = 4});
  auto w = values(per_sample(ops::ones({8, 3, 2}), {.training = true}));
  for (int b = 0; b < 8; ++b)
    for (int i = 1; i < 6; ++i) EXPECT_EQ(w[b * 6 + i], w[b * 6]);
}

TEST(Dropout, GradientIsTheMaskOverKeepProbability) {
  const double rate = 0.4;
  auto d = layers::Dropout(rate, {.seed = 5});
  Tensor x = sin_tensor({6, 7}, 3), up = sin_tensor({6, 7}, 9);
  Tensor y;
  Tensor g = input_gradient(*d, x, up, &y);
  Tensor expected = ops::where(ops::not_equal(y, 0.0), ops::divide(up, 1 - rate), 0.0);
  EXPECT_TENSOR_NEAR(g, expected, 1e-6, 1e-7);
  expect_seeded_gradcheck(
      "dropout", [] { return layers::Dropout(0.4, {.seed = 5, .dtype = "float64"}); }, {5, 6});
  expect_seeded_gradcheck(
      "dropout_noise_shape",
      [] { return layers::Dropout(0.5, {.noise_shape = Shape{-1, 1}, .seed = 8, .dtype = "float64"}); },
      {4, 6});
}

TEST(Dropout, MasksPassThrough) {
  Tensor mask = ops::convert_to_tensor(std::vector<bool>{true, false, true}, {3});
  Tensor y = layers::Dropout(0.5, {.seed = 1})(ops::ones({3, 2}), {.training = true, .mask = mask});
  ASSERT_TRUE(y.impl()->keras_mask);
  EXPECT_TENSOR_EQ(Tensor(y.impl()->keras_mask), mask);
}

TEST(Dropout, SymbolicCallsDrawNothing) {
  auto d = layers::Dropout(0.5, {.seed = 1});
  KerasTensor out = d(Input({5}), {.training = true});
  EXPECT_EQ(out.shape(), Shape({-1, 5}));
  EXPECT_EQ(d->seed_generator()->counter(), 0u);
}

TEST(Dropout, ConfigRoundTrips) {
  auto d = layers::Dropout(0.25, {.noise_shape = Shape{-1, 1, 3}, .seed = 7, .name = "drop"});
  Config c = d->get_config();
  EXPECT_EQ(c["rate"], 0.25);
  EXPECT_EQ(c["seed"], 7);
  EXPECT_EQ(c["noise_shape"], Config::parse("[null, 1, 3]"));
  EXPECT_EQ(c.size(), 6u) << c.dump();
  expect_config_round_trip(*d);
  // The config Keras 3.10 wrote for heart_functional_bn.keras.
  Config keras = Config::parse(R"({"name": "dropout_7", "trainable": true,
      "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
                "registered_name": null},
      "rate": 0.4, "seed": null, "noise_shape": null})");
  auto loaded = layers::from_config("Dropout", keras);
  EXPECT_EQ(loaded->get_config(), keras);
}

TEST(Dropout, BadInputsAreNamed) {
  expect_error_mentions([] { layers::Dropout(-0.1); }, "rate=-0.1");
  expect_error_mentions([] { layers::Dropout(1.5); }, "rate=1.5");
  expect_error_mentions([] { layers::Dropout(0.5, {.noise_shape = Shape{0, 2}}); }, "noise_shape");
  auto d = layers::Dropout(0.5, {.noise_shape = Shape{-1, 1}, .name = "d_bad"});
  expect_error_mentions([&] { d(ops::ones({2, 3, 4}), {.training = true}); }, "d_bad");
}

// ---- SpatialDropout1D/2D/3D ----------------------------------------------------------------

// Every (sample, channel) slice of `y` is all zeros or all 1 / (1 - rate); returns how many
// are kept.
double check_whole_channels(const Tensor& y, bool channels_first, double rate) {
  const Shape& s = y.shape();
  const int64_t n = s[0], c = channels_first ? s[1] : s[s.rank() - 1];
  const int64_t spatial = s.numel() / (n * c);
  auto v = values(y);
  double kept = 0;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch) {
      auto at = [&](int64_t i) {
        return channels_first ? v[(b * c + ch) * spatial + i] : v[(b * spatial + i) * c + ch];
      };
      double first = at(0);
      EXPECT_TRUE(first == 0 || std::abs(first - 1 / (1 - rate)) < 1e-6) << first;
      kept += first != 0;
      for (int64_t i = 1; i < spatial; ++i) {
        EXPECT_EQ(at(i), first);
        if (at(i) != first) return kept;
      }
    }
  return kept;
}

TEST(SpatialDropout, DropsWholeFeatureMaps) {
  backend::clear_session();
  auto d1 = layers::SpatialDropout1D(0.5, {.seed = 1});
  EXPECT_EQ(d1->name(), "spatial_dropout1d");
  double kept = check_whole_channels(d1(ops::ones({64, 10, 8}), {.training = true}), false, 0.5);
  EXPECT_TRUE(fraction_matches(kept, 512, 0.5));

  auto d2 = layers::SpatialDropout2D(0.3, {.data_format = "channels_last", .seed = 2});
  kept = check_whole_channels(d2(ops::ones({40, 3, 3, 10}), {.training = true}), false, 0.3);
  EXPECT_TRUE(fraction_matches(kept, 400, 0.7));
  auto d2f = layers::SpatialDropout2D(0.3, {.data_format = "channels_first", .seed = 2});
  kept = check_whole_channels(d2f(ops::ones({40, 10, 3, 3}), {.training = true}), true, 0.3);
  EXPECT_TRUE(fraction_matches(kept, 400, 0.7));

  auto d3 = layers::SpatialDropout3D(0.5, {.data_format = "channels_last", .seed = 3});
  kept = check_whole_channels(d3(ops::ones({20, 2, 2, 2, 10}), {.training = true}), false, 0.5);
  EXPECT_TRUE(fraction_matches(kept, 200, 0.5));
  auto d3f = layers::SpatialDropout3D(0.5, {.data_format = "channels_first", .seed = 3});
  kept = check_whole_channels(d3f(ops::ones({20, 10, 2, 2, 2}), {.training = true}), true, 0.5);
  EXPECT_TRUE(fraction_matches(kept, 200, 0.5));

  // Inference is the identity; the same seed gives the same maps.
  Tensor x = sin_tensor({2, 3, 4}, 5);
  EXPECT_TENSOR_EQ(d1(x), x);
  EXPECT_TENSOR_EQ(layers::SpatialDropout1D(0.5, {.seed = 9})(x, {.training = true}),
                   layers::SpatialDropout1D(0.5, {.seed = 9})(x, {.training = true}));
  expect_seeded_gradcheck(
      "spatial_dropout2d",
      [] { return layers::SpatialDropout2D(0.5, {.seed = 6, .dtype = "float64"}); }, {2, 3, 3, 4});
}

TEST(SpatialDropout, DataFormatDefaultsToTheConfig) {
  config::set_image_data_format("channels_first");
  auto d = layers::SpatialDropout2D(0.5);
  config::set_image_data_format("channels_last");
  EXPECT_EQ(d->data_format(), "channels_first");
  EXPECT_EQ(layers::SpatialDropout3D(0.5)->data_format(), "channels_last");
}

TEST(SpatialDropout, ConfigRoundTrips) {
  // Keras's BaseSpatialDropout config: rate, seed, name, dtype (a name), plus data_format.
  Config c1 = layers::SpatialDropout1D(0.2, {.seed = 4, .name = "sd1"})->get_config();
  EXPECT_EQ(c1, Config::parse(R"({"rate": 0.2, "seed": 4, "name": "sd1", "dtype": "float32"})"));
  Config c2 = layers::SpatialDropout2D(0.2, {.data_format = "channels_first", .name = "sd2"})
                  ->get_config();
  EXPECT_EQ(c2, Config::parse(R"({"rate": 0.2, "seed": null, "name": "sd2", "dtype": "float32",
                                  "data_format": "channels_first"})"));
  expect_config_round_trip(*layers::SpatialDropout1D(0.2, {.seed = 4}));
  expect_config_round_trip(*layers::SpatialDropout2D(0.2, {.data_format = "channels_first"}));
  expect_config_round_trip(*layers::SpatialDropout3D(0.1, {.seed = 3}));
}

TEST(SpatialDropout, BadInputsAreNamed) {
  expect_error_mentions([] { layers::SpatialDropout2D(1.2); }, "rate");
  expect_error_mentions([] { layers::SpatialDropout2D(0.5, {.data_format = "nchw"}); },
                        "data_format");
  expect_error_mentions([] { layers::SpatialDropout2D(0.5)(ops::ones({2, 3, 4})); }, "rank 4");
  expect_error_mentions([] { layers::SpatialDropout1D(0.5)(ops::ones({2, 3})); }, "rank 3");
  expect_error_mentions([] { layers::SpatialDropout3D(0.5)(ops::ones({2, 3, 4, 5})); }, "rank 5");
}

// ---- GaussianDropout -----------------------------------------------------------------------

TEST(GaussianDropout, MultipliesByUnitMeanNoise) {
  backend::clear_session();
  const double rate = 0.2;
  auto g = layers::GaussianDropout(rate, {.seed = 21});
  EXPECT_EQ(g->name(), "gaussian_dropout");
  // y = 2 * noise: mean 2, variance 4 rate / (1 - rate), Gaussian (no excess kurtosis).
  auto v = values(g(ops::full({200000}, 2.0), {.training = true}));
  EXPECT_TRUE(moments_match(v, 2.0, 4 * rate / (1 - rate), 0.0));
  Tensor x = sin_tensor({5, 6}, 2);
  EXPECT_TENSOR_EQ(g(x), x);
  EXPECT_TENSOR_EQ(layers::GaussianDropout(0.0)(x, {.training = true}), x);
  Tensor s1 = layers::GaussianDropout(0.5, {.seed = 3})(x, {.training = true});
  EXPECT_TENSOR_EQ(layers::GaussianDropout(0.5, {.seed = 3})(x, {.training = true}), s1);
  auto same = layers::GaussianDropout(0.5, {.seed = 3});
  same(x, {.training = true});
  EXPECT_EQ(count_different(same(x, {.training = true}), s1), 30);
}

TEST(GaussianDropout, GradientIsTheNoise) {
  auto g = layers::GaussianDropout(0.3, {.seed = 2});
  Tensor x = sin_tensor({4, 5}, 1), up = sin_tensor({4, 5}, 8), y;
  Tensor grad = input_gradient(*g, x, up, &y);
  EXPECT_TENSOR_NEAR(grad, ops::multiply(up, ops::divide(y, x)), 1e-5, 1e-6);
  expect_seeded_gradcheck(
      "gaussian_dropout", [] { return layers::GaussianDropout(0.3, {.seed = 2, .dtype = "float64"}); },
      {4, 5});
}

TEST(GaussianDropout, ConfigAndBadInputs) {
  auto g = layers::GaussianDropout(0.1, {.seed = 5, .name = "gd"});
  Config c = g->get_config();
  EXPECT_EQ(c["rate"], 0.1);
  EXPECT_EQ(c["seed"], 5);
  EXPECT_EQ(c.size(), 5u) << c.dump();
  expect_config_round_trip(*g);
  expect_error_mentions([] { layers::GaussianDropout(1.5); }, "rate=1.5");
  auto one = layers::GaussianDropout(1.0);
  EXPECT_TENSOR_EQ(one(ops::ones({2})), ops::ones({2}));  // fine in inference
  expect_error_mentions([&] { one(ops::ones({2}), {.training = true}); }, "rate=1");
}

// ---- GaussianNoise -------------------------------------------------------------------------

TEST(GaussianNoise, AddsZeroMeanNoise) {
  backend::clear_session();
  auto g = layers::GaussianNoise(0.4, {.seed = 8});
  EXPECT_EQ(g->name(), "gaussian_noise");
  auto v = values(ops::subtract(g(ops::full({200000}, 3.0), {.training = true}), 3.0));
  EXPECT_TRUE(moments_match(v, 0.0, 0.16, 0.0));
  Tensor x = sin_tensor({3, 4}, 6);
  EXPECT_TENSOR_EQ(g(x), x);
  EXPECT_TENSOR_EQ(layers::GaussianNoise(0.5, {.seed = 4})(x, {.training = true}),
                   layers::GaussianNoise(0.5, {.seed = 4})(x, {.training = true}));
  EXPECT_EQ(count_different(g(x, {.training = true}), g(x, {.training = true})), 12);
  // The gradient is the upstream gradient.
  Tensor up = sin_tensor({3, 4}, 1);
  EXPECT_TENSOR_EQ(input_gradient(*g, x, up), up);
  expect_seeded_gradcheck(
      "gaussian_noise", [] { return layers::GaussianNoise(0.3, {.seed = 2, .dtype = "float64"}); },
      {4, 5});
}

TEST(GaussianNoise, ConfigAndBadInputs) {
  auto g = layers::GaussianNoise(0.25, {.name = "gn"});
  Config c = g->get_config();
  EXPECT_EQ(c["stddev"], 0.25);
  EXPECT_TRUE(c["seed"].is_null());
  EXPECT_EQ(c.size(), 5u) << c.dump();
  expect_config_round_trip(*g);
  expect_error_mentions([] { layers::GaussianNoise(1.5); }, "stddev=1.5");
  expect_error_mentions([] { layers::GaussianNoise(-0.5); }, "stddev=-0.5");
}

// ---- AlphaDropout --------------------------------------------------------------------------

constexpr double kAlphaP = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946;

TEST(AlphaDropout, AffineCorrectionOfTwoValues) {
  backend::clear_session();
  const double p = 0.2;
  const double a = 1 / std::sqrt((1 - p) * (1 + p * kAlphaP * kAlphaP));
  const double b = -a * kAlphaP * p;
  auto d = layers::AlphaDropout(p, {.seed = 13});
  EXPECT_EQ(d->name(), "alpha_dropout");
  auto v = values(d(ops::full({100000}, 0.5), {.training = true}));
  double kept = 0;
  for (double e : v) {
    bool is_kept = std::abs(e - (a * 0.5 + b)) < 1e-5;
    ASSERT_TRUE(is_kept || std::abs(e - (a * kAlphaP + b)) < 1e-5) << e;
    kept += is_kept;
  }
  EXPECT_TRUE(fraction_matches(kept, v.size(), 1 - p));
  Tensor x = sin_tensor({3, 4}, 2);
  EXPECT_TENSOR_EQ(d(x), x);
  EXPECT_TENSOR_EQ(layers::AlphaDropout(0.0)(x, {.training = true}), x);
}

TEST(AlphaDropout, PreservesZeroMeanUnitVariance) {
  // For standard normal inputs the output keeps mean 0 and variance 1 (the point of the
  // correction): a^2 (1 - p)(1 + p alpha'^2) = 1.
  Tensor x = random::normal({200000}, 0.0, 1.0, DType::Float64, 77);
  auto d = layers::AlphaDropout(0.1, {.seed = 3, .dtype = "float64"});
  auto v = values(d(x, {.training = true}));
  EXPECT_TRUE(moments_match(v, 0.0, 1.0, 3.0));
}

TEST(AlphaDropout, NoiseShapeSeedsAndGradient) {
  const double p = 0.3;
  const double a = 1 / std::sqrt((1 - p) * (1 + p * kAlphaP * kAlphaP));
  auto d = layers::AlphaDropout(p, {.noise_shape = Shape{-1, 1}, .seed = 5});
  auto v = values(d(ops::ones({50, 20}), {.training = true}));
  for (int r = 0; r < 50; ++r)
    for (int c = 1; c < 20; ++c) ASSERT_EQ(v[r * 20 + c], v[r * 20]);
  Tensor x = sin_tensor({6, 5}, 4), up = sin_tensor({6, 5}, 2);
  EXPECT_TENSOR_EQ(layers::AlphaDropout(p, {.seed = 1})(x, {.training = true}),
                   layers::AlphaDropout(p, {.seed = 1})(x, {.training = true}));
  auto g = layers::AlphaDropout(p, {.seed = 1});
  Tensor y;
  Tensor grad = input_gradient(*g, x, up, &y);
  // Kept elements pass a * upstream; dropped ones (y = a alpha' + b) pass nothing.
  const double dropped = a * kAlphaP - a * kAlphaP * p;
  Tensor kept = ops::greater(ops::abs(ops::subtract(y, dropped)), 1e-5);
  EXPECT_TENSOR_NEAR(grad, ops::where(kept, ops::multiply(up, a), 0.0), 1e-6, 1e-7);
  expect_seeded_gradcheck(
      "alpha_dropout", [] { return layers::AlphaDropout(0.3, {.seed = 1, .dtype = "float64"}); },
      {6, 5});
}

TEST(AlphaDropout, ConfigAndBadInputs) {
  auto d = layers::AlphaDropout(0.1, {.noise_shape = Shape{-1, 2}, .seed = 5, .name = "ad"});
  Config c = d->get_config();
  EXPECT_EQ(c["rate"], 0.1);
  EXPECT_EQ(c["noise_shape"], Config::parse("[null, 2]"));
  EXPECT_EQ(c.size(), 6u) << c.dump();
  expect_config_round_trip(*d);
  expect_error_mentions([] { layers::AlphaDropout(2.0); }, "rate=2");
  expect_error_mentions([] { layers::AlphaDropout(1.0)(ops::ones({2}), {.training = true}); },
                        "rate=1");
  expect_error_mentions([&] { d(ops::ones({2, 2, 2}), {.training = true}); }, "noise_shape");
}

// ---- ActivityRegularization ----------------------------------------------------------------

TEST(ActivityRegularization, AddsTheBatchAveragedPenalty) {
  backend::clear_session();
  auto r = layers::ActivityRegularization({.l1 = 0.1, .l2 = 0.01});
  EXPECT_EQ(r->name(), "activity_regularization");
  Tensor x = make({1, -2, 3, -4}, {2, 2});
  GradientTape tape;
  tape.watch(x);
  Tensor y = r(x);
  EXPECT_TENSOR_EQ(y, x);
  // (0.1 * 10 + 0.01 * 30) / batch 2
  auto losses = r->losses();
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_NEAR(losses[0].item<float>(), 0.65, 1e-6);
  // d loss / dx = (l1 sign(x) + 2 l2 x) / 2
  Tensor g = tape.gradient(losses[0], x);
  EXPECT_TENSOR_NEAR(g, make({0.06, -0.07, 0.08, -0.09}, {2, 2}), 1e-6, 1e-7);
  // A new call replaces the losses of the last one.
  r(ops::ones({4, 3}));
  ASSERT_EQ(r->losses().size(), 1u);
  EXPECT_NEAR(r->losses()[0].item<float>(), (0.1 * 12 + 0.01 * 12) / 4, 1e-6);
  // Symbolic calls record no loss.
  auto s = layers::ActivityRegularization({.l1 = 1.0});
  EXPECT_EQ(s(Input({3})).shape(), Shape({-1, 3}));
  EXPECT_TRUE(s->losses().empty());
  // Inside a Functional model the losses come from the eager call.
  auto in = Input({2});
  auto model = Functional(in, r(in));
  model(make({1, -2, 3, -4}, {2, 2}));
  ASSERT_EQ(r->losses().size(), 1u);
  EXPECT_NEAR(r->losses()[0].item<float>(), 0.65, 1e-6);
}

TEST(ActivityRegularization, ConfigAndBadInputs) {
  auto r = layers::ActivityRegularization({.l1 = 0.5, .name = "ar"});
  Config c = r->get_config();
  EXPECT_EQ(c["l1"], 0.5);
  EXPECT_EQ(c["l2"], 0.0);
  EXPECT_FALSE(c.contains("activity_regularizer"));
  EXPECT_EQ(c.size(), 5u) << c.dump();
  expect_config_round_trip(*r);
  expect_error_mentions([] { layers::ActivityRegularization({.l1 = -1}); }, "l1");
  expect_error_mentions([] { layers::ActivityRegularization({.l2 = NAN}); }, "l2");
}

// ---- every layer on symbolic inputs ----------------------------------------------------------

TEST(RegularizationSymbolic, ShapesMatchEagerWithUnknownBatch) {
  for (bool training : {false, true}) {
    CallContext ctx{.training = training};
    expect_symbolic_shape(layers::Dropout(0.5), {5}, ctx);
    expect_symbolic_shape(layers::Dropout(0.5, {.noise_shape = Shape{-1, 1, 3}}), {4, 3}, ctx);
    expect_symbolic_shape(layers::SpatialDropout1D(0.5), {4, 3}, ctx);
    expect_symbolic_shape(layers::SpatialDropout2D(0.5), {4, 4, 3}, ctx);
    expect_symbolic_shape(layers::SpatialDropout3D(0.5), {2, 2, 2, 3}, ctx);
    expect_symbolic_shape(layers::GaussianDropout(0.5), {6}, ctx);
    expect_symbolic_shape(layers::GaussianNoise(0.5), {2, 3}, ctx);
    expect_symbolic_shape(layers::AlphaDropout(0.5), {7}, ctx);
    expect_symbolic_shape(layers::ActivityRegularization({.l2 = 0.1}), {3}, ctx);
  }
}

}  // namespace
}  // namespace keras
