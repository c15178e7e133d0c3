// Replays the data-reader fuzz targets' committed corpora (fuzz/npy_corpus, csv_corpus,
// idx_corpus, json_config_corpus: seeds and the reproducers of fixed findings) through the
// targets' bodies, built with the normal compiler: each input must be accepted or refused with
// a keras::Error, never crash or throw anything else.

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <span>

#include "keras/datasets/datasets.h"
#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/serialization.h"
#include "keras/utils/csv.h"
#include "keras/utils/npy.h"
#include "reader_entries.h"

namespace keras {
namespace {

namespace fs = std::filesystem;

using Entry = void (*)(const uint8_t*, size_t);

std::string corpus_file(const std::string& corpus, const std::string& name) {
  return (fs::path(KERAS_FUZZ_DIR) / corpus / name).string();
}

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

TEST(FuzzReaders, NpyCorpusReplays) {
  EXPECT_GE(replay("npy_corpus", fuzz::npy_one_input), 10u);
}

TEST(FuzzReaders, CsvCorpusReplays) {
  EXPECT_GE(replay("csv_corpus", fuzz::csv_one_input), 10u);
}

TEST(FuzzReaders, IdxCorpusReplays) {
  EXPECT_GE(replay("idx_corpus", fuzz::idx_one_input), 6u);
}

TEST(FuzzReaders, JsonConfigCorpusReplays) {
  EXPECT_GE(replay("json_config_corpus", fuzz::json_config_one_input), 50u);
}

// The seeds are worth fuzzing from only if the readers accept them: every seed written by
// fuzz_reader_seeds loads (the hand-made invalid ones and the regression inputs are refused).
TEST(FuzzReaders, JsonConfigSeedsLoad) {
  size_t layers = 0, models = 0;
  for (const auto& file : fs::directory_iterator(fs::path(KERAS_FUZZ_DIR) / "json_config_corpus")) {
    const std::string name = file.path().filename().string();
    SCOPED_TRACE(name);
    auto bytes = saving::read_file_bytes(file.path().string());
    const std::string text(bytes.begin(), bytes.end());
    if (name.rfind("layer_", 0) == 0) {
      EXPECT_NO_THROW(saving::deserialize_keras_object(Config::parse(text)));
      ++layers;
    } else if (name.rfind("model_", 0) == 0) {
      EXPECT_GT(models::model_from_json(text)->count_params(), 0);
      ++models;
    }
  }
  EXPECT_GE(layers, 90u);
  EXPECT_GE(models, 2u);
}

TEST(FuzzReaders, NpyAndIdxSeedsLoad) {
  for (const char* name : {"float32_2x3.npy", "float32_v2.npy", "float64_fortran.npy",
                           "int32_bigendian.npy", "bfloat16_2.npy"}) {
    auto bytes = saving::read_file_bytes(corpus_file("npy_corpus", name));
    EXPECT_NO_THROW(utils::parse_npy(bytes, name)) << name;
  }
  EXPECT_EQ(utils::load_npz(corpus_file("npy_corpus", "deflated.npz")).size(), 2u);
  EXPECT_EQ(datasets::load_idx(corpus_file("idx_corpus", "images-idx3-ubyte.gz")).shape(),
            Shape({2, 3, 3}));
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

// The findings, each with the error a user now gets (the inputs are also in the corpora).

std::string message_of(const std::function<void()>& load) {
  try {
    load();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(FuzzFindings, NpyHeaderKeyWithoutValue) {
  // The header ends in "{'descr':": the value was looked up at std::string::npos.
  auto bytes =
      saving::read_file_bytes(corpus_file("npy_corpus", "regression-key-without-value.npy"));
  std::string m = message_of([&] { utils::parse_npy(bytes, "f.npy"); });
  EXPECT_NE(m.find("f.npy"), std::string::npos) << m;
  EXPECT_NE(m.find("'descr' has no value"), std::string::npos) << m;
}

TEST(FuzzFindings, NpyShapeWhoseByteCountWraps) {
  std::string header =
      "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }";
  std::string file =
      std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
  std::vector<uint8_t> bytes(file.begin(), file.end());
  std::string m = message_of([&] { utils::parse_npy(bytes, "f.npy"); });
  EXPECT_NE(m.find("more bytes than a 64-bit size"), std::string::npos) << m;
  // A zero dimension after ones whose product overflows int64: Shape::numel overflowed (UBSan)
  // on the way to 0; NumPy refuses such shapes too ("array is too big").
  auto zero_dim =
      saving::read_file_bytes(corpus_file("npy_corpus", "regression-zero-dim-numel-overflow.npy"));
  m = message_of([&] { utils::parse_npy(zero_dim, "f.npy"); });
  EXPECT_NE(m.find("more bytes than a 64-bit size"), std::string::npos) << m;
  header.replace(header.find("(4611686018427387904, 4)"), 24, "7                       ");
  file = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
  bytes.assign(file.begin(), file.end());
  m = message_of([&] { utils::parse_npy(bytes, "f.npy"); });
  EXPECT_NE(m.find("is not a tuple"), std::string::npos) << m;
}

std::vector<uint8_t> npy_with_header(const std::string& header) {
  std::string file =
      std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
  return {file.begin(), file.end()};
}

TEST(FuzzFindings, NpyRankOver16AndShapeItemsWithoutDigits) {
  // Shape items of NUL bytes parsed as 0, so the fuzzer built arrays of 20 and more zero-size
  // dimensions; the cpu backend's loops walk at most 16 and crashed (SEGV) on the Fortran
  // transpose.
  auto bytes =
      saving::read_file_bytes(corpus_file("npy_corpus", "regression-rank-over-16-copy-segv.npy"));
  std::string m = message_of([&] { utils::parse_npy(bytes, "f.npy"); });
  EXPECT_NE(m.find("malformed shape"), std::string::npos) << m;
  std::string shape = "(";
  for (int i = 0; i < 17; ++i) shape += "1, ";
  shape += ")";
  m = message_of([&] {
    utils::parse_npy(
        npy_with_header("{'descr': '<f4', 'fortran_order': True, 'shape': " + shape + ", }"),
        "f.npy");
  });
  EXPECT_NE(m.find("more than 16 dimensions"), std::string::npos) << m;
  m = message_of([&] {
    utils::parse_npy(npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }"),
                     "f.npy");
  });
  EXPECT_NE(m.find("malformed shape (2, x)"), std::string::npos) << m;
}

TEST(FuzzFindings, NpzMemberClaimingMoreThanItHolds) {
  // A stored member whose local and central sizes claim 700 MB: an error naming the member,
  // without allocating the claimed size first.
  auto dir = fs::temp_directory_path();
  const std::string path = (dir / "kc_fuzz_claim.npz").string();
  utils::save_npz(path, {{"x", ops::arange(3)}}, false);
  auto bytes = saving::read_file_bytes(path);
  const uint32_t claim = 700u << 20;
  // The uncompressed-size fields: offset 22 of the local header, 24 of the central one.
  for (size_t i = 0; i + 4 <= bytes.size(); ++i) {
    if (std::memcmp(&bytes[i], "PK\x01\x02", 4) == 0) std::memcpy(&bytes[i + 24], &claim, 4);
  }
  std::memcpy(&bytes[22], &claim, 4);
  {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  std::string m = message_of([&] { utils::load_npz(path); });
  EXPECT_NE(m.find("x.npy"), std::string::npos) << m;
  fs::remove(path);
}

TEST(FuzzFindings, IdxClaimingBillionsOfElements) {
  std::string m = message_of(
      [] { datasets::load_idx(corpus_file("idx_corpus", "regression-4gib-claim-idx4-ubyte")); });
  EXPECT_NE(m.find("truncated or corrupt"), std::string::npos) << m;
  EXPECT_NE(m.find("it holds 4 bytes"), std::string::npos) << m;  // "abcd"
  m = message_of(
      [] { datasets::load_idx(corpus_file("idx_corpus", "regression-wrapping-dims-idx4-ubyte")); });
  EXPECT_NE(m.find("more than 2^34 elements"), std::string::npos) << m;
}

TEST(FuzzFindings, CsvColumnIndexPastTheHeader) {
  const std::string path = (fs::temp_directory_path() / "kc_fuzz_header.csv").string();
  std::ofstream(path) << "a,b,c\n";
  std::string m = message_of([&] { utils::load_csv(path, {.column_indices = {7}}); });
  EXPECT_NE(m.find("column index 7 is out of range"), std::string::npos) << m;
  EXPECT_NE(m.find("in its header line"), std::string::npos) << m;
  std::ofstream(path) << "a\n1,2\n";
  m = message_of([&] { utils::load_csv(path); });
  EXPECT_NE(m.find("line 2"), std::string::npos) << m;
  EXPECT_NE(m.find("as its header line names"), std::string::npos) << m;
  fs::remove(path);
}

TEST(FuzzFindings, JsonConfigMissingKeyOrWrongType) {
  // nlohmann::json's out_of_range / type_error escaped deserialize_keras_object (std::terminate
  // in the fuzzer); now a ValueError naming the layer class and the key.
  auto text = saving::read_file_bytes(
      corpus_file("json_config_corpus", "regression-simplernn-without-units.json"));
  Config record = Config::parse(text.begin(), text.end());
  std::string m = message_of([&] { saving::deserialize_keras_object(record); });
  EXPECT_NE(m.find("'SimpleRNN'"), std::string::npos) << m;
  EXPECT_NE(m.find("'units'"), std::string::npos) << m;
  m = message_of([] { layers::from_config("Dense", {{"units", "three"}}); });
  EXPECT_NE(m.find("'Dense'"), std::string::npos) << m;
  EXPECT_NE(m.find("type must be number"), std::string::npos) << m;
  text = saving::read_file_bytes(
      corpus_file("json_config_corpus", "regression-initializer-class-null.json"));
  record = Config::parse(text.begin(), text.end());
  m = message_of([&] { saving::deserialize_keras_object(record); });
  EXPECT_NE(m.find("'GroupNormalization'"), std::string::npos) << m;
}

}  // namespace
}  // namespace keras
