// keras::metrics against NumPy transcriptions of Keras's formulas (tools/golden/metrics.py)
// and against Keras itself (tests/oracle/fixtures), plus the stateless API, names, configs and errors.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

// result() after the last batch or, with kwargs "per_batch", after each one.
TensorList accumulate(const std::string& cls, const TensorList& in, const json& kw) {
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

GoldenOps metric_ops() {
  GoldenOps m;
  for (const char* cls :
       {"Accuracy", "BinaryAccuracy", "CategoricalAccuracy", "SparseCategoricalAccuracy",
        "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "MeanSquaredError",
        "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
        "CosineSimilarity", "LogCoshError", "KLDivergence", "Poisson", "BinaryCrossentropy",
        "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "Hinge", "SquaredHinge",
        "CategoricalHinge", "RootMeanSquaredError"}) {
    m[cls] = [name = std::string(cls)](const TensorList& in, const json& kw) {
      return accumulate(name, in, kw);
    };
  }
  auto values = [](auto metric, const TensorList& in, const json& kw) {
    size_t stride = kw["weighted"].get<bool>() ? 2 : 1;
    TensorList results;
    for (size_t i = 0; i < in.size(); i += stride) {
      metric->update_state(in[i], stride == 2 ? in[i + 1] : Tensor());
      results.push_back(metric->result());
    }
    if (kw.value("per_batch", false)) return results;
    return TensorList{results.back()};
  };
  m["Mean"] = [values](const TensorList& in, const json& kw) {
    return values(std::make_shared<metrics::Mean>(), in, kw);
  };
  m["Sum"] = [values](const TensorList& in, const json& kw) {
    return values(std::make_shared<metrics::Sum>(), in, kw);
  };
  return m;
}

TEST(MetricsGolden, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_golden("metrics", metric_ops());
}

// The same cases computed by Keras 3.15 (tools/keras_oracle/losses_metrics.py), plus three
// weighted batches with result() after each.
TEST(MetricsOracle, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_oracle("metrics", metric_ops());
}

TEST(Metrics, ResetAndCall) {
  metrics::SparseCategoricalAccuracy acc;
  Tensor labels = make({0, 1, 1}, {3});
  Tensor probs = make({0.9, 0.1, 0.2, 0.8, 0.7, 0.3}, {3, 2});
  EXPECT_NEAR(acc(labels, probs).item<double>(), 2.0 / 3, 1e-7);
  acc.reset_state();
  EXPECT_EQ(acc.result().item<double>(), 0.0);  // divide_no_nan(0, 0)
  EXPECT_EQ(acc.variables().size(), 2u);
  EXPECT_EQ(acc.direction(), "up");
  EXPECT_EQ(metrics::MeanSquaredError().direction(), "down");
}

TEST(Metrics, StatelessApiMatchesStatefulAndLeavesStateAlone) {
  metrics::CategoricalAccuracy stateful, stateless;
  Tensor t = make({1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 3});
  Tensor p1 = make({0.8, 0.1, 0.1, 0.6, 0.3, 0.1, 0.1, 0.1, 0.8}, {3, 3});
  Tensor p2 = make({0.1, 0.8, 0.1, 0.1, 0.8, 0.1, 0.5, 0.1, 0.4}, {3, 3});
  std::vector<Tensor> state = stateless.stateless_reset_state();
  for (const Tensor& p : {p1, p2}) {
    stateful.update_state(t, p);
    state = stateless.stateless_update_state(state, t, p);
  }
  EXPECT_NEAR(stateless.stateless_result(state).item<double>(),
              stateful.result().item<double>(), 1e-7);
  EXPECT_NEAR(stateful.result().item<double>(), 3.0 / 6, 1e-7);
  EXPECT_EQ(stateless.result().item<double>(), 0.0);  // its own variables never moved
  EXPECT_THROW(stateless.stateless_result({state[0]}), ValueError);
  metrics::Mean mean;
  auto values = mean.stateless_update_values(mean.stateless_reset_state(), make({1, 2, 6}, {3}));
  EXPECT_NEAR(mean.stateless_result(values).item<double>(), 3.0, 1e-7);
}

TEST(Metrics, NamesConfigsAndRoundTrips) {
  EXPECT_EQ(metrics::get("mse")->class_name(), "MeanSquaredError");
  EXPECT_EQ(metrics::get("sparse_categorical_accuracy")->name(), "sparse_categorical_accuracy");
  EXPECT_EQ(metrics::get("log_cosh_error")->name(), "logcosh");
  EXPECT_EQ(metrics::get("root_mean_squared_error")->class_name(), "RootMeanSquaredError");
  EXPECT_EQ(metrics::BinaryAccuracy({.threshold = 0.3}).get_config(),
            json::parse(R"({"name": "binary_accuracy", "dtype": "float32", "threshold": 0.3})"));
  EXPECT_FALSE(metrics::SparseTopKCategoricalAccuracy().get_config().contains("from_sorted_ids"));
  std::vector<metrics::MetricPtr> all = {
      std::make_shared<metrics::TopKCategoricalAccuracy>(
          metrics::TopKCategoricalAccuracyOptions{.name = "top3", .k = 3}),
      std::make_shared<metrics::SparseCategoricalCrossentropy>(
          metrics::SparseCategoricalCrossentropyOptions{.from_logits = true,
                                                        .ignore_class = 0}),
      std::make_shared<metrics::CosineSimilarity>(metrics::CosineSimilarityOptions{.axis = 1}),
      std::make_shared<metrics::RootMeanSquaredError>(), std::make_shared<metrics::Mean>("m")};
  for (const auto& m : all) {
    auto back = metrics::deserialize(metrics::serialize(m));
    EXPECT_EQ(back->class_name(), m->class_name());
    EXPECT_EQ(back->get_config(), m->get_config());
  }
  try {
    metrics::get("acuracy");
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("acuracy"), std::string::npos);
  }
}

TEST(Metrics, CustomMetricAndFunctionWrapper) {
  struct CountPositives : metrics::Metric {
    CountPositives() : Metric("count_positives") { count_ = add_variable({}, "count"); }
    void update_state(const Tensor&, const Tensor& y_pred, const Tensor&) override {
      count_.assign_add(ops::sum(ops::cast(y_pred > 0.0, dtype())));
    }
    using Metric::update_state;
    Tensor result() const override { return count_.value(); }
    std::string class_name() const override { return "CountPositives"; }
    Variable count_;
  };
  CountPositives c;
  c.update_state(Tensor(), make({-1, 2, 3}, {3}));
  c.update_state(Tensor(), make({4, -5}, {2}));
  EXPECT_EQ(c.result().item<double>(), 3.0);
  metrics::MetricArg arg([](const Tensor& t, const Tensor& p) { return ops::abs(t - p); },
                         "abs_error");
  arg.metric()->update_state(make({1, 2}, {2}), make({2, 4}, {2}));
  EXPECT_NEAR(arg.metric()->result().item<double>(), 1.5, 1e-7);
  EXPECT_EQ(arg.metric()->name(), "abs_error");
}

TEST(Metrics, BadInputs) {
  metrics::Mean mean;
  EXPECT_THROW(static_cast<metrics::Metric&>(mean).update_state(make({1}, {1}), make({1}, {1}),
                                                                Tensor()),
               ValueError);
  EXPECT_THROW(metrics::TopKCategoricalAccuracy({.k = 0}), ValueError);
  metrics::MeanSquaredError mse;
  EXPECT_THROW(mse.update_state(make({1, 2}, {2}), Tensor()), ValueError);
}

// The record Keras 3.15 writes for MeanMetricWrapper(fn=keras.losses.mean_squared_error,
// name="wrapped_mse") (tests/oracle/fixtures/configs.json): rebuilt, it averages the
// per-sample squared errors over every sample seen, and writes the same record back.
TEST(Metrics, MeanMetricWrapperFromKerasRecord) {
  json record = json::parse(R"({"module": "keras.metrics", "class_name": "MeanMetricWrapper",
    "config": {"dtype": "float32", "name": "wrapped_mse", "fn": {"module": "builtins",
    "class_name": "function", "config": "mean_squared_error", "registered_name": "function"}},
    "registered_name": null})");
  auto m = metrics::deserialize(record);
  EXPECT_EQ(m->name(), "wrapped_mse");
  m->update_state(make({0, 1, 2, 3}, {2, 2}), make({1, 1, 2, 5}, {2, 2}));  // mse 0.5, 2
  m->update_state(make({1, 1}, {1, 2}), make({1, 4}, {1, 2}));              // mse 4.5
  EXPECT_NEAR(m->result().item<double>(), (0.5 + 2 + 4.5) / 3, 1e-6);
  EXPECT_EQ(metrics::serialize(m)["config"], record["config"]);
  record["config"]["fn"]["config"] = "my_python_function";
  EXPECT_THROW(metrics::deserialize(record), ValueError);
}

}  // namespace
}  // namespace keras
