// Replays the fuzzer's committed seed corpus (fuzz/corpus) and the reproducers of fixed
// crashes (fuzz/crashes) through the fuzz target's body, built with the normal compiler: each
// must be accepted or refused with a keras::Error, never crash or throw anything else.

#include <gtest/gtest.h>

#include <filesystem>

#include "keras/saving/archive.h"
#include "load_model_entry.h"

namespace keras {
namespace {

namespace fs = std::filesystem;

size_t replay(const std::string& folder) {
  size_t n = 0;
  if (!fs::exists(folder)) return 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
    SCOPED_TRACE(entry.path().string());
    auto bytes = saving::read_file_bytes(entry.path().string());
    EXPECT_NO_THROW(fuzz::load_model_one_input(bytes.data(), bytes.size()));
    ++n;
  }
  return n;
}

TEST(FuzzCorpus, SeedCorpusReplays) {
  EXPECT_GE(replay(std::string(KERAS_FUZZ_DIR) + "/corpus"), 5u);
}

TEST(FuzzCorpus, CrashReproducersReplay) { replay(std::string(KERAS_FUZZ_DIR) + "/crashes"); }

TEST(FuzzCorpus, RealKerasFilesReplay) {
  // Not committed (their license is unknown); used when the shared folder is here.
  size_t n = replay(std::string(KERAS_SHARED_DIR) + "/models");
  if (n == 0) GTEST_SKIP() << "no shared model files here";
}

TEST(FuzzCorpus, EdgeInputs) {
  const uint8_t pk[] = {'P', 'K', 3, 4};
  const uint8_t hdf[] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  EXPECT_NO_THROW(fuzz::load_model_one_input(nullptr, 0));
  EXPECT_NO_THROW(fuzz::load_model_one_input(pk, sizeof pk));
  EXPECT_NO_THROW(fuzz::load_model_one_input(hdf, sizeof hdf));
}

}  // namespace
}  // namespace keras
