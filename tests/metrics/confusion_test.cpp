// keras::metrics confusion-matrix metrics against NumPy transcriptions of Keras
// (tools/golden/metrics_confusion.py), plus the stateless API, configs and bad arguments.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

// result() after the last batch or, with kwargs "per_batch", after each one.
TensorList accumulate_confusion(const std::string& cls, const TensorList& in, const json& kw) {
  auto metric = metrics::deserialize({{"class_name", cls}, {"config", kw["config"]}});
  bool weighted = kw["weighted"].get<bool>();
  size_t stride = weighted ? 3 : 2;
  TensorList results;
  for (size_t i = 0; i + stride <= in.size(); i += stride) {
    metric->update_state(in[i], in[i + 1], weighted ? in[i + 2] : Tensor());
    results.push_back(metric->result());
  }
  if (kw.value("per_batch", false)) return results;
  return {results.back()};
}

GoldenOps confusion_ops() {
  GoldenOps m;
  for (const char* cls :
       {"TruePositives", "TrueNegatives", "FalsePositives", "FalseNegatives", "Precision",
        "Recall", "PrecisionAtRecall", "RecallAtPrecision", "SensitivityAtSpecificity",
        "SpecificityAtSensitivity", "AUC"})
    m[cls] = [name = std::string(cls)](const TensorList& in, const json& kw) {
      return accumulate_confusion(name, in, kw);
    };
  return m;
}

TEST(ConfusionMetricsGolden, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_golden("metrics_confusion", confusion_ops());
}

// The same cases computed by Keras 3.15 (tools/keras_oracle/losses_metrics.py), plus three
// weighted batches with result() after each.
TEST(ConfusionMetricsOracle, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_oracle("metrics_confusion", confusion_ops());
}

TEST(ConfusionMetrics, CountsAndThresholdEdges) {
  // `>`: a prediction equal to the threshold is negative.
  Tensor t = make({1, 1, 0, 0}, {4});
  Tensor p = make({0.5, 0.9, 0.5, 0.1}, {4});
  metrics::TruePositives tp;
  metrics::FalsePositives fp({.thresholds = std::vector<double>{0.0, 0.5}});
  EXPECT_EQ(tp(t, p).item<double>(), 1.0);
  EXPECT_EQ(fp(t, p).to_vector<double>(), (std::vector<double>{2.0, 0.0}));
  EXPECT_EQ(tp.variables().size(), 1u);
  EXPECT_EQ(tp.variables()[0].name(), "accumulator");
  EXPECT_EQ(tp.name().rfind("true_positives", 0), 0u);  // uniquified, as Keras's auto_name
  metrics::AUC auc;
  EXPECT_EQ(auc.thresholds().size(), 200u);
  EXPECT_NEAR(auc.thresholds().front(), -1e-7, 1e-12);
  EXPECT_NEAR(auc.thresholds().back(), 1 + 1e-7, 1e-12);
  EXPECT_EQ(auc.variables()[0].shape(), Shape({200}));
  metrics::AUC ml({.multi_label = true});
  EXPECT_TRUE(ml.variables().empty());  // built by the first batch
  ml.update_state(make({1, 0, 0, 1}, {2, 2}), make({0.8, 0.3, 0.2, 0.6}, {2, 2}));
  EXPECT_EQ(ml.variables()[0].shape(), Shape({200, 2}));
  EXPECT_NEAR(ml.result().item<double>(), 1.0, 1e-6);
}

TEST(ConfusionMetrics, StatelessApi) {
  metrics::AUC stateful({.curve = "PR"}), stateless({.curve = "PR"});
  Tensor t1 = make({1, 0, 1, 0, 1}, {5}), p1 = make({0.7, 0.2, 0.4, 0.6, 0.9}, {5});
  Tensor t2 = make({0, 1, 0}, {3}), p2 = make({0.1, 0.3, 0.8}, {3});
  auto state = stateless.stateless_reset_state();
  for (auto [t, p] : {std::pair{t1, p1}, std::pair{t2, p2}}) {
    stateful.update_state(t, p);
    state = stateless.stateless_update_state(state, t, p);
  }
  EXPECT_NEAR(stateless.stateless_result(state).item<double>(), stateful.result().item<double>(),
              1e-7);
  EXPECT_EQ(stateless.result().item<double>(), 0.0);
  stateful.reset_state();
  EXPECT_EQ(stateful.result().item<double>(), 0.0);
}

TEST(ConfusionMetrics, ConfigsRoundTrip) {
  EXPECT_EQ(metrics::Precision({.thresholds = 0.3, .top_k = 2, .name = "precision"}).get_config(),
            json::parse(R"({"name": "precision", "dtype": "float32", "thresholds": 0.3,
                            "top_k": 2, "class_id": null})"));
  EXPECT_EQ(metrics::get("auc")->class_name(), "AUC");
  EXPECT_EQ(metrics::get("true_positives")->class_name(), "TruePositives");
  json auc = metrics::AUC({.name = "a", .thresholds = std::vector<double>{0.6, 0.2}}).get_config();
  EXPECT_EQ(auc["thresholds"], json::parse("[0.2, 0.6]"));
  EXPECT_EQ(auc["num_thresholds"], 4);
  EXPECT_EQ(auc["curve"], "ROC");
  EXPECT_EQ(auc["summation_method"], "interpolation");
  std::vector<metrics::MetricPtr> all = {
      std::make_shared<metrics::TruePositives>(),
      std::make_shared<metrics::FalseNegatives>(
          metrics::ConfusionCountOptions{.thresholds = std::vector<double>{0.1, 0.9}}),
      std::make_shared<metrics::Recall>(metrics::PrecisionRecallOptions{.class_id = 1}),
      std::make_shared<metrics::PrecisionAtRecall>(0.4, metrics::AtValueOptions{.num_thresholds = 5}),
      std::make_shared<metrics::RecallAtPrecision>(0.4),
      std::make_shared<metrics::SensitivityAtSpecificity>(0.7),
      std::make_shared<metrics::SpecificityAtSensitivity>(0.2),
      std::make_shared<metrics::AUC>(metrics::AUCOptions{
          .curve = "PR", .summation_method = "minoring", .multi_label = true, .num_labels = 3,
          .label_weights = std::vector<double>{1, 2, 3}, .from_logits = true}),
      std::make_shared<metrics::AUC>(
          metrics::AUCOptions{.thresholds = std::vector<double>{0.25, 0.5, 0.75}})};
  for (const auto& m : all) {
    auto back = metrics::deserialize(metrics::serialize(m));
    EXPECT_EQ(back->class_name(), m->class_name());
    EXPECT_EQ(back->get_config(), m->get_config());
  }
}

template <typename F>
void expect_value_error(F f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected ValueError mentioning " << needle;
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(ConfusionMetrics, BadArguments) {
  expect_value_error([] { metrics::TruePositives({.thresholds = 1.5}); }, "1.5");
  expect_value_error([] { metrics::AUC({.num_thresholds = 1}); }, "num_thresholds=1");
  expect_value_error([] { metrics::AUC({.curve = "ROCC"}); }, "ROCC");
  expect_value_error([] { metrics::AUC({.summation_method = "mid"}); }, "mid");
  expect_value_error([] { metrics::AUC({.num_labels = 3}); }, "num_labels");
  expect_value_error([] { metrics::PrecisionAtRecall(1.2); }, "recall=1.2");
  expect_value_error([] { metrics::SensitivityAtSpecificity(0.5, {.num_thresholds = 0}); },
                     "num_thresholds=0");
  metrics::Precision p({.class_id = 1});
  expect_value_error([&] { p.update_state(make({1, 0}, {2}), make({0.3, 0.8}, {2})); },
                     "class_id");
  metrics::AUC ml({.multi_label = true});
  expect_value_error([&] { ml.update_state(make({1, 0}, {2}), make({0.3, 0.8}, {2})); }, "rank 2");
}

}  // namespace
}  // namespace keras
