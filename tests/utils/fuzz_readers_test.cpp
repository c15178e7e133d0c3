// Replays the data-reader fuzz targets' committed corpora (fuzz/npy_corpus, csv_corpus,
// idx_corpus, json_config_corpus: seeds and the reproducers of fixed findings) through the
// targets' bodies, built with the normal compiler: each input must be accepted or refused with
// a keras::Error, never crash or throw anything else.

#include <gtest/gtest.h>

#include <filesystem>

#include "keras/saving/archive.h"
#include "reader_entries.h"

namespace keras {
namespace {

namespace fs = std::filesystem;

using Entry = void (*)(const uint8_t*, size_t);

size_t replay(const std::string& corpus, Entry entry) {
  const fs::path folder = fs::path(KERAS_FUZZ_DIR) / corpus;
  size_t n = 0;
  for (const auto& file : fs::directory_iterator(folder)) {
    if (!file.is_regular_file()) continue;
    SCOPED_TRACE(file.path().string());
    auto bytes = saving::read_file_bytes(file.path().string());
    EXPECT_NO_THROW(entry(bytes.data(), bytes.size()));
    ++n;
  }
  return n;
}

TEST(FuzzReaders, NpyCorpusReplays) { EXPECT_GE(replay("npy_corpus", fuzz::npy_one_input), 10u); }

TEST(FuzzReaders, CsvCorpusReplays) { EXPECT_GE(replay("csv_corpus", fuzz::csv_one_input), 10u); }

TEST(FuzzReaders, IdxCorpusReplays) { EXPECT_GE(replay("idx_corpus", fuzz::idx_one_input), 6u); }

TEST(FuzzReaders, JsonConfigCorpusReplays) {
  EXPECT_GE(replay("json_config_corpus", fuzz::json_config_one_input), 50u);
}

TEST(FuzzReaders, EdgeInputs) {
  const uint8_t pk[] = {'P', 'K', 3, 4};
  const uint8_t npy[] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  const uint8_t gz[] = {0x1f, 0x8b};
  for (Entry entry : {fuzz::npy_one_input, fuzz::csv_one_input, fuzz::idx_one_input,
                      fuzz::json_config_one_input}) {
    EXPECT_NO_THROW(entry(nullptr, 0));
    EXPECT_NO_THROW(entry(pk, sizeof pk));
    EXPECT_NO_THROW(entry(npy, sizeof npy));
    EXPECT_NO_THROW(entry(gz, sizeof gz));
  }
}

}  // namespace
}  // namespace keras
