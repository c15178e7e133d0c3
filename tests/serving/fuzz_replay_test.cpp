// Replays the request-handler fuzzer's committed corpus (fuzz/serve_corpus) through the fuzz
// target's body, built with g++: every request gets a reply that keeps the rules (a known
// status, a JSON body, an "error" message on failures), never a 500 or an exception.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "serve_request_entry.h"

namespace keras {
namespace {

TEST(ServeFuzzCorpus, EveryRequestGetsAWellFormedReply) {
  const std::filesystem::path folder = std::string(KERAS_FUZZ_DIR) + "/serve_corpus";
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    SCOPED_TRACE(entry.path().string());
    std::ifstream in(entry.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NO_THROW(fuzz::serve_request_one_input(
        reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ++n;
  }
  EXPECT_GE(n, 20u);
}

}  // namespace
}  // namespace keras
