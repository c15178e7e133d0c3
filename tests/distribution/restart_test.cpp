// A job of 4 data-parallel processes, one of them SIGKILLed in the middle of an epoch, restarted
// with BackupAndRestore: it resumes from process 0's backup and ends with the weights of a job
// that was never interrupted, bit for bit.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "job_runner.h"
#include "keras/callbacks/backup_and_restore.h"
#include "keras/callbacks/lambda_callback.h"
#include "keras/distribution/distribution.h"
#include "keras/keras.h"

namespace keras {
namespace {

namespace dist = keras::distribution;
namespace fs = std::filesystem;

ModelPtr<> make_model() {
  utils::set_random_seed(11);
  // No Dropout: its generator's position is not part of a backup (nor of Keras's), so a
  // resumed run draws other masks than an uninterrupted one, on one process as on several.
  auto model = Sequential({Input({6}), layers::Dense(12, {.activation = "relu"}), layers::Dense(1)});
  model->compile({.optimizer = "adam", .loss = "mse"});
  return model;
}

// Trains 4 epochs with a backup in KERAS_JOB_DIR/backup; with KERAS_JOB_KILL set, process 2
// kills itself in the third epoch. Process 0 writes the final weights to KERAS_JOB_DIR/out.
TEST(DISABLED_Job, TrainWithBackup) {
  dist::initialize();
  dist::set_distribution(std::make_shared<dist::DataParallel>());
  const fs::path dir = std::getenv("KERAS_JOB_DIR");
  const bool kill = std::getenv("KERAS_JOB_KILL") != nullptr;
  Tensor x = ops::reshape(ops::sin(ops::multiply(ops::arange(0, 96 * 6, 1, DType::Float32), 0.7)),
                          {96, 6});
  Tensor y = ops::sum(ops::multiply(x, x), -1, true);
  auto model = make_model();
  int epoch_now = 0;
  auto killer = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_epoch_begin = [&](int epoch, const Logs&) { epoch_now = epoch; },
      .on_train_batch_end = [&](int64_t batch, const Logs&) {
        if (kill && dist::process_id() == 2 && epoch_now == 2 && batch == 3) ::raise(SIGKILL);
      }});
  model->fit(x, y, {.batch_size = 16, .epochs = 4, .verbose = 0,
                    .callbacks = {std::make_shared<callbacks::BackupAndRestore>(
                                      (dir / "backup").string()),
                                  killer},
                    .shuffle = true});
  if (dist::process_id() == 0) model->save_weights((dir / "out.weights.h5").string());
}

TEST(DataParallelJob, RestartAfterAKilledProcessEndsWithTheUninterruptedWeights) {
  const fs::path base = fs::temp_directory_path() / ("keras_restart_" + std::to_string(::getpid()));
  const fs::path resumed = base / "resumed", uninterrupted = base / "uninterrupted";
  fs::create_directories(resumed);
  fs::create_directories(uninterrupted);

  test::JobResult killed =
      test::run_job(4, "TrainWithBackup", {{"KERAS_JOB_DIR", resumed}, {"KERAS_JOB_KILL", "1"}});
  EXPECT_NE(killed.code, 0) << killed.output;
  // The launcher names rank 2, or the others' errors name process 2, whichever comes first.
  EXPECT_TRUE(killed.output.find("rank 2 was killed") != std::string::npos ||
              killed.output.find("process 2 exited or crashed") != std::string::npos)
      << killed.output;
  EXPECT_TRUE(fs::exists(resumed / "backup")) << "no backup left by the killed job";
  EXPECT_FALSE(fs::exists(resumed / "out.weights.h5"));

  test::JobResult restarted = test::run_job(4, "TrainWithBackup", {{"KERAS_JOB_DIR", resumed}});
  ASSERT_EQ(restarted.code, 0) << restarted.output;
  test::JobResult reference = test::run_job(4, "TrainWithBackup", {{"KERAS_JOB_DIR", uninterrupted}});
  ASSERT_EQ(reference.code, 0) << reference.output;

  auto a = make_model(), b = make_model();
  a->load_weights((resumed / "out.weights.h5").string());
  b->load_weights((uninterrupted / "out.weights.h5").string());
  auto wa = a->get_weights(), wb = b->get_weights();
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t i = 0; i < wa.size(); ++i)
    EXPECT_EQ(wa[i].to_vector<float>(), wb[i].to_vector<float>()) << "weight " << i;
  fs::remove_all(base);
}

}  // namespace
}  // namespace keras
