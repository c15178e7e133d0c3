// keras::metrics IoU family against NumPy transcriptions of Keras (tools/golden/metrics_iou.py),
// plus the stateless API, configs and bad arguments.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

// result() after the last batch or, with kwargs "per_batch", after each one.
GoldenOps iou_ops() {
  GoldenOps m;
  for (const char* cls : {"IoU", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU"})
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

TEST(IoUMetricsGolden, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_golden("metrics_iou", iou_ops());
}

// The same cases computed by Keras 3.15 (tools/keras_oracle/losses_metrics.py), plus three
// weighted batches with result() after each.
TEST(IoUMetricsOracle, AccumulatedOverBatchesWithAndWithoutWeights) {
  run_oracle("metrics_iou", iou_ops());
}

TEST(IoUMetrics, VariableAndStatelessApi) {
  metrics::MeanIoU a(3), b(3);
  ASSERT_EQ(a.variables().size(), 1u);
  EXPECT_EQ(a.variables()[0].name(), "total_confusion_matrix");
  EXPECT_EQ(a.variables()[0].shape(), Shape({3, 3}));
  Tensor t1 = make({0, 1, 2, 2}, {4}), p1 = make({0, 2, 2, 1}, {4});
  Tensor t2 = make({1, 1}, {2}), p2 = make({1, 0}, {2});
  auto state = b.stateless_reset_state();
  for (auto [t, p] : {std::pair{t1, p1}, std::pair{t2, p2}}) {
    a.update_state(t, p);
    state = b.stateless_update_state(state, t, p);
  }
  EXPECT_NEAR(b.stateless_result(state).item<double>(), a.result().item<double>(), 1e-7);
  EXPECT_EQ(b.result().item<double>(), 0.0);
  // cm = [[1,0,0],[1,1,1],[0,1,1]]: IoU 1/2, 1/4, 1/3.
  EXPECT_NEAR(a.result().item<double>(), (0.5 + 0.25 + 1.0 / 3) / 3, 1e-6);
  a.reset_state();
  EXPECT_EQ(a.result().item<double>(), 0.0);
}

TEST(IoUMetrics, ConfigsRoundTrip) {
  EXPECT_EQ(metrics::BinaryIoU({.name = "b"}).get_config(),
            json::parse(R"({"name": "b", "dtype": "float32", "target_class_ids": [0, 1],
                            "threshold": 0.5})"));
  EXPECT_EQ(metrics::MeanIoU(4, {.name = "m"}).get_config(),
            json::parse(R"({"name": "m", "dtype": "float32", "num_classes": 4,
                            "ignore_class": null, "sparse_y_true": true, "sparse_y_pred": true,
                            "axis": -1})"));
  // A Keras config with its default integer dtype.
  auto k = metrics::deserialize(json::parse(
      R"({"class_name": "OneHotMeanIoU", "config": {"name": "x", "dtype": "int32",
          "num_classes": 3, "ignore_class": null, "sparse_y_pred": false, "axis": -1}})"));
  EXPECT_EQ(k->class_name(), "OneHotMeanIoU");
  EXPECT_EQ(k->dtype(), DType::Float32);
  std::vector<metrics::MetricPtr> all = {
      std::make_shared<metrics::IoU>(5, std::vector<int64_t>{1, 3},
                                     metrics::IoUOptions{.ignore_class = 0, .axis = 1}),
      std::make_shared<metrics::MeanIoU>(2), std::make_shared<metrics::BinaryIoU>(
                                                 metrics::BinaryIoUOptions{.threshold = 0.2}),
      std::make_shared<metrics::OneHotIoU>(3, std::vector<int64_t>{2},
                                           metrics::OneHotIoUOptions{.sparse_y_pred = true}),
      std::make_shared<metrics::OneHotMeanIoU>(4)};
  for (const auto& m : all) {
    auto back = metrics::deserialize(metrics::serialize(m));
    EXPECT_EQ(back->class_name(), m->class_name());
    EXPECT_EQ(back->get_config(), m->get_config());
  }
  EXPECT_EQ(metrics::get("binary_io_u")->class_name(), "BinaryIoU");
}

TEST(IoUMetrics, BadArguments) {
  try {
    metrics::IoU(3, {0, 3});
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Target class id 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(metrics::MeanIoU(0), ValueError);
  EXPECT_THROW(metrics::IoU(3, {}), ValueError);
  metrics::MeanIoU m(3);
  EXPECT_THROW(m.update_state(make({0, 1}, {2}), make({0, 1, 2}, {3})), ValueError);
  EXPECT_THROW(m.update_state(make({0, 1}, {2}), make({0, 1}, {2}), make({1, 2, 3}, {3})),
               ValueError);
}

}  // namespace
}  // namespace keras
