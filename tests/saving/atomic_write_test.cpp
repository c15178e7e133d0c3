// write_atomically / save_weights: a failed or killed save leaves the previous file intact.
// The kill test starts this binary again as a child that saves a ~4 MB weights file in a loop
// (every weight of version k equal to k) and SIGKILLs it at varied moments; the target must
// then load and be exactly one complete version.

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <set>
#include <filesystem>
#include <fstream>
#include <thread>

#include "keras/keras.h"
#include "keras/saving/atomic_file.h"
#include "keras/saving/save_weights.h"
#include "keras/saving/weights.h"
#include "safety_util.h"
#include "saving/weights_writer.h"

extern char** environ;

namespace keras {
namespace {

namespace fs = std::filesystem;
using test::SafetyTempDir;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

size_t count_files(const fs::path& dir) {
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    (void)entry;
    ++n;
  }
  return n;
}

TEST(AtomicWrite, WritesAndReplaces) {
  SafetyTempDir dir("atomic");
  std::string path = dir.file("a.bin");
  saving::write_file_atomically(path, {'o', 'l', 'd'});
  EXPECT_EQ(read_text(path), "old");
  saving::write_file_atomically(path, {'n', 'e', 'w', '!'});
  EXPECT_EQ(read_text(path), "new!");
  EXPECT_EQ(count_files(dir.path()), 1u);
}

TEST(AtomicWrite, AFailingWriterLeavesTheOldFileAndNoTemporary) {
  SafetyTempDir dir("atomic");
  std::string path = dir.file("a.bin");
  saving::write_file_atomically(path, {'o', 'l', 'd'});
  std::string seen;
  EXPECT_THROW(saving::write_atomically(path,
                                        [&](const std::string& tmp) {
                                          seen = tmp;
                                          std::ofstream(tmp) << "half a fi";
                                          throw IOError("disk full");
                                        }),
               IOError);
  EXPECT_EQ(fs::path(seen).parent_path(), dir.path());  // the temporary is next to the target
  EXPECT_FALSE(fs::exists(seen));
  EXPECT_EQ(read_text(path), "old");
  EXPECT_EQ(count_files(dir.path()), 1u);
}

TEST(AtomicWrite, KeepsPermissionBitsAndRefusesFolders) {
  SafetyTempDir dir("atomic");
  std::string path = dir.file("a.bin");
  saving::write_file_atomically(path, {'1'});
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
  saving::write_file_atomically(path, {'2'});
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_THROW(saving::write_file_atomically(dir.path().string(), {'x'}), IOError);
  try {
    saving::write_file_atomically(dir.file("missing/b.bin"), {'x'});
    FAIL() << "no error";
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
}

// ---- the kill test ------------------------------------------------------------------------

ModelPtr<SequentialModel> big_model() {
  backend::clear_session();
  // 1000*1000 + 1000 + 1000*10 + 10 float32 weights: about 4 MB, so a save takes a while.
  return Sequential({Input({1000}), layers::Dense(1000), layers::Dense(10)});
}

void fill(Layer& model, float value) {
  std::vector<Tensor> values;
  for (const auto& w : model.weights()) values.push_back(ops::full(w.shape(), value));
  model.set_weights(values);
}

// The child: saves versions 1, 2, 3, ... of the model to KERAS_ATOMIC_CHILD_PATH until it is
// killed, touching KERAS_ATOMIC_CHILD_PATH.started after the first complete save. save_weights
// builds the file in memory and then writes it with write_file_atomically, the only step that
// touches the target; each version is written that way several times, so that most kills
// land inside a write.
TEST(AtomicWriteChild, SaveForever) {
  const char* path = std::getenv("KERAS_ATOMIC_CHILD_PATH");
  if (path == nullptr) GTEST_SKIP() << "the kill test's child process";
  auto model = big_model();
  for (int k = 1;; ++k) {
    fill(*model, static_cast<float>(k));
    saving::save_weights(*model, path);
    if (k == 1) std::ofstream(std::string(path) + ".started") << "1";
    const std::vector<uint8_t> bytes = saving::weights_image(*model, path, {});
    for (int again = 0; again < 32; ++again) saving::write_file_atomically(path, bytes);
  }
}

pid_t start_child(const std::string& path) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  env_strings.push_back("KERAS_ATOMIC_CHILD_PATH=" + path);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = fs::read_symlink("/proc/self/exe").string();
  std::string filter = "--gtest_filter=AtomicWriteChild.SaveForever";
  std::string brief = "--gtest_brief=1";
  std::vector<char*> argv{exe.data(), filter.data(), brief.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), envp.data()) != 0) return -1;
  return pid;
}

TEST(AtomicWrite, SaveWeightsKilledMidWriteLeavesACompleteVersion) {
  SafetyTempDir dir("kill");
  const std::string path = dir.file("model.weights.h5");
  auto model = big_model();
  std::set<float> seen_versions;
  int killed_mid_write = 0;  // rounds whose kill left a temporary file: it hit a write
  // Kill at different moments after the first save: mostly in the middle of a later write.
  // Rounds until two kills have landed inside a write (whose window is short now that the file
  // is built in memory first), at most 24.
  int rounds = 0;
  for (int round = 0; round < 24 && killed_mid_write < 2; ++round, ++rounds) {
    fs::remove(path + ".started");
    pid_t pid = start_child(path);
    ASSERT_GT(pid, 0);
    for (int i = 0; i < 600 && !fs::exists(path + ".started"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(fs::exists(path + ".started")) << "the child never saved";
    std::this_thread::sleep_for(std::chrono::milliseconds(37 + 61 * (round % 4)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;

    // The target loads and is one complete version: every weight equal to the same k.
    fill(*model, -1.0f);
    ASSERT_NO_THROW(saving::load_weights(*model, path));
    std::vector<float> first = model->weights()[0].value().to_vector<float>();
    const float k = first[0];
    EXPECT_GE(k, 1.0f);
    for (const auto& w : model->weights())
      for (float v : w.value().to_vector<float>()) ASSERT_EQ(v, k) << "a mixed file";
    seen_versions.insert(k);

    // Stray temporaries of the killed save are hidden files that no loader takes for the
    // target; they never match "*.weights.h5".
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      std::string name = entry.path().filename().string();
      if (name == "model.weights.h5" || name == "model.weights.h5.started") continue;
      ++killed_mid_write;
      EXPECT_EQ(name.rfind(".model.weights.h5.tmp", 0), 0u) << name;
      EXPECT_FALSE(name.size() >= 11 && name.substr(name.size() - 11) == ".weights.h5") << name;
      fs::remove(entry.path());  // so the next round counts its own
    }
  }
  EXPECT_FALSE(seen_versions.empty());
  // Saving is most of the child's loop, so nearly every kill lands inside a write.
  EXPECT_GE(killed_mid_write, 1) << "no kill landed inside a write";
  std::printf("[kill test] %d of %d kills landed inside a write; versions seen: %zu\n",
              killed_mid_write, rounds, seen_versions.size());
}

}  // namespace
}  // namespace keras
