// String .npy files against files NumPy wrote (tools/golden/npy_strings.py): every layout
// reads to NumPy's values, and keras-cpp writes NumPy's bytes exactly.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "keras/core/errors.h"
#include "keras/saving/archive.h"
#include "keras/utils/npy.h"
#include "keras/utils/npy_strings.h"

namespace keras {
namespace {

std::string dir() { return std::string(KERAS_GOLDEN_DIR) + "/npy_strings/"; }

nlohmann::json reference() {
  std::ifstream in(dir() + "reference.json");
  return nlohmann::json::parse(in);
}

StringTensor expected(const nlohmann::json& entry) {
  return StringTensor(entry["values"].get<std::vector<std::string>>(),
                      Shape(entry["shape"].get<std::vector<int64_t>>()));
}

TEST(NpyStrings, LoadsEveryLayoutNumpyWrites) {
  const auto ref = reference();
  ASSERT_EQ(ref.size(), 7u);
  for (const auto& [name, entry] : ref.items()) {
    StringTensor loaded = utils::load_npy_strings(dir() + name + ".npy");
    EXPECT_EQ(loaded, expected(entry)) << name << ": " << loaded;
  }
}

TEST(NpyStrings, WritesTheBytesNumpyWrites) {
  // NumPy writes C-order little-endian "<U<longest>" arrays; these three are such arrays.
  const auto ref = reference();
  for (const char* name : {"unicode_2x3", "scalar", "only_empty_strings"}) {
    std::vector<uint8_t> ours = utils::serialize_npy(expected(ref[name]));
    std::vector<uint8_t> numpy = saving::read_file_bytes(dir() + name + ".npy");
    EXPECT_EQ(ours, numpy) << name;
  }
}

TEST(NpyStrings, RoundTripsThroughAFile) {
  auto path = (std::filesystem::temp_directory_path() / "kc_strings.npy").string();
  StringTensor words({"α", "", "longest word", "b"}, {2, 2});
  utils::save_npy(path, words);
  EXPECT_EQ(utils::load_npy_strings(path), words);
  std::filesystem::remove(path);
}

TEST(NpyStrings, LoadNpyGivesStringTensors) {
  // load_npy reads NumPy's strings as a string tensor, and save_npy writes NumPy's bytes.
  const auto ref = reference();
  for (const auto& [name, entry] : ref.items()) {
    Tensor loaded = utils::load_npy(dir() + name + ".npy");
    ASSERT_EQ(loaded.dtype(), DType::String) << name;
    EXPECT_EQ(loaded.to_strings(), expected(entry)) << name;
  }
  for (const char* name : {"unicode_2x3", "scalar", "only_empty_strings"})
    EXPECT_EQ(utils::serialize_npy(Tensor(expected(ref[name]))),
              saving::read_file_bytes(dir() + name + ".npy"))
        << name;
}

TEST(NpyStrings, ClearErrorsForTheWrongReader) {
  // A numeric file through the string reader names the numeric reader.
  const std::string numeric = std::string(KERAS_GOLDEN_DIR) + "/npy/uint8.npy";
  try {
    utils::load_npy_strings(numeric);
    FAIL() << "no error";
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find("load_npy"), std::string::npos) << e.what();
  }
  // Truncated data: a clear error, not a read past the end.
  std::vector<uint8_t> bytes = saving::read_file_bytes(dir() + "unicode_2x3.npy");
  bytes.resize(bytes.size() - 5);
  EXPECT_THROW(utils::parse_npy_strings(bytes, "cut"), IOError);
}

TEST(NpyStrings, InvalidUtf8IsRefusedWhenWriting) {
  StringTensor bad(std::vector<std::string>{"ok", std::string("\xff\xfe", 2)});
  EXPECT_THROW(utils::serialize_npy(bad), ValueError);
}

TEST(StringTensor, ShapesIndexesAndPrintsLikeNumpy) {
  const auto ref = reference();
  StringTensor words = expected(ref["unicode_2x3"]);
  EXPECT_EQ(words.shape(), Shape({2, 3}));
  EXPECT_EQ(words.at({0, 1}), "Grüße");
  EXPECT_EQ(words.at({-1, -1}), "tab\there");
  EXPECT_EQ(words[1].values(), (std::vector<std::string>{"", "emoji 🙂", "tab\there"}));
  EXPECT_EQ(words.reshape({3, -1}).shape(), Shape({3, 2}));
  EXPECT_THROW(words.at({2, 0}), IndexError);
  EXPECT_THROW(words.reshape({4, 2}), ValueError);
  EXPECT_THROW(StringTensor({"a", "b", "c"}, {2, 2}), ValueError);
  // numpy's str(np.array([["a", "it's"], ["c", "d"]])) lays rows out the same way.
  StringTensor small({"a", "it's", "c", "d"}, {2, 2});
  EXPECT_EQ(to_string(small),
            "tensor([['a', 'it\\'s'],\n        ['c', 'd']], shape=(2, 2), dtype=string)");
  EXPECT_EQ(to_string(StringTensor::scalar("x")), "tensor('x', shape=(), dtype=string)");
  // More than 1000 strings print summarized, three at each end, as numpy.array2string does.
  std::vector<std::string> many(2000, "w");
  many.front() = "first";
  many.back() = "last";
  EXPECT_EQ(to_string(StringTensor(many)),
            "tensor(['first', 'w', 'w', ..., 'w', 'w', 'last'], shape=(2000,), dtype=string)");
}

}  // namespace
}  // namespace keras
