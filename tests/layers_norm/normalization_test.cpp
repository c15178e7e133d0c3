// The normalization layers (BatchNormalization, LayerNormalization, GroupNormalization,
// RMSNormalization, UnitNormalization) against PyTorch (tools/golden/layers_norm.py), plus
// shapes on symbolic inputs, configs, weights, moving statistics, masks and bad inputs.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "layer_harness.h"
#include "norm_test_util.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

std::string dtype_of(const TensorList& in) { return std::string(dtype_name(in[0].dtype())); }

layers::BatchNormalizationOptions bn_options(const TensorList& in, const json& kw) {
  layers::BatchNormalizationOptions o{.axis = kw["axis"].get<int>(),
                                      .momentum = kw["momentum"].get<double>(),
                                      .epsilon = kw["epsilon"].get<double>(),
                                      .center = kw["center"].get<bool>(),
                                      .scale = kw["scale"].get<bool>(),
                                      .trainable = kw["trainable"].get<bool>(),
                                      .dtype = dtype_of(in)};
  if (kw.value("renorm", false)) {
    o.renorm = true;
    o.renorm_momentum = kw["renorm_momentum"].get<double>();
    layers::RenormClipping c;
    const json& k = kw["renorm_clipping"];
    if (k.contains("rmax")) c.rmax = k["rmax"].get<double>();
    if (k.contains("rmin")) c.rmin = k["rmin"].get<double>();
    if (k.contains("dmax")) c.dmax = k["dmax"].get<double>();
    o.renorm_clipping = c;
  }
  return o;
}

// The layer harness with a mask passed to the call (inputs: x, mask, weights, upstream).
TensorList run_masked_fixture(Layer& layer, const TensorList& in, const json& kw) {
  const size_t n_weights = kw["n_weights"].get<size_t>();
  Tensor x = ops::stop_gradient(in[0]);
  Tensor mask = in[1];
  layer.ensure_built({x.shape()}, false);
  layer.set_weights(TensorList(in.begin() + 2, in.begin() + 2 + n_weights));
  const Tensor& up = in[2 + n_weights];
  GradientTape tape;
  tape.watch(x);
  Tensor y = layer(x, {.training = kw["training"].get<bool>(), .mask = mask});
  Tensor loss = ops::sum(ops::multiply(y, up));
  TensorList sources{x};
  for (const Variable& v : layer.trainable_weights()) sources.push_back(v.value());
  TensorList out{y};
  for (const Tensor& g : tape.gradient(loss, sources)) out.push_back(g);
  for (const Tensor& w : layer.get_weights()) out.push_back(w);
  return out;
}

GoldenOps norm_ops() {
  GoldenOps m;
  m["batch_normalization"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::BatchNormalization(bn_options(in, kw));
    return run_layer_fixture(*layer, in, kw);
  };
  m["batch_normalization_masked"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::BatchNormalization(bn_options(in, kw));
    return run_masked_fixture(*layer, in, kw);
  };
  m["layer_normalization"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::LayerNormalization(
        {.axis = layers::AxesArg::from_config(kw["axis"], "fixture"),
         .epsilon = kw["epsilon"].get<double>(),
         .center = kw["center"].get<bool>(),
         .scale = kw["scale"].get<bool>(),
         .rms_scaling = kw["rms_scaling"].get<bool>(),
         .dtype = dtype_of(in)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["group_normalization"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::GroupNormalization(kw["groups"].get<int>(),
                                            {.axis = kw["axis"].get<int>(),
                                             .epsilon = kw["epsilon"].get<double>(),
                                             .center = kw["center"].get<bool>(),
                                             .scale = kw["scale"].get<bool>(),
                                             .dtype = dtype_of(in)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["rms_normalization"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::RMSNormalization(
        {.axis = layers::AxesArg::from_config(kw["axis"], "fixture"),
         .epsilon = kw["epsilon"].get<double>(),
         .dtype = dtype_of(in)});
    return run_layer_fixture(*layer, in, kw);
  };
  m["unit_normalization"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::UnitNormalization(
        {.axis = layers::AxesArg::from_config(kw["axis"], "fixture"), .dtype = dtype_of(in)});
    return run_layer_fixture(*layer, in, kw);
  };
  return m;
}

TEST(NormalizationGolden, MatchesTorch) {
  auto seen = run_golden("layers_norm", norm_ops());
  EXPECT_EQ(seen.size(), 6u);
}

TEST(NormalizationGolden, MatchesTorchDecomposed) {
  backend::DecomposeScope decompose;
  run_golden("layers_norm", norm_ops());
}

// ---- BatchNormalization --------------------------------------------------------------------

TEST(BatchNormalization, WeightsNamesOrderAndInitialValues) {
  backend::clear_session();
  auto bn = layers::BatchNormalization();
  EXPECT_EQ(bn->name(), "batch_normalization");
  bn(ops::ones({2, 3}));
  auto w = bn->weights();
  ASSERT_EQ(w.size(), 4u);
  const char* names[] = {"gamma", "beta", "moving_mean", "moving_variance"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(w[i].name(), names[i]);
    EXPECT_EQ(w[i].path(), std::string("batch_normalization/") + names[i]);
    EXPECT_EQ(w[i].shape(), Shape({3}));
  }
  EXPECT_EQ(bn->trainable_weights().size(), 2u);
  EXPECT_EQ(bn->non_trainable_weights().size(), 2u);
  EXPECT_FALSE(bn->moving_mean().trainable());
  EXPECT_TENSOR_EQ(bn->gamma(), make({1, 1, 1}, {3}));
  EXPECT_TENSOR_EQ(bn->beta(), make({0, 0, 0}, {3}));
  EXPECT_TENSOR_EQ(bn->moving_mean(), make({0, 0, 0}, {3}));
  EXPECT_TENSOR_EQ(bn->moving_variance(), make({1, 1, 1}, {3}));
  EXPECT_EQ(bn->count_params(), 12);

  auto plain = layers::BatchNormalization({.center = false, .scale = false});
  plain(ops::ones({2, 3}));
  ASSERT_EQ(plain->weights().size(), 2u);
  EXPECT_EQ(plain->weights()[0].name(), "moving_mean");

  auto renorm = layers::BatchNormalization({.moving_variance_initializer = std::make_shared<initializers::Constant>(4.0),
                                            .renorm = true});
  renorm(ops::ones({2, 3}));
  auto rw = renorm->weights();
  ASSERT_EQ(rw.size(), 7u);
  const char* rnames[] = {"gamma",         "beta",        "moving_mean",  "moving_variance",
                          "moving_stddev", "renorm_mean", "renorm_stddev"};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(rw[i].name(), rnames[i]);
  // The standard deviations start at the square root of the variance initializer.
  EXPECT_TENSOR_EQ(rw[4].value(), make({2, 2, 2}, {3}));
  EXPECT_TENSOR_EQ(rw[6].value(), make({2, 2, 2}, {3}));
}

TEST(BatchNormalization, InferenceLeavesStatisticsAndTrainingUpdatesThem) {
  auto bn = layers::BatchNormalization({.momentum = 0.5});
  // Two features: values (1, 3) and (2, 6): means 2 and 4, biased variances 1 and 4.
  Tensor x = make({1, 2, 3, 6}, {2, 2});
  Tensor y = bn(x);  // inference by default: moving statistics 0 and 1
  EXPECT_TENSOR_NEAR(y, ops::divide(x, std::sqrt(1.001)), 1e-6, 1e-6);
  EXPECT_TENSOR_EQ(bn->moving_mean(), make({0, 0}, {2}));
  Tensor yt = bn(x, {.training = true});
  EXPECT_TENSOR_NEAR(yt, make({-1 / std::sqrt(1.001), -2 / std::sqrt(4.001),
                               1 / std::sqrt(1.001), 2 / std::sqrt(4.001)},
                              {2, 2}),
                     1e-6, 1e-6);
  EXPECT_TENSOR_NEAR(bn->moving_mean(), make({1, 2}, {2}), 1e-7, 1e-7);
  EXPECT_TENSOR_NEAR(bn->moving_variance(), make({1, 2.5}, {2}), 1e-7, 1e-7);
  // A second update moves half-way again.
  bn(x, {.training = true});
  EXPECT_TENSOR_NEAR(bn->moving_mean(), make({1.5, 3}, {2}), 1e-7, 1e-7);
  EXPECT_TENSOR_NEAR(bn->moving_variance(), make({1, 3.25}, {2}), 1e-7, 1e-7);
  // Many updates converge to the batch statistics.
  for (int i = 0; i < 40; ++i) bn(x, {.training = true});
  EXPECT_TENSOR_NEAR(bn->moving_mean(), make({2, 4}, {2}), 1e-6, 1e-6);
  EXPECT_TENSOR_NEAR(bn->moving_variance(), make({1, 4}, {2}), 1e-6, 1e-6);
}

TEST(BatchNormalization, FrozenLayerRunsInInferenceMode) {
  auto bn = layers::BatchNormalization();
  Tensor x = make({1, 2, 3, 6}, {2, 2});
  bn(x);
  bn->set_trainable(false);
  Tensor y = bn(x, {.training = true});
  EXPECT_TENSOR_NEAR(y, ops::divide(x, std::sqrt(1.001)), 1e-6, 1e-6);
  EXPECT_TENSOR_EQ(bn->moving_mean(), make({0, 0}, {2}));
  EXPECT_TRUE(bn->trainable_weights().empty());
  EXPECT_EQ(bn->non_trainable_weights().size(), 4u);
  bn->set_trainable(true);
  bn(x, {.training = true});
  EXPECT_TENSOR_NEAR(bn->moving_mean(), make({0.02, 0.04}, {2}), 1e-6, 1e-7);
}

TEST(BatchNormalization, SymbolicTrainingCallDoesNotUpdate) {
  auto bn = layers::BatchNormalization({.axis = 1});
  KerasTensor in = Input({3, 4, 5});
  KerasTensor out = bn(in, {.training = true});
  EXPECT_EQ(out.shape(), Shape({-1, 3, 4, 5}));
  EXPECT_TENSOR_EQ(bn->moving_mean(), make({0, 0, 0}, {3}));
  EXPECT_TENSOR_EQ(bn->moving_variance(), make({1, 1, 1}, {3}));
}

TEST(BatchNormalization, MaskPassesThroughAndLimitsStatistics) {
  // Features (batch 1, steps 3, 1 feature) [1, 5, 100], the last step masked: mean 3,
  // variance 4 (over the first two steps, divided by count + 1e-7).
  auto bn = layers::BatchNormalization({.momentum = 0.0});
  Tensor x = make({1, 5, 100}, {1, 3, 1});
  Tensor mask = ops::convert_to_tensor(std::vector<bool>{true, true, false}, {1, 3});
  Tensor y = bn(x, {.training = true, .mask = mask});
  const double mean = 6 / (2 + 1e-7), var = (4 + 4) / (2 + 1e-7);
  EXPECT_TENSOR_NEAR(bn->moving_mean(), make({mean}, {1}), 1e-6, 1e-6);
  EXPECT_TENSOR_NEAR(bn->moving_variance(), make({var}, {1}), 1e-6, 1e-6);
  EXPECT_TENSOR_NEAR(y, ops::divide(ops::subtract(x, mean), std::sqrt(var + 1e-3)), 1e-5, 1e-5);
  // BatchNormalization supports masking: the output carries the input's mask.
  ASSERT_TRUE(y.impl()->keras_mask);
  EXPECT_TENSOR_EQ(Tensor(y.impl()->keras_mask), mask);
}

TEST(BatchNormalization, RegularizersAddLosses) {
  auto bn = layers::BatchNormalization({.gamma_initializer = std::make_shared<initializers::Constant>(2.0),
                                        .gamma_regularizer = "l2"});
  bn(ops::ones({4, 3}));
  auto losses = bn->losses();
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_NEAR(losses[0].item<float>(), 0.01 * 3 * 4, 1e-6);
}

TEST(BatchNormalization, ConfigRoundTrips) {
  auto bn = layers::BatchNormalization({.axis = 1,
                                        .momentum = 0.9,
                                        .epsilon = 1e-5,
                                        .center = false,
                                        .gamma_initializer = std::make_shared<initializers::Constant>(0.5),
                                        .beta_regularizer = "l1",
                                        .gamma_constraint = "non_neg",
                                        .name = "bn"});
  Config c = bn->get_config();
  EXPECT_EQ(c["name"], "bn");
  EXPECT_EQ(c["axis"], 1);
  EXPECT_EQ(c["momentum"], 0.9);
  EXPECT_EQ(c["epsilon"], 1e-5);
  EXPECT_EQ(c["center"], false);
  EXPECT_EQ(c["scale"], true);
  EXPECT_EQ(c["gamma_initializer"]["class_name"], "Constant");
  EXPECT_EQ(c["moving_variance_initializer"]["class_name"], "Ones");
  EXPECT_EQ(c["beta_regularizer"]["class_name"], "L1");
  EXPECT_EQ(c["gamma_constraint"]["class_name"], "NonNeg");
  EXPECT_EQ(c["synchronized"], false);
  // Keras 3.15's keys exactly: the renorm keys are always written.
  EXPECT_EQ(c["renorm"], false);
  EXPECT_TRUE(c["renorm_clipping"].is_null());
  EXPECT_EQ(c["renorm_momentum"], 0.99);
  EXPECT_EQ(c.size(), 20u) << c.dump();
  expect_config_round_trip(*bn);

  auto renorm = layers::BatchNormalization(
      {.renorm = true, .renorm_clipping = layers::RenormClipping{.rmax = 3.0, .dmax = 5.0},
       .renorm_momentum = 0.5});
  Config rc = renorm->get_config();
  EXPECT_EQ(rc["renorm"], true);
  EXPECT_EQ(rc["renorm_clipping"], Config({{"rmax", 3.0}, {"dmax", 5.0}}));
  EXPECT_EQ(rc["renorm_momentum"], 0.5);
  expect_config_round_trip(*renorm);
}

TEST(BatchNormalization, ReadsAKeras310Config) {
  // The config Keras 3.10 wrote for heart_functional_bn.keras (../shared/models).
  Config c = Config::parse(R"({
    "name": "batch_normalization_7", "trainable": true,
    "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
              "registered_name": null},
    "axis": -1, "momentum": 0.99, "epsilon": 0.001, "center": true, "scale": true,
    "beta_initializer": {"module": "keras.initializers", "class_name": "Zeros", "config": {},
                         "registered_name": null},
    "gamma_initializer": {"module": "keras.initializers", "class_name": "Ones", "config": {},
                          "registered_name": null},
    "moving_mean_initializer": {"module": "keras.initializers", "class_name": "Zeros",
                                "config": {}, "registered_name": null},
    "moving_variance_initializer": {"module": "keras.initializers", "class_name": "Ones",
                                    "config": {}, "registered_name": null},
    "beta_regularizer": null, "gamma_regularizer": null, "beta_constraint": null,
    "gamma_constraint": null, "synchronized": false})");
  auto layer = layers::from_config("BatchNormalization", c);
  EXPECT_EQ(layer->name(), "batch_normalization_7");
  // Written back in the 3.15 dialect: the same, plus the renorm keys.
  Config written = c;
  written["renorm"] = false;
  written["renorm_clipping"] = nullptr;
  written["renorm_momentum"] = 0.99;
  EXPECT_EQ(layer->get_config(), written);
}

TEST(BatchNormalization, SynchronizedIsAcceptedAndUsesTheLocalBatch) {
  // One device: the synchronized statistics are the batch's own. Closed form: x = [[1], [3]]
  // has mean 2 and biased variance 1, so the output is (x - 2) / sqrt(1 + eps).
  auto bn = layers::BatchNormalization({.synchronized = true, .name = "bn_sync"});
  Tensor y = bn(make({1, 3}, {2, 1}), {.training = true});
  const double s = 1 / std::sqrt(1.001);
  EXPECT_TENSOR_NEAR(y, make({-s, s}, {2, 1}), 1e-6, 1e-6);
  EXPECT_TENSOR_NEAR(bn->moving_mean(), make({0.02}, {1}), 1e-7, 1e-7);
  EXPECT_TENSOR_NEAR(bn->moving_variance(), make({1}, {1}), 1e-7, 1e-7);
  EXPECT_EQ(bn->get_config()["synchronized"], true);
  expect_config_round_trip(*bn);
}

TEST(BatchNormalization, BadInputsAreNamed) {
  EXPECT_THROW(layers::BatchNormalization(
                   {.renorm = true, .renorm_clipping = layers::RenormClipping{.rmax = 1, .rmin = 2}}),
               ValueError);
  EXPECT_THROW(layers::BatchNormalization(
                   {.renorm = true, .renorm_clipping = layers::RenormClipping{.dmax = -1}}),
               ValueError);
  Config bad = layers::BatchNormalization({.renorm = true})->get_config();
  bad["renorm_clipping"] = {{"rmx", 1.0}};
  EXPECT_THROW(layers::from_config("BatchNormalization", bad), ValueError);
  expect_error_mentions([] { layers::BatchNormalization({.axis = 3})(ops::ones({2, 3})); },
                        "axis 3");
  auto bn = layers::BatchNormalization({.name = "bn_bad"});
  bn(ops::ones({2, 3}));
  expect_error_mentions([&] { bn(ops::ones({2, 4})); }, "(2, 4)");
  expect_error_mentions([&] { bn(ops::ones({2, 3}), {.training = true, .mask = ops::ones({2, 3})}); },
                        "mask");
}

// ---- LayerNormalization --------------------------------------------------------------------

TEST(LayerNormalization, WeightsAndAxisAfterBuild) {
  backend::clear_session();
  auto ln = layers::LayerNormalization({.axis = {-1, 1}});
  EXPECT_EQ(ln->name(), "layer_normalization");
  EXPECT_EQ(ln->get_config()["axis"], Config({-1, 1}));
  ln(ops::ones({2, 3, 4}));
  // Keras 3.15 keeps the given axes, sorted, once built (negative ones stay negative; the
  // oracle's layers_normalization fixture checks the same against Keras itself).
  EXPECT_EQ(ln->get_config()["axis"], Config({-1, 1}));
  ASSERT_EQ(ln->weights().size(), 2u);
  EXPECT_EQ(ln->gamma().name(), "gamma");
  EXPECT_EQ(ln->gamma().shape(), Shape({3, 4}));
  EXPECT_EQ(ln->beta().name(), "beta");
  auto rms = layers::LayerNormalization({.rms_scaling = true});
  rms(ops::ones({2, 3}));
  ASSERT_EQ(rms->weights().size(), 1u);  // no beta with rms_scaling
  EXPECT_EQ(rms->weights()[0].name(), "gamma");
  auto int_axis = layers::LayerNormalization({.axis = 1});
  EXPECT_EQ(int_axis->get_config()["axis"], 1);
}

TEST(LayerNormalization, NormalizesEachSample) {
  auto ln = layers::LayerNormalization({.epsilon = 0.0});
  Tensor y = ln(make({1, 3, 10, 20}, {2, 2}));
  EXPECT_TENSOR_NEAR(y, make({-1, 1, -1, 1}, {2, 2}), 1e-6, 1e-6);
  // Masks pass through.
  Tensor mask = ops::convert_to_tensor(std::vector<bool>{true, false}, {2});
  Tensor ym = ln(make({1, 3, 10, 20}, {2, 2}), {.mask = mask});
  ASSERT_TRUE(ym.impl()->keras_mask);
}

TEST(LayerNormalization, ConfigRoundTrips) {
  auto ln = layers::LayerNormalization({.axis = {1, 2},
                                        .epsilon = 1e-6,
                                        .scale = false,
                                        .beta_initializer = std::make_shared<initializers::Constant>(0.1),
                                        .gamma_regularizer = "l2",
                                        .name = "ln"});
  Config c = ln->get_config();
  EXPECT_EQ(c["epsilon"], 1e-6);
  EXPECT_EQ(c["scale"], false);
  EXPECT_EQ(c["rms_scaling"], false);
  EXPECT_EQ(c["beta_initializer"]["config"]["value"], 0.1);
  EXPECT_EQ(c.size(), 14u) << c.dump();
  expect_config_round_trip(*ln);
  ln(ops::ones({2, 3, 4}));
  expect_config_round_trip(*ln);
  Config bad = c;
  bad["axis"] = "last";
  EXPECT_THROW(layers::from_config("LayerNormalization", bad), TypeError);
}

TEST(LayerNormalization, BadInputsAreNamed) {
  expect_error_mentions([] { layers::LayerNormalization({.axis = 2})(ops::ones({2, 3})); },
                        "axis 2");
  expect_error_mentions([] { layers::LayerNormalization({.axis = {1, -1}})(ops::ones({2, 3})); },
                        "duplicate");
  auto ln = layers::LayerNormalization();
  ln(ops::ones({2, 3}));
  expect_error_mentions([&] { ln(ops::ones({2, 5})); }, "(2, 5)");
}

// ---- GroupNormalization --------------------------------------------------------------------

TEST(GroupNormalization, WeightsGroupsAndConfig) {
  backend::clear_session();
  auto gn = layers::GroupNormalization(-1);
  EXPECT_EQ(gn->name(), "group_normalization");
  EXPECT_EQ(gn->get_config()["groups"], -1);
  gn(ops::ones({2, 5, 6}));
  EXPECT_EQ(gn->groups(), 6);  // instance normalization: one group per channel
  EXPECT_EQ(gn->get_config()["groups"], 6);
  ASSERT_EQ(gn->weights().size(), 2u);
  EXPECT_EQ(gn->weights()[0].name(), "gamma");
  EXPECT_EQ(gn->weights()[1].name(), "beta");
  EXPECT_EQ(gn->gamma().shape(), Shape({6}));
  auto g = layers::GroupNormalization(4, {.axis = 1, .epsilon = 1e-5, .center = false,
                                          .gamma_constraint = "non_neg", .name = "gn"});
  Config c = g->get_config();
  EXPECT_EQ(c["groups"], 4);
  EXPECT_EQ(c["axis"], 1);
  EXPECT_EQ(c.size(), 14u) << c.dump();
  expect_config_round_trip(*g);
  EXPECT_EQ(layers::GroupNormalization()->groups(), 32);
}

TEST(GroupNormalization, BadInputsAreNamed) {
  EXPECT_THROW(layers::GroupNormalization(0), ValueError);
  EXPECT_THROW(layers::GroupNormalization(-2), ValueError);
  expect_error_mentions([] { layers::GroupNormalization(8)(ops::ones({2, 3, 4})); },
                        "cannot be more than");
  expect_error_mentions([] { layers::GroupNormalization(3)(ops::ones({2, 3, 4})); },
                        "must divide");
  expect_error_mentions([] { layers::GroupNormalization(2, {.axis = 0})(ops::ones({4, 3})); },
                        "batch axis");
  auto gn = layers::GroupNormalization(2);
  gn(ops::ones({2, 3, 4}));
  expect_error_mentions([&] { gn(ops::ones({2, 3, 6})); }, "(2, 3, 6)");
}

// ---- RMSNormalization ----------------------------------------------------------------------

TEST(RMSNormalization, WeightsAndConfig) {
  backend::clear_session();
  auto rms = layers::RMSNormalization();
  EXPECT_EQ(rms->name(), "rms_normalization");
  EXPECT_EQ(rms->get_config()["axis"], -1);
  EXPECT_EQ(rms->get_config()["epsilon"], 1e-6);
  rms(ops::ones({2, 5}));
  ASSERT_EQ(rms->weights().size(), 1u);
  EXPECT_EQ(rms->scale().name(), "scale");
  EXPECT_EQ(rms->scale().shape(), Shape({5}));
  EXPECT_EQ(rms->get_config()["axis"], Config({-1}));  // Keras stores [axis] once built
  expect_config_round_trip(*rms);
  // x * rsqrt(mean(x^2) + eps): (3, 4) has RMS sqrt(12.5).
  auto r = layers::RMSNormalization({.epsilon = 0.0});
  EXPECT_TENSOR_NEAR(r(make({3, 4}, {1, 2})),
                     make({3 / std::sqrt(12.5), 4 / std::sqrt(12.5)}, {1, 2}), 1e-6, 1e-6);
  auto listed = layers::RMSNormalization({.axis = {2, 1}, .epsilon = 1e-4, .name = "rms"});
  Config c = listed->get_config();
  EXPECT_EQ(c.size(), 5u) << c.dump();
  expect_config_round_trip(*listed);
  listed(ops::ones({2, 3, 4}));
  EXPECT_EQ(listed->get_config()["axis"], Config({1, 2}));
  EXPECT_EQ(listed->scale().shape(), Shape({3, 4}));
}

TEST(RMSNormalization, BadInputsAreNamed) {
  expect_error_mentions([] { layers::RMSNormalization({.axis = 3})(ops::ones({2, 3})); },
                        "axis 3");
  auto rms = layers::RMSNormalization();
  rms(ops::ones({2, 3}));
  expect_error_mentions([&] { rms(ops::ones({2, 4})); }, "(2, 4)");
}

// ---- UnitNormalization ---------------------------------------------------------------------

TEST(UnitNormalization, UnitNormsZeroVectorsAndConfig) {
  backend::clear_session();
  auto un = layers::UnitNormalization();
  EXPECT_EQ(un->name(), "unit_normalization");
  EXPECT_TRUE(un->weights().empty());
  Tensor y = un(make({3, 4, 0, 0}, {2, 2}));
  EXPECT_TENSOR_NEAR(y, make({0.6, 0.8, 0, 0}, {2, 2}), 1e-7, 1e-7);
  // The gradient at a zero vector is finite (the squared norm is clamped at 1e-24).
  Tensor x = make({0, 0}, {1, 2});
  GradientTape tape;
  tape.watch(x);
  Tensor g = tape.gradient(ops::sum(un(x)), x);
  EXPECT_TRUE(std::isfinite(g.to_vector<float>()[0]));
  Config c = layers::UnitNormalization({.axis = {1, 2}, .name = "un"})->get_config();
  EXPECT_EQ(c["axis"], Config({1, 2}));
  EXPECT_EQ(c.size(), 4u) << c.dump();
  expect_config_round_trip(*layers::UnitNormalization({.axis = {1, 2}}));
  expect_config_round_trip(*layers::UnitNormalization({.axis = 1}));
  expect_error_mentions([] { layers::UnitNormalization({.axis = 2})(ops::ones({2, 3})); },
                        "axis 2");
}

// ---- every layer on symbolic inputs ----------------------------------------------------------

TEST(NormalizationSymbolic, ShapesMatchEagerWithUnknownBatch) {
  expect_symbolic_shape(layers::BatchNormalization(), {5});
  expect_symbolic_shape(layers::BatchNormalization(), {4, 4, 3}, {.training = true});
  expect_symbolic_shape(layers::BatchNormalization({.axis = 1}), {3, 4, 4});
  expect_symbolic_shape(layers::BatchNormalization({.renorm = true}), {6}, {.training = true});
  expect_symbolic_shape(layers::LayerNormalization(), {7});
  expect_symbolic_shape(layers::LayerNormalization({.axis = {1, 2}}), {3, 4});
  expect_symbolic_shape(layers::LayerNormalization({.rms_scaling = true}), {3, 4});
  expect_symbolic_shape(layers::GroupNormalization(2), {5, 4});
  expect_symbolic_shape(layers::GroupNormalization(3, {.axis = 1}), {6, 2, 2});
  expect_symbolic_shape(layers::RMSNormalization(), {3, 4});
  expect_symbolic_shape(layers::RMSNormalization({.axis = 1}), {3, 4});
  expect_symbolic_shape(layers::UnitNormalization(), {6});
  expect_symbolic_shape(layers::UnitNormalization({.axis = {1, 2}}), {2, 3});
}

TEST(NormalizationSymbolic, FunctionalModelMatchesLayers) {
  auto in = Input({4, 6});
  auto bn = layers::BatchNormalization();
  auto ln = layers::LayerNormalization();
  auto gn = layers::GroupNormalization(3);
  auto out = gn(ln(bn(in)));
  auto model = Functional(in, out);
  Tensor x = sin_tensor({2, 4, 6}, 3);
  EXPECT_TENSOR_NEAR(model(x), gn(ln(bn(x))), 1e-6, 1e-6);
}

}  // namespace
}  // namespace keras
