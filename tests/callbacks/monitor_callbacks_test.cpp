// EarlyStopping, ReduceLROnPlateau, LearningRateScheduler, CSVLogger, TerminateOnNaN and
// LambdaCallback against hand-computed expectations with scripted losses.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "callback_test_util.h"
#include "callbacks/format.h"
#include "keras/keras.h"
#include "scripted_model.h"

namespace keras {
namespace {

using callbacks::EarlyStopping;
using callbacks::EarlyStoppingOptions;
using test::ScriptedModel;

std::shared_ptr<EarlyStopping> early(EarlyStoppingOptions o) {
  return std::make_shared<EarlyStopping>(std::move(o));
}

TEST(EarlyStopping, StopsWhenPatienceRunsOut) {
  auto m = ScriptedModel::make({1.0, 0.9, 0.95, 0.92, 0.8, 0.7});
  auto es = early({.monitor = "loss", .patience = 2});
  auto h = m->run(10, {es});
  // 0: best 1.0; 1: best 0.9; 2: wait 1; 3: wait 2 -> stop.
  EXPECT_EQ(h->epoch.size(), 4u);
  EXPECT_EQ(es->stopped_epoch(), 3);
  EXPECT_EQ(es->best().value_or(0), 0.9f);
}

TEST(EarlyStopping, MinDeltaAndPatienceZero) {
  auto m = ScriptedModel::make({1.0, 0.97, 0.5});
  auto es = early({.monitor = "loss", .min_delta = 0.05});
  auto h = m->run(10, {es});
  EXPECT_EQ(h->epoch.size(), 2u);  // 0.97 is not 0.05 better than 1.0
  EXPECT_EQ(es->stopped_epoch(), 1);
}

TEST(EarlyStopping, RestoresTheBestEpochsWeights) {
  auto m = ScriptedModel::make({1.0, 0.4, 0.6, 0.7, 0.8});
  testing::internal::CaptureStdout();
  auto es = early({.monitor = "loss", .patience = 2, .verbose = 1, .restore_best_weights = true});
  m->run(10, {es});
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(es->stopped_epoch(), 3);
  EXPECT_EQ(es->best_epoch(), 1);
  EXPECT_EQ(m->kernel(), 1.0);  // the kernel epoch 1 left
  EXPECT_EQ(out, "Epoch 4: early stopping\n"
                 "Restoring model weights from the end of the best epoch: 2.\n");
}

TEST(EarlyStopping, BaselineMustBeBeaten) {
  auto m = ScriptedModel::make({1.0, 1.0, 1.0, 1.0});
  auto es = early({.monitor = "loss", .patience = 2, .baseline = 0.5});
  auto h = m->run(10, {es});
  EXPECT_EQ(h->epoch.size(), 2u);
  auto m2 = ScriptedModel::make({1.0, 0.9, 0.8, 0.7, 0.6});  // improving but above baseline
  auto es2 = early({.monitor = "loss", .patience = 2, .baseline = 0.5});
  EXPECT_EQ(m2->run(5, {es2})->epoch.size(), 5u);
}

TEST(EarlyStopping, StartFromEpochAndMaxMode) {
  auto m = ScriptedModel::make({5.0, 4.0, 3.0, 3.5, 2.0, 1.0});
  auto es = early({.monitor = "loss", .patience = 1, .mode = "max", .start_from_epoch = 2});
  auto h = m->run(10, {es});
  // Epochs 0-1 ignored; 2: best 3.0; 3: 3.5 better (max); 4: 2.0 worse -> stop.
  EXPECT_EQ(h->epoch.size(), 5u);
  EXPECT_EQ(es->stopped_epoch(), 4);
}

// Exposes the direction MonitorCallback decides.
struct DirectionProbe : EarlyStopping {
  explicit DirectionProbe(EarlyStoppingOptions o) : EarlyStopping(std::move(o)) {}
  bool minimizes() {
    set_monitor_op();
    return minimizing();
  }
};

TEST(EarlyStopping, AutoModeUsesTheMetricsDirection) {
  auto model = Sequential({Input({3}), layers::Dense(1)});
  model->compile({.optimizer = "sgd", .loss = "mse", .metrics = {"mae", "accuracy"}});
  Tensor y;
  Tensor x = test::linear_data(8, &y);
  model->fit(x, y, {.epochs = 1, .verbose = 0});  // builds the compiled metrics
  auto probe = [&](const std::string& monitor, const std::string& mode = "auto") {
    DirectionProbe p({.monitor = monitor, .mode = mode});
    p.set_model(model.get());
    return p.minimizes();
  };
  EXPECT_TRUE(probe("val_loss"));
  EXPECT_TRUE(probe("loss"));
  EXPECT_TRUE(probe("mae"));
  EXPECT_FALSE(probe("accuracy"));
  EXPECT_FALSE(probe("val_accuracy"));
  EXPECT_FALSE(probe("mae", "max"));
  EXPECT_TRUE(probe("accuracy", "min"));
  EXPECT_TRUE(probe("loss", "bogus"));  // warns, falls back to auto
  EXPECT_THROW(probe("not_a_metric_here"), ValueError);
  EXPECT_THROW(model->fit(x, y, {.epochs = 1, .verbose = 0,
                                 .callbacks = {early({.monitor = "unknown"})}}),
               ValueError);
}

TEST(ReduceLROnPlateau, LearningRateSequence) {
  auto m = ScriptedModel::make({1, 1, 1, 1, 1, 0.5, 0.5}, 1.0);
  std::vector<double> lrs;
  auto record = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_epoch_end = [&](int, const Logs&) { lrs.push_back(m->optimizer()->learning_rate()); }});
  auto reduce = std::make_shared<callbacks::ReduceLROnPlateau>(
      callbacks::ReduceLROnPlateauOptions{.monitor = "loss", .factor = 0.5, .patience = 1,
                                          .cooldown = 1});
  auto h = m->run(7, {reduce, record});
  EXPECT_EQ(lrs, (std::vector<double>{1, 0.5, 0.25, 0.125, 0.0625, 0.0625, 0.03125}));
  // As Keras, the epoch's logs (and so History) get the rate before the reduction.
  EXPECT_EQ(h->history.at("learning_rate"),
            (std::vector<double>{1, 1, 0.5, 0.25, 0.125, 0.0625, 0.0625}));
}

TEST(ReduceLROnPlateau, MinLrIsAFloorComparedInFloat32) {
  auto m = ScriptedModel::make({1, 1, 1, 1, 1, 1}, 1.0);
  std::vector<double> lrs;
  auto record = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_epoch_end = [&](int, const Logs&) { lrs.push_back(m->optimizer()->learning_rate()); }});
  testing::internal::CaptureStdout();
  auto reduce = std::make_shared<callbacks::ReduceLROnPlateau>(callbacks::ReduceLROnPlateauOptions{
      .monitor = "loss", .factor = 0.25, .patience = 1, .verbose = 1, .min_lr = 0.1});
  m->run(6, {reduce, record});
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(lrs, (std::vector<double>{1, 0.25, 0.10000000149011612, 0.10000000149011612,
                                      0.10000000149011612, 0.10000000149011612}));
  EXPECT_EQ(out, "\nEpoch 2: ReduceLROnPlateau reducing learning rate to 0.25.\n"
                 "\nEpoch 3: ReduceLROnPlateau reducing learning rate to 0.1.\n");
  EXPECT_THROW(callbacks::ReduceLROnPlateau({.factor = 1.0}), ValueError);
}

TEST(LearningRateScheduler, SetsTheRateEachEpoch) {
  auto m = ScriptedModel::make({1, 1, 1, 1}, 0.8);
  std::vector<double> lrs;
  auto record = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_epoch_begin = [&](int, const Logs&) { lrs.push_back(m->optimizer()->learning_rate()); }});
  auto sched = std::make_shared<callbacks::LearningRateScheduler>(
      [](int epoch, double lr) { return epoch < 2 ? lr : lr * 0.5; }, 1);
  testing::internal::CaptureStdout();
  auto h = m->run(4, {sched, record});
  EXPECT_EQ(h->history.at("learning_rate"), lrs);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(lrs, (std::vector<double>{0.800000011920929, 0.800000011920929, 0.4000000059604645,
                                      0.20000000298023224}));
  EXPECT_NE(out.find("\nEpoch 3: LearningRateScheduler setting learning rate to "
                     "0.4000000059604645.\n"),
            std::string::npos)
      << out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CSVLogger, WritesKerasRowsAndAppends) {
  test::TempDir dir("csv");
  std::string path = dir.file("log.csv");
  auto m = ScriptedModel::make({0.5, 0.25, 0.125, 0.1});
  m->run(2, {std::make_shared<callbacks::CSVLogger>(path)});
  EXPECT_EQ(read_text(path), "epoch,loss,val_loss\r\n0,0.5,NA\r\n1,0.25,NA\r\n");
  // append: no second header; rows continue.
  m->run(2, {std::make_shared<callbacks::CSVLogger>(path, ",", true)});
  EXPECT_EQ(read_text(path),
            "epoch,loss,val_loss\r\n0,0.5,NA\r\n1,0.25,NA\r\n0,0.125,NA\r\n1,0.10000000149011612,NA\r\n");
  // Without append the file starts over; another separator.
  m->run(1, {std::make_shared<callbacks::CSVLogger>(path, ";")});
  EXPECT_EQ(read_text(path), "epoch;loss;val_loss\r\n0;0.10000000149011612;NA\r\n");
}

TEST(CSVLogger, SeesWhatEarlierCallbacksAddToTheLogs) {
  test::TempDir dir("csv");
  std::string path = dir.file("log.csv");
  auto m = ScriptedModel::make({0.5, 0.25}, 0.5);
  m->run(2, {std::make_shared<callbacks::LearningRateScheduler>(
                 [](int, double lr) { return lr * 0.5; }),
             std::make_shared<callbacks::CSVLogger>(path)});
  EXPECT_EQ(read_text(path), "epoch,learning_rate,loss,val_learning_rate,val_loss\r\n"
                             "0,0.25,0.5,NA,NA\r\n1,0.125,0.25,NA,NA\r\n");
}

TEST(CSVLogger, WithValidationColumns) {
  test::TempDir dir("csv");
  std::string path = dir.file("log.csv");
  Tensor x = ops::ones({4, 1});
  Tensor y = ops::zeros({4, 1});
  auto model = Sequential({Input({1}), layers::Dense(1, {.kernel_initializer = "zeros",
                                                         .bias_initializer = "ones"})});
  model->compile({.optimizer = optimizers::deserialize(
                      {{"class_name", "SGD"}, {"config", {{"learning_rate", 0.0}}}}),
                  .loss = "mse", .metrics = {"mae"}});
  model->fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0,
                    .callbacks = {std::make_shared<callbacks::CSVLogger>(path)},
                    .validation_data = ValidationData{x, y}});
  EXPECT_EQ(read_text(path), "epoch,loss,mae,val_loss,val_mae\r\n0,1.0,1.0,1.0,1.0\r\n");
}

TEST(TerminateOnNaN, StopsAfterTheBatchOrRaises) {
  auto m = ScriptedModel::make({1.0, test::kNaN, 0.5});
  testing::internal::CaptureStdout();
  auto h = m->run(5, {std::make_shared<callbacks::TerminateOnNaN>()});
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(h->epoch.size(), 2u);
  EXPECT_EQ(out, "Batch 0: Invalid loss, terminating training\n");
  auto m2 = ScriptedModel::make({1.0, std::numeric_limits<double>::infinity()});
  EXPECT_THROW(m2->run(5, {std::make_shared<callbacks::TerminateOnNaN>(true)}), RuntimeError);
}

TEST(LambdaCallback, CallsEachHook) {
  auto m = ScriptedModel::make({1.0, 2.0});
  std::vector<std::string> events;
  auto cb = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_epoch_begin = [&](int e, const Logs&) { events.push_back("eb" + std::to_string(e)); },
      .on_epoch_end =
          [&](int e, const Logs& l) {
            events.push_back("ee" + std::to_string(e) + "=" +
                             callbacks::detail::py_float(l.at("loss")));
          },
      .on_train_begin = [&](const Logs&) { events.push_back("tb"); },
      .on_train_end = [&](const Logs&) { events.push_back("te"); },
      .on_train_batch_begin = [&](int64_t b, const Logs&) { events.push_back("bb" + std::to_string(b)); },
      .on_train_batch_end = [&](int64_t b, const Logs&) { events.push_back("be" + std::to_string(b)); },
  });
  m->run(2, {cb});
  EXPECT_EQ(events, (std::vector<std::string>{"tb", "eb0", "bb0", "be0", "ee0=1.0", "eb1", "bb0",
                                              "be0", "ee1=2.0", "te"}));
}

TEST(CallbackFormat, PythonFloatsAndFormatFields) {
  using callbacks::detail::py_float;
  using callbacks::detail::py_format;
  EXPECT_EQ(py_float(0.1), "0.1");
  EXPECT_EQ(py_float(1e-5), "1e-05");
  EXPECT_EQ(py_float(0.00015), "0.00015");
  EXPECT_EQ(py_float(123.0), "123.0");
  EXPECT_EQ(py_float(1e16), "1e+16");
  EXPECT_EQ(py_float(1234567890123456.0), "1234567890123456.0");
  EXPECT_EQ(py_float(-2.5), "-2.5");
  EXPECT_EQ(py_float(static_cast<float>(0.1)), "0.10000000149011612");
  EXPECT_EQ(py_format("w.{epoch:02d}-{val_loss:.2f}.weights.h5",
                      {{"epoch", int64_t{3}}, {"val_loss", 0.12567}}),
            "w.03-0.13.weights.h5");
  EXPECT_EQ(py_format("{loss}_{epoch}_{{x}}", {{"epoch", int64_t{12}}, {"loss", 0.5}}),
            "0.5_12_{x}");
  EXPECT_EQ(py_format("{a:>6.1f}|{a:<6.1e}|{a:+.3g}|{b:5d}|{b:<4}|{a:.1%}",
                      {{"a", 0.25}, {"b", int64_t{42}}}),
            "   0.2|2.5e-01|+0.25|   42|42  |25.0%");
  EXPECT_THROW(py_format("{missing}", {}), ValueError);
}

}  // namespace
}  // namespace keras
