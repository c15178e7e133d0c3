// keras::metrics FBetaScore and F1Score against NumPy transcriptions of Keras
// (tools/golden/metrics_f_score.py), plus the stateless API, configs and bad arguments.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

// result() after the last batch or, with kwargs "per_batch", after each one.
GoldenOps accumulating_ops(std::initializer_list<const char*> classes) {
  GoldenOps m;
  for (const char* cls : classes)
    m[cls] = [name = std::string(cls)](const TensorList& in, const json& kw) {
      auto metric = metrics::deserialize({{"class_name", name}, {"config", kw["config"]}});
      bool weighted = kw["weighted"].get<bool>();
      size_t stride = weighted ? 3 : 2;
      TensorList results;
      for (size_t i = 0; i + stride <= in.size(); i += stride) {
        metric->update_state(in[i], in[i + 1], weighted ? in[i + 2] : Tensor());
        results.push_back(metric->result());
      }
      if (kw.value("per_batch", false)) return results;
      return TensorList{results.back()};
    };
  return m;
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

void expect_round_trip(const metrics::MetricPtr& m) {
  auto back = metrics::deserialize(metrics::serialize(m));
  EXPECT_EQ(back->class_name(), m->class_name());
  EXPECT_EQ(back->get_config(), m->get_config());
}

TEST(FScoreMetricsGolden, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_golden("metrics_f_score", accumulating_ops({"F1Score", "FBetaScore"}));
}

// The same cases computed by Keras 3.15 (tools/keras_oracle/losses_metrics.py), plus three
// weighted batches with result() after each.
TEST(FScoreMetricsOracle, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_oracle("metrics_f_score", accumulating_ops({"F1Score", "FBetaScore"}));
}

TEST(FScoreMetrics, VariablesAndStatelessApi) {
  metrics::F1Score a({.average = "macro"}), b({.average = "macro"});
  EXPECT_TRUE(a.variables().empty());  // built by the first batch
  Tensor t1 = make({1, 0, 0, 0, 1, 0, 1, 0, 0}, {3, 3});
  Tensor p1 = make({0.8, 0.1, 0.1, 0.3, 0.3, 0.4, 0.5, 0.4, 0.1}, {3, 3});
  Tensor t2 = make({0, 0, 1}, {1, 3}), p2 = make({0.2, 0.1, 0.7}, {1, 3});
  a.update_state(t1, p1);
  auto state = b.stateless_update_state(b.stateless_reset_state(), t1, p1);
  ASSERT_EQ(a.variables().size(), 4u);
  EXPECT_EQ(a.variables()[3].name(), "intermediate_weights");
  EXPECT_EQ(a.variables()[0].shape(), Shape({3}));
  a.update_state(t2, p2);
  state = b.stateless_update_state(state, t2, p2);
  EXPECT_NEAR(b.stateless_result(state).item<double>(), a.result().item<double>(), 1e-7);
  EXPECT_EQ(b.result().item<double>(), 0.0);
  metrics::F1Score micro({.average = "micro"});
  micro.update_state(t1, p1);
  EXPECT_EQ(micro.variables()[0].shape(), Shape({}));
}

TEST(FScoreMetrics, ConfigsRoundTrip) {
  EXPECT_EQ(metrics::F1Score().get_config(),
            json::parse(R"({"name": "f1_score", "dtype": "float32", "average": null,
                            "threshold": null})"));
  EXPECT_EQ(metrics::FBetaScore({.beta = 2.0}).get_config()["beta"], 2.0);
  expect_round_trip(std::make_shared<metrics::F1Score>(
      metrics::F1ScoreOptions{.average = "weighted", .threshold = 0.4}));
  expect_round_trip(std::make_shared<metrics::FBetaScore>(
      metrics::FBetaScoreOptions{.average = "micro", .beta = 0.5, .name = "f05"}));
  EXPECT_EQ(metrics::get("f1_score")->class_name(), "F1Score");
  EXPECT_EQ(metrics::get("f_beta_score")->class_name(), "FBetaScore");
}

TEST(FScoreMetrics, BadArguments) {
  expect_value_error([] { metrics::F1Score({.average = "mean"}); }, "average=mean");
  expect_value_error([] { metrics::FBetaScore({.beta = 0.0}); }, "beta=0");
  expect_value_error([] { metrics::F1Score({.threshold = 1.5}); }, "threshold=1.5");
  metrics::F1Score f;
  expect_value_error([&] { f.update_state(make({1, 0}, {2}), make({0.2, 0.8}, {2})); }, "2D");
}

}  // namespace
}  // namespace keras
