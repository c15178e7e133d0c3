// fit/evaluate/predict on Datasets, generators and PyDatasets against the in-memory tensor path
// (tested against a NumPy transcription of Keras's loop in tests/trainers): the same batches
// must give exactly the same weights, losses and outputs. Plus Keras's argument rules.

#include <gtest/gtest.h>

#include <atomic>

#include "keras/callbacks/history.h"
#include "keras/keras.h"

namespace keras {
namespace {

using data::Dataset;

struct Data {
  Tensor x, y;
};

Data make_data(int64_t n) {
  std::vector<float> xs, ys;
  for (int64_t i = 0; i < n; ++i) {
    for (int j = 0; j < 3; ++j) xs.push_back(std::sin(0.7f * static_cast<float>(i) + j));
    ys.push_back(std::cos(0.3f * static_cast<float>(i)));
    ys.push_back(0.5f * std::sin(static_cast<float>(i)));
  }
  return {Tensor::from_vector(xs, {n, 3}), Tensor::from_vector(ys, {n, 2})};
}

// Two models with the same initial weights, compiled alike.
std::pair<ModelPtr<>, ModelPtr<>> twin_models() {
  auto a = Sequential({Input({3}), layers::Dense(4, {.activation = "tanh"}), layers::Dense(2)});
  auto b = Sequential({Input({3}), layers::Dense(4, {.activation = "tanh"}), layers::Dense(2)});
  b->set_weights(a->get_weights());
  for (auto* m : {&a, &b}) (*m)->compile({.optimizer = "adam", .loss = "mse", .metrics = {"mae"}});
  return {a, b};
}

void expect_same_weights(const ModelPtr<>& a, const ModelPtr<>& b) {
  auto wa = a->get_weights(), wb = b->get_weights();
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t i = 0; i < wa.size(); ++i)
    EXPECT_EQ(wa[i].to_vector<float>(), wb[i].to_vector<float>());
}

TEST(FitData, DatasetGivesTheSameWeightsAsTensorsWithoutShuffle) {
  Data d = make_data(22);  // 6 batches of 4, the last of 2
  auto [a, b] = twin_models();
  auto ha = a->fit(d.x, d.y, {.batch_size = 4, .epochs = 3, .verbose = 0, .shuffle = false});
  auto ds = Dataset::from_tensor_slices(d.x, d.y).batch(4).prefetch(2);
  auto hb = b->fit(ds, {.epochs = 3, .verbose = 0});
  expect_same_weights(a, b);
  EXPECT_EQ(ha->history.at("loss"), hb->history.at("loss"));
  EXPECT_EQ(ha->history.at("mae"), hb->history.at("mae"));

  // The stacking path (a map before batch) and a parallel map give the same batches.
  auto [c, e] = twin_models();
  c->fit(d.x, d.y, {.batch_size = 4, .epochs = 2, .verbose = 0, .shuffle = false});
  auto mapped = Dataset::from_tensor_slices(d.x, d.y)
                    .map([](const data::Element& el) { return el; }, 3)
                    .batch(4);
  e->fit(mapped, {.epochs = 2, .verbose = 0});
  expect_same_weights(c, e);
}

TEST(FitData, EvaluateAndPredictOnADatasetMatchTheTensorVersions) {
  Data d = make_data(10);
  auto [a, b] = twin_models();
  auto ds = Dataset::from_tensor_slices(d.x, d.y).batch(3);
  Logs on_tensors = a->evaluate(d.x, d.y, {.batch_size = 3, .verbose = 0});
  Logs on_dataset = a->evaluate(ds, {.verbose = 0});
  EXPECT_EQ(on_tensors, on_dataset);
  Tensor p1 = a->predict(d.x, {.batch_size = 3, .verbose = 0}).single();
  Tensor p2 = a->predict(ds, {.verbose = 0}).single();  // y is ignored
  Tensor p3 = a->predict(Dataset::from_tensor_slices(d.x).batch(4), {.verbose = 0}).single();
  EXPECT_EQ(p1.shape(), Shape({10, 2}));
  EXPECT_EQ(p1.to_vector<float>(), p2.to_vector<float>());
  EXPECT_EQ(p1.to_vector<float>(), p3.to_vector<float>());
}

TEST(FitData, ValidationDataMayBeADataset) {
  Data d = make_data(16), v = make_data(7);
  auto [a, b] = twin_models();
  auto ha = a->fit(d.x, d.y,
                   {.batch_size = 4,
                    .epochs = 2,
                    .verbose = 0,
                    .validation_data = ValidationData{v.x, v.y},
                    .shuffle = false,
                    .validation_batch_size = 4});
  auto hb = b->fit(Dataset::from_tensor_slices(d.x, d.y).batch(4),
                   {.epochs = 2,
                    .verbose = 0,
                    .validation_data = Dataset::from_tensor_slices(v.x, v.y).batch(4)});
  EXPECT_EQ(ha->history.at("val_loss"), hb->history.at("val_loss"));
  EXPECT_EQ(ha->history.at("val_mae"), hb->history.at("val_mae"));
}

TEST(FitData, GeneratorWithStepsPerEpochContinuesAcrossEpochs) {
  Data d = make_data(20);
  auto [a, b] = twin_models();
  a->fit(d.x, d.y, {.batch_size = 4, .epochs = 3, .verbose = 0, .shuffle = false});
  int64_t next = 0;  // an endless generator cycling over the 5 batches
  auto generator = [&]() -> std::optional<StepData> {
    int64_t start = (next++ % 5) * 4;
    return StepData{d.x.slice({{start, start + 4}}), d.y.slice({{start, start + 4}}), {}};
  };
  b->fit(generator, {.epochs = 3, .verbose = 0, .steps_per_epoch = 5});
  expect_same_weights(a, b);
  EXPECT_EQ(next, 15);

  // An infinite Dataset needs steps_per_epoch; with it, epochs continue the same pass.
  auto forever = Dataset::from_tensor_slices(d.x, d.y).batch(4).repeat();
  EXPECT_THROW(b->fit(forever, {.epochs = 1, .verbose = 0}), ValueError);
  auto [c, e] = twin_models();
  c->fit(d.x, d.y, {.batch_size = 4, .epochs = 3, .verbose = 0, .shuffle = false});
  e->fit(forever, {.epochs = 5, .verbose = 0, .steps_per_epoch = 3});  // 15 batches
  expect_same_weights(c, e);
}

struct StepsSeen : callbacks::Callback {
  std::optional<int64_t> steps = -99;
  int batches = 0;
  void on_train_begin(const Logs&) override { steps = params().steps; }
  void on_train_batch_end(int64_t, const Logs&) override { ++batches; }
};

TEST(FitData, DataRunningOutWarnsAndTheNextEpochStartsAFreshPass) {
  Data d = make_data(12);
  auto [a, b] = twin_models();
  int calls = 0;  // a one-shot generator of 3 batches
  auto three = [&]() -> std::optional<StepData> {
    if (calls >= 3) return std::nullopt;
    int64_t s = 4 * calls++;
    return StepData{d.x.slice({{s, s + 4}}), d.y.slice({{s, s + 4}}), {}};
  };
  auto seen = std::make_shared<StepsSeen>();
  testing::internal::CaptureStderr();
  auto h = a->fit(three, {.epochs = 3, .verbose = 0, .callbacks = {seen}, .steps_per_epoch = 2});
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("ran out of data"), std::string::npos) << err;
  EXPECT_EQ(h->history.at("loss").size(), 3u);  // as Keras: warned, not stopped
  EXPECT_EQ(seen->batches, 3);
  // A Dataset restarts: 3 batches per pass, 2 per epoch -> 2, 1 (ran out), 2.
  auto seen2 = std::make_shared<StepsSeen>();
  testing::internal::CaptureStderr();
  b->fit(Dataset::from_tensor_slices(d.x, d.y).batch(4),
         {.epochs = 3, .verbose = 0, .callbacks = {seen2}, .steps_per_epoch = 2});
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(seen2->batches, 5);
}

class Batches : public utils::PyDataset {
 public:
  Batches(Data d, int workers) : PyDataset({.workers = workers}), d_(std::move(d)) {}
  int64_t size() const override { return 5; }
  StepData get(int64_t i) override {
    ++gets;
    return {d_.x.slice({{4 * i, 4 * i + 4}}), d_.y.slice({{4 * i, 4 * i + 4}}), {}};
  }
  void on_epoch_end() override { ++epochs_ended; }
  std::atomic<int> gets{0};
  int epochs_ended = 0;

 private:
  Data d_;
};

TEST(FitData, PyDatasetIsIteratedInOrderWithAndWithoutWorkers) {
  Data d = make_data(20);
  for (int workers : {1, 3}) {
    auto [a, b] = twin_models();
    a->fit(d.x, d.y, {.batch_size = 4, .epochs = 2, .verbose = 0, .shuffle = false});
    Batches batches(d, workers);
    auto h = b->fit(batches, {.epochs = 2, .verbose = 0});
    expect_same_weights(a, b);
    EXPECT_EQ(batches.epochs_ended, 2);
    EXPECT_EQ(batches.gets.load(), 10);
    EXPECT_EQ(a->evaluate(d.x, d.y, {.batch_size = 4, .verbose = 0}),
              b->evaluate(batches, {.verbose = 0}));
    EXPECT_EQ(a->predict(d.x, {.batch_size = 4, .verbose = 0}).single().to_vector<float>(),
              b->predict(batches, {.verbose = 0}).single().to_vector<float>());
  }
}

TEST(FitData, PyDatasetWithStepsPerEpochContinuesThroughTheIndices) {
  Data d = make_data(20);
  for (int workers : {1, 2}) {
    auto [a, b] = twin_models();
    Batches batches(d, workers);  // 5 batches; 2 per epoch: 0-1, 2-3, 4 (ran out), 0-1
    auto seen = std::make_shared<StepsSeen>();
    testing::internal::CaptureStderr();
    b->fit(batches, {.epochs = 4, .verbose = 0, .callbacks = {seen}, .steps_per_epoch = 2});
    EXPECT_NE(testing::internal::GetCapturedStderr().find("ran out of data"), std::string::npos);
    EXPECT_EQ(seen->batches, 7);
    EXPECT_EQ(batches.gets.load(), 7);
    EXPECT_EQ(batches.epochs_ended, 4);
    // The same 7 batches from tensors: one pass of 5, then the first 2 again.
    a->fit(d.x, d.y, {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
    a->fit(d.x.slice({{0, 8}}), d.y.slice({{0, 8}}),
           {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
    expect_same_weights(a, b);
  }
}

TEST(FitData, ClassWeightAppliesToDatasetBatches) {
  std::vector<float> xs;
  std::vector<int32_t> ys;
  for (int i = 0; i < 12; ++i) {
    xs.push_back(std::sin(static_cast<float>(i)));
    xs.push_back(std::cos(static_cast<float>(i)));
    ys.push_back(i % 3);
  }
  Tensor x = Tensor::from_vector(xs, {12, 2}), y = Tensor::from_vector(ys, {12});
  auto a = Sequential({Input({2}), layers::Dense(3, {.activation = "softmax"})});
  auto b = Sequential({Input({2}), layers::Dense(3, {.activation = "softmax"})});
  b->set_weights(a->get_weights());
  for (auto* m : {&a, &b})
    (*m)->compile({.optimizer = "sgd", .loss = "sparse_categorical_crossentropy"});
  std::map<int64_t, double> cw{{0, 1.0}, {1, 3.0}, {2, 0.5}};
  a->fit(x, y, {.batch_size = 5, .epochs = 2, .verbose = 0, .shuffle = false, .class_weight = cw});
  b->fit(Dataset::from_tensor_slices(x, y).batch(5),
         {.epochs = 2, .verbose = 0, .class_weight = cw});
  expect_same_weights(a, b);
}

TEST(FitData, UnknownCardinalityRunsUntilExhaustedWithNoTotal) {
  Data d = make_data(20);
  auto [a, b] = twin_models();
  auto seen = std::make_shared<StepsSeen>();
  auto kept = Dataset::from_tensor_slices(d.x, d.y)
                  .filter([](const data::Element&) { return true; })
                  .batch(4);
  EXPECT_EQ(kept.cardinality(), data::UNKNOWN);
  b->fit(kept, {.epochs = 2, .verbose = 1, .callbacks = {seen}});  // a bar without a total
  EXPECT_FALSE(seen->steps.has_value());
  EXPECT_EQ(seen->batches, 10);
  a->fit(d.x, d.y, {.batch_size = 4, .epochs = 2, .verbose = 0, .shuffle = false});
  expect_same_weights(a, b);
}

TEST(FitData, KerasArgumentRulesForBatchedData) {
  Data d = make_data(8);
  auto [a, b] = twin_models();
  auto ds = Dataset::from_tensor_slices(d.x, d.y).batch(4);
  try {
    a->fit(ds, {.batch_size = 4, .verbose = 0});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("batch_size=4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(a->fit(ds, {.verbose = 0, .validation_split = 0.2}), ValueError);
  EXPECT_THROW(a->fit(ds, {.verbose = 0,
                           .sample_weight = Tensor::from_vector(std::vector<float>(8, 1.0f), {8})}),
               ValueError);
  EXPECT_THROW(a->evaluate(ds, {.batch_size = 2, .verbose = 0}), ValueError);
  EXPECT_THROW(a->predict(ds, {.batch_size = 2, .verbose = 0}), ValueError);
  EXPECT_THROW(a->predict(ds.repeat(), {.verbose = 0}), ValueError);  // infinite, no steps
  EXPECT_EQ(a->predict(ds.repeat(), {.verbose = 0, .steps = 3}).single().shape()[0], 12);
}

TEST(FitData, AProducerErrorStopsFitWithTheBatchIndex) {
  Data d = make_data(20);
  auto [a, b] = twin_models();
  auto failing = Dataset::from_tensor_slices(d.x, d.y).batch(4).map([](const data::Element& e) {
    if (e.x.single().to_vector<float>()[0] == std::sin(0.7f * 12))
      throw std::runtime_error("corrupt record");
    return e;
  });
  try {
    a->fit(failing.prefetch(2), {.epochs = 1, .verbose = 0});
    FAIL();
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("batch 3"), std::string::npos) << m;  // batch 3 holds sample 12
    EXPECT_NE(m.find("corrupt record"), std::string::npos) << m;
  }
  struct Broken : utils::PyDataset {
    int64_t size() const override { return 3; }
    StepData get(int64_t i) override {
      if (i == 2) throw std::runtime_error("file 2 missing");
      return {Tensor::from_vector(std::vector<float>(6, 0.f), {2, 3}),
              Tensor::from_vector(std::vector<float>(4, 0.f), {2, 2}),
              {}};
    }
  } broken;
  try {
    a->fit(broken, {.epochs = 1, .verbose = 0});
    FAIL();
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("batch 2"), std::string::npos) << m;
    EXPECT_NE(m.find("file 2 missing"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace keras
