// Saving under faults: a full disk (a lowered RLIMIT_FSIZE: writes past it fail with EFBIG), a
// read-only folder and a folder that is missing or vanishes mid-save. Every writer of files
// (save_model, save_weights plain and sharded, ModelCheckpoint, CSVLogger, save_npy/npz) must
// throw an IOError naming the path and the system's reason, leave the previous file
// byte-identical, leave no temporary file in the folder and keep no file open there.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>

#include "fault_util.h"
#include "keras/keras.h"
#include "keras/saving/atomic_file.h"
#include "keras/saving/save_weights.h"
#include "keras/saving/sharded_weights.h"
#include "keras/saving/weights.h"
#include "keras/utils/npy.h"
#include "safety_util.h"

namespace keras {
namespace {

namespace fs = std::filesystem;
using test::FileSizeLimit;
using test::SafetyTempDir;

// 64 -> `units`: 64 * units * 4 bytes of kernel.
ModelPtr<SequentialModel> model_of(int64_t units) {
  backend::clear_session();
  auto model = Sequential({Input({64}), layers::Dense(units)});
  model->compile({.optimizer = "sgd", .loss = "mse"});
  return model;
}

struct Outcome {
  bool io_error = false;
  std::string message;  // the IOError's, or a description of anything else
};

Outcome attempt(const std::function<void()>& save) {
  Outcome out;
  try {
    save();
    out.message = "no error";
  } catch (const IOError& e) {
    out.io_error = true;
    out.message = e.what();
  } catch (const std::exception& e) {
    out.message = std::string("not an IOError: ") + e.what();
  }
  return out;
}

// `save` run with the file-size limit `limit` in place (nothing else runs under it: gtest's own
// output may be a file).
Outcome attempt_with_limit(rlim_t limit, const std::function<void()>& save) {
  FileSizeLimit guard(limit);
  if (!guard.ok()) return {false, "could not lower RLIMIT_FSIZE"};
  return attempt(save);
}

// The failure is an IOError naming `path` and `cause`; the folder of `path` holds exactly what
// it held before, byte for byte, and no file there is still open.
void expect_clean_failure(const Outcome& out, const std::string& path, int cause,
                          const std::map<std::string, std::string>& before) {
  EXPECT_TRUE(out.io_error) << out.message;
  EXPECT_NE(out.message.find(path), std::string::npos) << "names no path: " << out.message;
  EXPECT_NE(out.message.find(std::strerror(cause)), std::string::npos)
      << "no \"" << std::strerror(cause) << "\": " << out.message;
  const fs::path dir = fs::path(path).parent_path();
  std::map<std::string, std::string> after;
  for (const std::string& name : test::names_in(dir))
    after[name] = test::file_bytes((dir / name).string());
  EXPECT_EQ(after.size(), before.size());
  for (const auto& [name, bytes] : before) {
    auto it = after.find(name);
    ASSERT_NE(it, after.end()) << name << " is gone";
    EXPECT_TRUE(it->second == bytes) << name << " changed";
  }
  for (const auto& [name, bytes] : after)
    EXPECT_TRUE(before.count(name)) << "left behind: " << name;
  EXPECT_EQ(test::open_files_under(dir), 0) << "a file in " << dir << " is still open";
}

std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const std::string& name : test::names_in(dir))
    out[name] = test::file_bytes((dir / name).string());
  return out;
}

// ---- a full disk ---------------------------------------------------------------------------

TEST(DiskFull, SaveModelKeepsThePreviousFile) {
  SafetyTempDir dir("full");
  const std::string path = dir.file("m.keras");
  model_of(2)->save(path);
  auto before = snapshot(dir.path());
  auto big = model_of(256);  // a 64 KiB kernel
  expect_clean_failure(attempt_with_limit(16 << 10, [&] { big->save(path); }), path, EFBIG, before);
  // With room again the same save goes through and loads back.
  big->save(path);
  auto loaded = saving::load_model(path);
  EXPECT_EQ(loaded->count_params(), big->count_params());
}

TEST(DiskFull, SaveWeightsKeepsThePreviousFile) {
  SafetyTempDir dir("full");
  const std::string path = dir.file("m.weights.h5");
  auto big = model_of(256);
  saving::save_weights(*model_of(256), path);
  auto before = snapshot(dir.path());
  // Under the limit HDF5 may fail in a write, the flush or the close: each must say why.
  for (rlim_t limit : {rlim_t{1} << 10, rlim_t{16} << 10, rlim_t{60} << 10}) {
    SCOPED_TRACE(limit);
    expect_clean_failure(attempt_with_limit(limit, [&] { big->save_weights(path); }), path, EFBIG,
                         before);
  }
}

TEST(DiskFull, ShardedWeightsKeepThePreviousIndex) {
  SafetyTempDir dir("full");
  const std::string path = dir.file("m.weights.json");
  auto big = model_of(256);
  saving::save_weights(*big, path, {.max_shard_size = 1.0});
  auto before = snapshot(dir.path());
  Outcome out = attempt_with_limit(
      16 << 10, [&] { saving::save_weights(*big, path, {.max_shard_size = 1.0}); });
  // The shard's own name is in the message; the folder is what it was.
  expect_clean_failure(out, dir.file("m_00000.weights.h5"), EFBIG, before);
}

TEST(DiskFull, ModelCheckpointKeepsThePreviousCheckpoint) {
  SafetyTempDir dir("full");
  const std::string path = dir.file("ckpt.keras");
  auto model = model_of(256);
  Tensor x = ops::ones({8, 64}), y = ops::zeros({8, 256});
  auto ckpt = std::make_shared<callbacks::ModelCheckpoint>(path);
  model->fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0, .callbacks = {ckpt}});
  auto before = snapshot(dir.path());
  expect_clean_failure(
      attempt_with_limit(
          16 << 10,
          [&] {
            model->fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0, .callbacks = {ckpt}});
          }),
      path, EFBIG, before);
}

TEST(DiskFull, CsvLoggerKeepsThePreviousLog) {
  SafetyTempDir dir("full");
  const std::string path = dir.file("log.csv");
  auto model = model_of(4);
  Tensor x = ops::ones({8, 64}), y = ops::zeros({8, 4});
  auto log = std::make_shared<callbacks::CSVLogger>(path, ",", /*append=*/true);
  model->fit(x, y, {.batch_size = 4, .epochs = 3, .verbose = 0, .callbacks = {log}});
  auto before = snapshot(dir.path());
  const rlim_t half = static_cast<rlim_t>(before.at("log.csv").size() / 2);
  expect_clean_failure(
      attempt_with_limit(
          half,
          [&] {
            model->fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0, .callbacks = {log}});
          }),
      path, EFBIG, before);
}

TEST(DiskFull, NpyAndNpzKeepThePreviousFiles) {
  SafetyTempDir dir("full");
  const std::string npy = dir.file("a.npy"), npz = dir.file("a.npz");
  utils::save_npy(npy, ops::ones({4}));
  utils::save_npz(npz, {{"a", ops::ones({4})}}, false);
  auto before = snapshot(dir.path());
  Tensor big = ops::ones({64, 256});
  expect_clean_failure(attempt_with_limit(16 << 10, [&] { utils::save_npy(npy, big); }), npy, EFBIG,
                       before);
  expect_clean_failure(attempt_with_limit(16 << 10,
                                          [&] {
                                            utils::save_npz(npz, {{"a", big}}, false);
                                          }),
                       npz, EFBIG, before);
}

// ---- a read-only folder --------------------------------------------------------------------

TEST(ReadOnlyFolder, EveryWriterRefusesAndKeepsThePreviousFiles) {
  SafetyTempDir dir("readonly");
  const std::string keras_path = dir.file("m.keras"), weights = dir.file("m.weights.h5");
  const std::string npy = dir.file("a.npy");
  auto model = model_of(8);
  model->save(keras_path);
  model->save_weights(weights);
  utils::save_npy(npy, ops::ones({4}));
  auto before = snapshot(dir.path());
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec |
                                  fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  std::vector<std::pair<std::string, Outcome>> outcomes;
  bool enforced = test::run_with_permissions_enforced([&] {
    outcomes.emplace_back(keras_path, attempt([&] { model->save(keras_path); }));
    outcomes.emplace_back(weights, attempt([&] { model->save_weights(weights); }));
    outcomes.emplace_back(npy, attempt([&] { utils::save_npy(npy, ops::zeros({4})); }));
  });
  fs::permissions(dir.path(), fs::perms::owner_all);
  if (!enforced) GTEST_SKIP() << "running as root without the right to drop CAP_DAC_OVERRIDE";
  for (const auto& [path, outcome] : outcomes) {
    SCOPED_TRACE(path);
    expect_clean_failure(outcome, path, EACCES, before);
  }
}

// ---- a missing or vanishing folder ---------------------------------------------------------

TEST(MissingFolder, SavesNameThePathAndTheCause) {
  SafetyTempDir dir("missing");
  auto model = model_of(8);
  for (const std::string& path : {dir.file("gone/m.keras"), dir.file("gone/m.weights.h5")}) {
    Outcome out = attempt([&] {
      if (path.ends_with(".keras"))
        model->save(path);
      else
        model->save_weights(path);
    });
    EXPECT_TRUE(out.io_error) << out.message;
    EXPECT_NE(out.message.find(path), std::string::npos) << out.message;
    EXPECT_NE(out.message.find(std::strerror(ENOENT)), std::string::npos) << out.message;
  }
  EXPECT_TRUE(test::names_in(dir.path()).empty());
}

TEST(MissingFolder, AFolderThatVanishesMidWriteIsAnIOError) {
  SafetyTempDir dir("vanish");
  const fs::path sub = dir.path() / "run";
  fs::create_directories(sub);
  const std::string path = (sub / "m.keras").string();
  Outcome out = attempt([&] {
    saving::write_atomically(path, [&](const std::string& tmp) {
      std::ofstream(tmp) << "half a fi";
      fs::remove_all(sub);  // as another process cleaning up the run folder would
    });
  });
  EXPECT_TRUE(out.io_error) << out.message;
  EXPECT_NE(out.message.find(path), std::string::npos) << out.message;
  EXPECT_NE(out.message.find(std::strerror(ENOENT)), std::string::npos) << out.message;
  EXPECT_TRUE(test::names_in(dir.path()).empty());
  EXPECT_EQ(test::open_files_under(dir.path()), 0);
}

}  // namespace
}  // namespace keras
