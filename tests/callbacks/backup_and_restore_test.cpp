// BackupAndRestore: the kill test (a training process SIGKILLed in the middle of an epoch and
// restarted ends with the same weights, bit for bit, as an uninterrupted run), restoring into
// a process with another random state, batch-level saves, double_checkpoint and Keras's files.

#include "keras/callbacks/backup_and_restore.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "assertions.h"
#include "callback_test_util.h"
#include "keras/keras.h"

extern char** environ;

namespace keras {
namespace {

namespace fs = std::filesystem;
using callbacks::BackupAndRestore;
using callbacks::BackupAndRestoreOptions;

constexpr int kEpochs = 4;

ModelPtr<> make_model(uint64_t seed) {
  utils::set_random_seed(seed);
  auto model = Sequential({Input({3}), layers::Dense(8, {.activation = "relu"}), layers::Dense(1)});
  model->compile({.optimizer = "adam", .loss = "mse"});
  return model;
}

// 64 samples, 8 shuffled batches per epoch. The data does not depend on the random state.
std::shared_ptr<callbacks::History> train(Model& model, std::vector<callbacks::CallbackPtr> cbs,
                                          int epochs = kEpochs) {
  Tensor y;
  Tensor x = test::linear_data(64, &y);
  return model.fit(x, y, {.batch_size = 8, .epochs = epochs, .verbose = 0,
                          .callbacks = std::move(cbs), .shuffle = true});
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_same_state(Model& a, Model& b) {
  auto wa = a.get_weights(), wb = b.get_weights();
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t i = 0; i < wa.size(); ++i) EXPECT_TRUE(test::tensors_near(wa[i], wb[i], 0, 0)) << i;
  auto oa = a.optimizer()->variables(), ob = b.optimizer()->variables();
  ASSERT_EQ(oa.size(), ob.size());
  for (size_t i = 0; i < oa.size(); ++i)
    EXPECT_TRUE(test::tensors_near(oa[i].value(), ob[i].value(), 0, 0)) << "optimizer " << i;
}

// The uninterrupted run: seed 123, kEpochs epochs.
ModelPtr<> reference_run() {
  auto model = make_model(123);
  train(*model, {});
  return model;
}

// ---- the training process of the kill test ---------------------------------------------------
// Runs only when the parent test starts this binary with KERAS_CB_CHILD_DIR set: trains with
// BackupAndRestore(KERAS_CB_CHILD_DIR); with KERAS_CB_CHILD_KILL="epoch,batch" it SIGKILLs
// itself after that batch; at the end it writes its weights (and optimizer) to
// KERAS_CB_CHILD_OUT and the first epoch it ran to KERAS_CB_CHILD_OUT.first.
TEST(BackupAndRestoreChild, Train) {
  const char* dir = std::getenv("KERAS_CB_CHILD_DIR");
  if (dir == nullptr) GTEST_SKIP() << "the kill test's child process";
  std::string out = std::getenv("KERAS_CB_CHILD_OUT");
  int kill_epoch = -1, kill_batch = -1;
  if (const char* k = std::getenv("KERAS_CB_CHILD_KILL"))
    std::sscanf(k, "%d,%d", &kill_epoch, &kill_batch);
  auto model = make_model(123);
  int epoch_now = -1;
  std::optional<int> first_epoch;
  auto killer = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_epoch_begin =
          [&](int e, const Logs&) {
            epoch_now = e;
            if (!first_epoch) first_epoch = e;
          },
      .on_train_batch_end =
          [&](int64_t b, const Logs&) {
            if (epoch_now == kill_epoch && b == kill_batch) ::raise(SIGKILL);
          }});
  train(*model, {std::make_shared<BackupAndRestore>(dir), killer});
  std::ofstream(out + ".first") << first_epoch.value_or(-1);
  model->save_weights(out);
}

int run_child(const std::string& dir, const std::string& out, const std::string& kill) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  env_strings.push_back("KERAS_CB_CHILD_DIR=" + dir);
  env_strings.push_back("KERAS_CB_CHILD_OUT=" + out);
  if (!kill.empty()) env_strings.push_back("KERAS_CB_CHILD_KILL=" + kill);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = fs::read_symlink("/proc/self/exe").string();
  std::string filter = "--gtest_filter=BackupAndRestoreChild.Train";
  std::string brief = "--gtest_brief=1";
  std::vector<char*> argv{exe.data(), filter.data(), brief.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), envp.data()) != 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(BackupAndRestore, SigkillMidEpochThenRestartMatchesAnUninterruptedRun) {
  test::TempDir tmp("bar");
  std::string backup = tmp.file("backup");
  std::string out = tmp.file("final.weights.h5");

  // 1. Killed after batch 3 of epoch 2 (0-based): the backup is the end of epoch 1.
  int status = run_child(backup, out, "2,3");
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  ASSERT_EQ(WTERMSIG(status), SIGKILL);
  ASSERT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::exists(fs::path(backup) / "latest.weights.h5"));
  EXPECT_EQ(read_text((fs::path(backup) / "training_metadata.json").string()),
            "{\"epoch\": 2, \"batch\": 0}");
  int leftovers = 0;  // no temporary files
  for (const auto& e : fs::directory_iterator(backup)) leftovers += e.path().filename().string()[0] == '.';
  EXPECT_EQ(leftovers, 0);

  // 2. Restarted with the same backup dir: resumes at epoch 2 and finishes.
  status = run_child(backup, out, "");
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_EQ(read_text(out + ".first"), "2");
  EXPECT_FALSE(fs::exists(backup));  // delete_checkpoint

  // 3. Same weights and optimizer state as a run that was never interrupted.
  auto reference = reference_run();
  auto restored = make_model(7);
  restored->load_weights(out);
  expect_same_state(*reference, *restored);
}

TEST(BackupAndRestore, RestoresWeightsOptimizerAndShuffleStateInProcess) {
  test::TempDir tmp("bar");
  std::string backup = tmp.file("backup");
  {
    auto first = make_model(123);
    auto b = std::make_shared<BackupAndRestore>(backup, BackupAndRestoreOptions{
                                                            .delete_checkpoint = false});
    auto h = train(*first, {b}, 2);  // as if stopped after epoch 2 of kEpochs
    EXPECT_EQ(h->epoch, (std::vector<int>{0, 1}));
  }
  // Another random state: every restored piece must come from the backup.
  auto second = make_model(999);
  auto b = std::make_shared<BackupAndRestore>(backup);
  auto h = train(*second, {b});
  EXPECT_EQ(b->restored_epoch().value_or(-1), 2);
  EXPECT_EQ(h->epoch, (std::vector<int>{2, 3}));
  auto reference = reference_run();
  expect_same_state(*reference, *second);
}

TEST(BackupAndRestore, BatchFrequencyRecordsTheEpochInProgress) {
  test::TempDir tmp("bar");
  std::string backup = tmp.file("backup");
  auto model = make_model(1);
  std::vector<std::string> seen;
  auto b = std::make_shared<BackupAndRestore>(
      backup, BackupAndRestoreOptions{.save_freq = 5, .delete_checkpoint = false});
  auto spy = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_train_batch_end = [&](int64_t, const Logs&) {
        std::string p = (fs::path(backup) / "training_metadata.json").string();
        seen.push_back(fs::exists(p) ? read_text(p) : "");
      }});
  train(*model, {b, spy}, 2);
  // 16 batches: saves after global batches 5, 10, 15 (epoch 0 batch 4, epoch 1 batches 1, 6).
  EXPECT_EQ(seen[3], "");
  EXPECT_EQ(seen[4], "{\"epoch\": 0, \"batch\": 4}");
  EXPECT_EQ(seen[9], "{\"epoch\": 1, \"batch\": 1}");
  EXPECT_EQ(seen[14], "{\"epoch\": 1, \"batch\": 6}");
  // The last backup was in epoch 1 and there was no epoch-end save: a rerun resumes at 1.
  auto again = make_model(1);
  auto b2 = std::make_shared<BackupAndRestore>(backup);
  auto h = train(*again, {b2}, 2);
  EXPECT_EQ(h->epoch, (std::vector<int>{1}));
}

TEST(BackupAndRestore, DoubleCheckpointFallsBackToThePreviousBackup) {
  test::TempDir tmp("bar");
  std::string backup = tmp.file("backup");
  auto model = make_model(2);
  auto b = std::make_shared<BackupAndRestore>(
      backup, BackupAndRestoreOptions{.double_checkpoint = true, .delete_checkpoint = false});
  train(*model, {b}, 2);
  EXPECT_EQ(read_text(b->metadata_path() + ".bkp"), "{\"epoch\": 1, \"batch\": 0}");
  EXPECT_TRUE(fs::exists(b->weights_path() + ".bkp"));
  std::ofstream(b->weights_path(), std::ios::trunc) << "not hdf5";  // corrupted
  auto again = make_model(2);
  auto b2 = std::make_shared<BackupAndRestore>(backup);
  auto h = train(*again, {b2}, 3);
  EXPECT_EQ(b2->restored_epoch().value_or(-1), 1);
  EXPECT_EQ(h->epoch, (std::vector<int>{1, 2}));
  // Without a previous backup, the error surfaces.
  auto b3 = std::make_shared<BackupAndRestore>(tmp.file("other"));
  fs::create_directories(tmp.file("other"));
  std::ofstream(b3->weights_path()) << "not hdf5";
  auto third = make_model(2);
  EXPECT_THROW(train(*third, {b3}, 1), IOError);
}

TEST(BackupAndRestore, ReadsAKerasStyleBackupAndChecksItsArguments) {
  test::TempDir tmp("bar");
  std::string backup = tmp.file("backup");
  fs::create_directories(backup);
  auto src = make_model(3);
  train(*src, {}, 1);
  src->save_weights((fs::path(backup) / "latest.weights.h5").string());  // no keras-cpp state
  std::ofstream(fs::path(backup) / "training_metadata.json") << "{\"epoch\": 3, \"batch\": 0}";
  auto model = make_model(4);
  auto b = std::make_shared<BackupAndRestore>(backup);
  auto h = train(*model, {b});
  EXPECT_EQ(h->epoch, (std::vector<int>{3}));
  EXPECT_THROW(BackupAndRestore(""), ValueError);
  EXPECT_THROW(BackupAndRestore("x", {.save_freq = "never"}), ValueError);
  auto unbuilt = Sequential({layers::Dense(1)});
  unbuilt->compile({.optimizer = "sgd", .loss = "mse"});
  EXPECT_THROW(train(*unbuilt, {std::make_shared<BackupAndRestore>(tmp.file("u"))}, 1),
               ValueError);
}

}  // namespace
}  // namespace keras
