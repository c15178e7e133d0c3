// keras::losses against NumPy transcriptions of Keras's formulas (tools/golden/losses.py, also
// checked there against torch.nn.functional) and against Keras itself (tests/oracle/fixtures),
// plus names, configs, custom losses and errors.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"
#include "keras/losses/losses.h"
#include "keras/tensor/keras_mask.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

TensorList call_loss(const std::string& cls, const TensorList& in, const json& kw) {
  auto loss = losses::deserialize({{"class_name", cls}, {"config", kw["config"]}});
  Tensor weight = kw["weighted"].get<bool>() ? in[2] : Tensor();
  return {(*loss)(in[0], in[1], weight)};
}

GoldenOps loss_ops() {
  GoldenOps m;
  for (const char* cls :
       {"MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
        "MeanSquaredLogarithmicError", "CosineSimilarity", "Huber", "LogCosh", "Hinge",
        "SquaredHinge", "CategoricalHinge", "KLDivergence", "Poisson", "BinaryCrossentropy",
        "BinaryFocalCrossentropy", "CategoricalCrossentropy", "CategoricalFocalCrossentropy",
        "SparseCategoricalCrossentropy", "Dice", "Tversky", "CategoricalGeneralizedCrossEntropy",
        "Circle"}) {
    m[cls] = [name = std::string(cls)](const TensorList& in, const json& kw) {
      return call_loss(name, in, kw);
    };
  }
  // The mask travels on y_pred, as a masking layer leaves it.
  m["MeanSquaredError_masked"] = [](const TensorList& in, const json& kw) {
    Tensor pred = ops::multiply(in[1], 1.0);  // a fresh tensor to attach the mask to
    set_keras_mask(pred, in[2]);
    losses::MeanSquaredError loss({.reduction = kw["config"]["reduction"].get<std::string>()});
    return TensorList{loss(in[0], pred, kw["weighted"].get<bool>() ? in[3] : Tensor())};
  };
  return m;
}

TEST(LossesGolden, EveryLossReductionAndWeighting) { run_golden("losses", loss_ops()); }

// The same cases and more (every reduction, label smoothing, ignore_class, masks) computed by
// Keras 3.15 itself (tools/keras_oracle/losses_metrics.py).
TEST(LossesOracle, EveryLossReductionAndWeighting) { run_oracle("losses", loss_ops()); }

TEST(Losses, FunctionsGivePerSampleValues) {
  Tensor t = make({0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor p = make({1, 1, 1, 1, 1, 1}, {2, 3});
  // ((0-1)^2 + 0 + (2-1)^2) / 3 and ((3-1)^2 + (4-1)^2 + (5-1)^2) / 3
  EXPECT_TRUE(tensors_near(losses::mean_squared_error(t, p), make({2.0 / 3, 29.0 / 3}, {2}),
                           1e-6, 1e-7));
  EXPECT_TRUE(tensors_near(losses::mse(t, p), losses::mean_squared_error(t, p), 0, 0));
  EXPECT_TRUE(tensors_near(losses::mae(t, p), make({2.0 / 3, 3.0}, {2}), 1e-6, 1e-7));
}

TEST(Losses, DefaultsNamesAndConfigsMatchKeras) {
  losses::SparseCategoricalCrossentropy scce;
  EXPECT_EQ(scce.name(), "sparse_categorical_crossentropy");
  // Keras 3.15's get_config leaves SparseCategoricalCrossentropy's axis and Huber's delta
  // out; keras-cpp writes them only when they are not the default (so nothing is lost).
  EXPECT_EQ(scce.get_config(),
            json::parse(R"({"name": "sparse_categorical_crossentropy",
                            "reduction": "sum_over_batch_size", "from_logits": false,
                            "ignore_class": null})"));
  EXPECT_EQ(losses::SparseCategoricalCrossentropy({.axis = 1}).get_config()["axis"], 1);
  EXPECT_EQ(losses::Huber().name(), "huber_loss");
  EXPECT_FALSE(losses::Huber().get_config().contains("delta"));
  EXPECT_EQ(losses::Huber({.delta = 0.5}).get_config()["delta"], 0.5);
  EXPECT_EQ(losses::Dice({.axis = std::vector<int>{1, 2}}).get_config()["axis"],
            json::parse("[1, 2]"));
  // Keras writes a reduction as given: "none" stays "none", None (here "None") is null.
  EXPECT_EQ(losses::BinaryCrossentropy({.reduction = "none"}).get_config()["reduction"], "none");
  EXPECT_EQ(losses::BinaryCrossentropy({.reduction = "None"}).get_config()["reduction"],
            nullptr);
}

TEST(Losses, GetAcceptsKerasNamesAndAliases) {
  EXPECT_EQ(losses::get("mse")->class_name(), "MeanSquaredError");
  EXPECT_EQ(losses::get("MAE")->class_name(), "MeanAbsoluteError");
  EXPECT_EQ(losses::get("kld")->class_name(), "KLDivergence");
  EXPECT_EQ(losses::get("logcosh")->class_name(), "LogCosh");
  EXPECT_EQ(losses::get("categorical_crossentropy")->class_name(), "CategoricalCrossentropy");
  EXPECT_EQ(losses::get("Circle")->class_name(), "Circle");
  try {
    losses::get("mean_sqared_error");
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("mean_sqared_error"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("register_loss"), std::string::npos);
  }
}

TEST(Losses, SerializeRoundTripsEveryClass) {
  std::vector<losses::LossPtr> all = {
      std::make_shared<losses::MeanSquaredError>(),
      std::make_shared<losses::CosineSimilarity>(losses::CosineSimilarityOptions{.axis = 1}),
      std::make_shared<losses::Huber>(losses::HuberOptions{.delta = 2.5, .name = "h"}),
      std::make_shared<losses::BinaryFocalCrossentropy>(
          losses::BinaryFocalCrossentropyOptions{.apply_class_balancing = true, .gamma = 1}),
      std::make_shared<losses::SparseCategoricalCrossentropy>(
          losses::SparseCategoricalCrossentropyOptions{.from_logits = true,
                                                       .ignore_class = 3}),
      std::make_shared<losses::Tversky>(losses::TverskyOptions{.alpha = 0.2, .axis = {{1}}}),
      std::make_shared<losses::Circle>(losses::CircleOptions{.remove_diagonal = false}),
      std::make_shared<losses::CategoricalGeneralizedCrossEntropy>(
          losses::CategoricalGeneralizedCrossEntropyOptions{.q = 0.3,
                                                            .reduction = "sum"})};
  for (const auto& loss : all) {
    json record = losses::serialize(loss);
    EXPECT_EQ(record["module"], "keras.losses");
    auto back = losses::deserialize(record);
    EXPECT_EQ(back->class_name(), loss->class_name());
    EXPECT_EQ(back->get_config(), loss->get_config()) << record.dump();
  }
  // Keras 3.6+ writes the loss dtype as a DTypePolicy record.
  auto policy = losses::deserialize(json::parse(R"({"class_name": "MeanAbsoluteError",
      "config": {"name": "mae", "reduction": "sum",
                 "dtype": {"module": "keras", "class_name": "DTypePolicy",
                           "config": {"name": "float64"}}}})"));
  EXPECT_EQ(policy->dtype(), DType::Float64);
  EXPECT_EQ(policy->reduction(), "sum");
}

TEST(Losses, CustomSubclassAndFunction) {
  struct AbsSum : losses::Loss {
    AbsSum() : Loss("abs_sum", "sum") {}
    Tensor call(const Tensor& t, const Tensor& p) const override {
      return ops::sum(ops::abs(t - p), -1);
    }
    std::string class_name() const override { return "AbsSum"; }
  };
  Tensor t = make({0, 1, 2, 3}, {2, 2});
  Tensor p = make({1, 1, 1, 1}, {2, 2});
  EXPECT_DOUBLE_EQ(AbsSum()(t, p).item<double>(), 4.0);
  losses::LossArg arg = [](const Tensor& a, const Tensor& b) { return ops::mean(a - b, -1); };
  EXPECT_DOUBLE_EQ((*arg.get())(t, p).item<double>(), 0.5);  // mean of (-0.5, 1.5)
  losses::register_loss("test_mean_difference",
                        [](const Tensor& a, const Tensor& b) { return ops::mean(a - b, -1); });
  auto back = losses::deserialize(losses::serialize(losses::get("test_mean_difference")));
  EXPECT_DOUBLE_EQ((*back)(t, p).item<double>(), 0.5);
}

TEST(Losses, GradientsMatchFiniteDifferences) {
  Tensor t = ops::cast(make({0, 1, 0, 0, 0, 1}, {2, 3}), DType::Float64);
  for (const char* name : {"categorical_crossentropy", "mse", "huber", "log_cosh",
                           "categorical_focal_crossentropy", "kl_divergence"}) {
    auto loss = losses::deserialize({{"class_name", name}, {"config", {{"dtype", "float64"}}}});
    expect_gradcheck(
        name,
        [&](const TensorList& in) { return (*loss)(t, ops::softmax(in[0])); },
        {ops::cast(make({0.2, -0.4, 1.0, 0.5, 0.1, -1.2}, {2, 3}), DType::Float64)});
  }
}

TEST(Losses, BadArgumentsNameTheValue) {
  EXPECT_THROW(losses::MeanSquaredError({.reduction = "average"}), ValueError);
  EXPECT_THROW(losses::BinaryCrossentropy({.label_smoothing = 1.5}), ValueError);
  EXPECT_THROW(
      losses::CategoricalGeneralizedCrossEntropy({.q = 1.0}), ValueError);
  losses::MeanSquaredError mse;
  EXPECT_THROW(mse(make({1, 2}, {2}), Tensor()), ValueError);
  EXPECT_THROW(losses::CategoricalCrossentropy({.axis = 3})(make({1, 0}, {1, 2}),
                                                            make({0.5, 0.5}, {1, 2})),
               ValueError);
}

}  // namespace
}  // namespace keras
