// keras::metrics R2Score against NumPy transcriptions of Keras
// (tools/golden/metrics_regression.py), plus the stateless API, configs and bad arguments.

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

TEST(RegressionMetricsGolden, R2ScoreAccumulatedOverBatches) {
  run_golden("metrics_regression", accumulating_ops({"R2Score"}));
}

// The same cases computed by Keras 3.15 (tools/keras_oracle/losses_metrics.py), plus three
// weighted batches with result() after each.
TEST(RegressionMetricsOracle, R2ScoreAccumulatedOverBatches) {
  run_oracle("metrics_regression", accumulating_ops({"R2Score"}));
}

TEST(RegressionMetrics, R2ScoreClosedFormAndStatelessApi) {
  metrics::R2Score a, b;
  ASSERT_EQ(a.variables().size(), 1u);
  EXPECT_EQ(a.variables()[0].name(), "num_samples");
  Tensor t = make({1, 2, 3, 4}, {4, 1}), perfect = make({1, 2, 3, 4}, {4, 1});
  Tensor mean_pred = make({2.5, 2.5, 2.5, 2.5}, {4, 1});
  a.update_state(t, perfect);
  EXPECT_NEAR(a.result().item<double>(), 1.0, 1e-6);
  ASSERT_EQ(a.variables().size(), 5u);
  EXPECT_EQ(a.variables()[3].name(), "residual");
  a.reset_state();
  a.update_state(t, mean_pred);  // predicting the mean: R2 = 0
  EXPECT_NEAR(a.result().item<double>(), 0.0, 1e-6);
  auto state = b.stateless_update_state(b.stateless_reset_state(), t, mean_pred);
  EXPECT_NEAR(b.stateless_result(state).item<double>(), 0.0, 1e-6);
}

TEST(RegressionMetrics, R2ScoreConfigsAndBadArguments) {
  EXPECT_EQ(metrics::R2Score().get_config(),
            json::parse(R"({"name": "r2_score", "dtype": "float32",
                            "class_aggregation": "uniform_average", "num_regressors": 0})"));
  expect_round_trip(std::make_shared<metrics::R2Score>(
      metrics::R2ScoreOptions{.class_aggregation = std::nullopt, .num_regressors = 2}));
  EXPECT_EQ(metrics::get("r2_score")->class_name(), "R2Score");
  expect_value_error([] { metrics::R2Score({.class_aggregation = "mean"}); },
                     "class_aggregation=mean");
  expect_value_error([] { metrics::R2Score({.num_regressors = -1}); }, "num_regressors=-1");
  metrics::R2Score r;
  expect_value_error([&] { r.update_state(make({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2}),
                                          make({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2})); },
                     "2D");
}

}  // namespace
}  // namespace keras
