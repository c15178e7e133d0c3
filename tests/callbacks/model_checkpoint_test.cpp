// ModelCheckpoint: file names from format fields, save_best_only, thresholds, batch-level
// saving, verbose messages and the errors.

#include "keras/callbacks/model_checkpoint.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "assertions.h"
#include "callback_test_util.h"
#include "keras/keras.h"
#include "scripted_model.h"

namespace keras {
namespace {

using callbacks::ModelCheckpoint;
using callbacks::ModelCheckpointOptions;
using test::ScriptedModel;

std::set<std::string> files_in(const std::filesystem::path& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out.insert(e.path().filename().string());
  return out;
}

TEST(ModelCheckpoint, NamesFilesFromEpochAndLogs) {
  test::TempDir dir("ckpt");
  auto m = ScriptedModel::make({0.5, 0.25, 0.4, 0.125});
  auto ckpt = std::make_shared<ModelCheckpoint>(
      dir.file("sub/w.{epoch:02d}-{loss:.2f}.weights.h5"),
      ModelCheckpointOptions{.save_weights_only = true});
  m->run(4, {ckpt});
  EXPECT_EQ(files_in(dir.path() / "sub"),
            (std::set<std::string>{"w.01-0.50.weights.h5", "w.02-0.25.weights.h5",
                                   "w.03-0.40.weights.h5", "w.04-0.12.weights.h5"}));
  // Each file holds that epoch's weights.
  auto fresh = ScriptedModel::make({1.0});
  fresh->load_weights(dir.file("sub/w.02-0.25.weights.h5"));
  EXPECT_EQ(fresh->kernel(), 1.0);
}

TEST(ModelCheckpoint, SaveBestOnlyKeepsTheBestEpoch) {
  test::TempDir dir("ckpt");
  std::string path = dir.file("best.weights.h5");
  auto m = ScriptedModel::make({0.5, 0.25, 0.4, 0.125, 0.3});
  auto ckpt = std::make_shared<ModelCheckpoint>(
      path, ModelCheckpointOptions{.monitor = "loss", .verbose = 1, .save_best_only = true,
                                   .save_weights_only = true});
  testing::internal::CaptureStdout();
  m->run(5, {ckpt});
  std::string out = testing::internal::GetCapturedStdout();
  auto fresh = ScriptedModel::make({1.0});
  fresh->load_weights(path);
  EXPECT_EQ(fresh->kernel(), 3.0);  // epoch index 3 (loss 0.125)
  EXPECT_EQ(out,
            "\nEpoch 1: loss improved from None to 0.50000, saving model to " + path + "\n"
            "\nEpoch 1: finished saving model to " + path + "\n"
            "\nEpoch 2: loss improved from 0.50000 to 0.25000, saving model to " + path + "\n"
            "\nEpoch 2: finished saving model to " + path + "\n"
            "\nEpoch 3: loss did not improve from 0.25000\n"
            "\nEpoch 4: loss improved from 0.25000 to 0.12500, saving model to " + path + "\n"
            "\nEpoch 4: finished saving model to " + path + "\n"
            "\nEpoch 5: loss did not improve from 0.12500\n");
  EXPECT_EQ(files_in(dir.path()), (std::set<std::string>{"best.weights.h5"}));
}

TEST(ModelCheckpoint, InitialValueThresholdAndMaxMode) {
  test::TempDir dir("ckpt");
  auto m = ScriptedModel::make({0.5, 0.25, 0.4, 0.125});
  auto ckpt = std::make_shared<ModelCheckpoint>(
      dir.file("{epoch}.weights.h5"),
      ModelCheckpointOptions{.monitor = "loss", .save_best_only = true,
                             .save_weights_only = true, .initial_value_threshold = 0.3});
  m->run(4, {ckpt});
  EXPECT_EQ(files_in(dir.path()), (std::set<std::string>{"2.weights.h5", "4.weights.h5"}));

  test::TempDir dir2("ckpt");
  auto m2 = ScriptedModel::make({0.5, 0.25, 0.6, 0.125});
  m2->run(4, {std::make_shared<ModelCheckpoint>(
                 dir2.file("{epoch}.weights.h5"),
                 ModelCheckpointOptions{.monitor = "loss", .save_best_only = true,
                                        .save_weights_only = true, .mode = "max"})});
  EXPECT_EQ(files_in(dir2.path()), (std::set<std::string>{"1.weights.h5", "3.weights.h5"}));
}

TEST(ModelCheckpoint, SavesEveryNBatches) {
  test::TempDir dir("ckpt");
  auto m = ScriptedModel::make({1.0});
  auto ckpt = std::make_shared<ModelCheckpoint>(
      dir.file("{epoch}-{batch}.weights.h5"),
      ModelCheckpointOptions{.save_weights_only = true, .save_freq = 2});
  m->fit(ops::ones({3, 1}), ops::ones({3, 1}),
         {.batch_size = 1, .epochs = 2, .verbose = 0, .callbacks = {ckpt}, .shuffle = false});
  EXPECT_EQ(files_in(dir.path()),
            (std::set<std::string>{"1-2.weights.h5", "2-1.weights.h5", "2-3.weights.h5"}));
}

TEST(ModelCheckpoint, Errors) {
  EXPECT_THROW(ModelCheckpoint("m.h5"), NotImplementedError);
  EXPECT_THROW(ModelCheckpoint("m.txt"), ValueError);
  EXPECT_THROW(ModelCheckpoint("m.h5", {.save_weights_only = true}), ValueError);
  EXPECT_THROW(ModelCheckpoint("m.weights.h5", {.save_weights_only = true, .save_freq = "batch"}),
               ValueError);
  EXPECT_THROW(ModelCheckpoint("m.weights.h5", {.save_weights_only = true, .save_freq = 0}),
               ValueError);
  test::TempDir dir("ckpt");
  auto m = ScriptedModel::make({1.0});
  auto ckpt = std::make_shared<ModelCheckpoint>(dir.file("{nope}.weights.h5"),
                                                ModelCheckpointOptions{.save_weights_only = true});
  EXPECT_THROW(m->run(1, {ckpt}), ValueError);
  std::filesystem::create_directories(dir.file("d.weights.h5"));
  auto ckpt2 = std::make_shared<ModelCheckpoint>(dir.file("d.weights.h5"),
                                                 ModelCheckpointOptions{.save_weights_only = true});
  EXPECT_THROW(m->run(1, {ckpt2}), IOError);
}

TEST(ModelCheckpoint, SavesWholeKerasModelsThatLoadBack) {
  test::TempDir dir("ckpt_keras");
  backend::clear_session();
  auto model = Sequential({Input({2}), layers::Dense(1)});
  model->compile({.optimizer = "sgd", .loss = "mse"});
  auto ckpt = std::make_shared<ModelCheckpoint>(dir.file("model-{epoch}.keras"));
  model->fit(ops::ones({4, 2}), ops::zeros({4, 1}),
             {.batch_size = 2, .epochs = 2, .verbose = 0, .callbacks = {ckpt}});
  auto loaded = saving::load_model(dir.file("model-2.keras"));
  auto a = model->get_weights(), b = loaded->get_weights();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_EQ(b[i], a[i]);
  EXPECT_TRUE(std::filesystem::exists(dir.file("model-1.keras")));
}


}  // namespace
}  // namespace keras
