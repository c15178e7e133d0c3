// keras::metrics PearsonCorrelation and ConcordanceCorrelation against NumPy transcriptions
// of Keras (tools/golden/metrics_correlation.py), plus the stateless API and configs.

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

TEST(CorrelationMetricsGolden, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_golden("metrics_correlation",
             accumulating_ops({"PearsonCorrelation", "ConcordanceCorrelation"}));
}

// The same cases computed by Keras 3.15 (tools/keras_oracle/losses_metrics.py), plus three
// weighted batches with result() after each.
TEST(CorrelationMetricsOracle, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_oracle("metrics_correlation",
             accumulating_ops({"PearsonCorrelation", "ConcordanceCorrelation"}));
}

TEST(CorrelationMetrics, FunctionsStatelessApiAndConfigs) {
  Tensor t = make({1, 2, 3, 4, 2, 4, 6, 8}, {2, 4});
  Tensor p = make({2, 4, 6, 8, 8, 6, 4, 2}, {2, 4});
  auto r = metrics::pearson_correlation(t, p).to_vector<double>();
  EXPECT_NEAR(r[0], 1.0, 1e-6);
  EXPECT_NEAR(r[1], -1.0, 1e-6);
  metrics::ConcordanceCorrelation a, b;
  a.update_state(t, p);
  auto state = b.stateless_update_state(b.stateless_reset_state(), t, p);
  EXPECT_NEAR(b.stateless_result(state).item<double>(), a.result().item<double>(), 1e-7);
  EXPECT_EQ(a.direction(), "up");
  EXPECT_EQ(metrics::PearsonCorrelation().get_config(),
            json::parse(R"({"name": "pearson_correlation", "dtype": "float32", "axis": -1})"));
  expect_round_trip(std::make_shared<metrics::ConcordanceCorrelation>(
      metrics::ConcordanceCorrelationOptions{.axis = 0}));
  EXPECT_EQ(metrics::get("concordance_correlation")->class_name(), "ConcordanceCorrelation");
  EXPECT_THROW(a.update_state(t, Tensor()), ValueError);
}

}  // namespace
}  // namespace keras
