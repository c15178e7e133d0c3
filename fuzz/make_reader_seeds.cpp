// Writes the committed seed corpora of the data-reader fuzz targets (see README.md):
//   npy_corpus/          arrays keras-cpp's save_npy/save_npz write, and hand-edited headers
//                        (Fortran order, big-endian, format version 2.0)
//   csv_corpus/          hand-written CSV files behind csv_fuzzer's option byte
//   idx_corpus/          hand-written IDX files, plain and gzipped
//   json_config_corpus/  models' to_json() and, for each layer class of Keras's own records in
//                        tests/oracle/fixtures/configs.json, keras-cpp's serialize_keras_object
//                        of the layer it deserializes from the first record (so every seed is
//                        a file keras-cpp writes itself)
// Usage: fuzz_reader_seeds <fuzz folder> <configs.json>

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/atomic_file.h"
#include "keras/saving/safe_json.h"
#include "keras/saving/serialization.h"
#include "keras/utils/npy.h"

namespace {

namespace fs = std::filesystem;
using namespace keras;

void write(const fs::path& path, const std::string& bytes) {
  saving::write_file_atomically(path.string(), std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

std::string read(const fs::path& path) {
  auto bytes = saving::read_file_bytes(path.string());
  return {bytes.begin(), bytes.end()};
}

void write_gzip(const fs::path& path, const std::string& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  if (!f || gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())) !=
                static_cast<int>(bytes.size()))
    throw IOError("cannot write " + path.string());
  gzclose(f);
}

// The .npy bytes of `x` with `from` in the header replaced by `to` (same length: the header's
// padding keeps the data where it was).
std::string edited_header(const Tensor& x, const std::string& from, const std::string& to) {
  auto bytes = utils::serialize_npy(x);
  std::string s(bytes.begin(), bytes.end());
  size_t at = s.find(from);
  if (at == std::string::npos || from.size() != to.size()) throw ValueError("no '" + from + "'");
  return s.replace(at, from.size(), to);
}

void npy_seeds(const fs::path& dir) {
  fs::create_directories(dir);
  Tensor f32 = ops::reshape(ops::cast(ops::arange(6), DType::Float32), {2, 3});
  utils::save_npy((dir / "float32_2x3.npy").string(), f32);
  utils::save_npy((dir / "int64_5.npy").string(), ops::arange(5));
  utils::save_npy((dir / "bool_scalar.npy").string(), ops::ones({}, DType::Bool));
  utils::save_npy((dir / "uint8_empty.npy").string(), ops::zeros({0, 4}, DType::UInt8));
  utils::save_npy((dir / "float16_3.npy").string(), ops::ones({3}, DType::Float16));
  utils::save_npy((dir / "bfloat16_2.npy").string(), ops::ones({2}, DType::BFloat16));
  Tensor f64 = ops::reshape(ops::cast(ops::arange(6), DType::Float64), {3, 2});
  write(dir / "float64_fortran.npy",
        edited_header(f64, "'fortran_order': False", "'fortran_order': True "));
  write(dir / "int32_bigendian.npy",
        edited_header(ops::cast(ops::arange(4), DType::Int32), "'<i4'", "'>i4'"));
  // Format version 2.0: a four-byte header length.
  auto v1 = utils::serialize_npy(f32);
  std::string v2(v1.begin(), v1.begin() + 6);
  v2 += std::string("\x02\x00", 2);
  v2 += std::string{static_cast<char>(v1[8]), static_cast<char>(v1[9]), '\0', '\0'};
  v2 += std::string(v1.begin() + 10, v1.end());
  write(dir / "float32_v2.npy", v2);
  std::map<std::string, Tensor> arrays = {{"x", f32}, {"y", ops::arange(3)}};
  utils::save_npz((dir / "stored.npz").string(), arrays, false);
  utils::save_npz((dir / "deflated.npz").string(), arrays, true);
}

void csv_seeds(const fs::path& dir) {
  fs::create_directories(dir);
  // The first byte is csv_entry.cpp's option byte: bit 0 header, bits 1-2 delimiter
  // (, ; \t space), bits 3-4 columns (all, names b+a, indices 1+0, index 7), bits 5-6 dtype.
  const std::vector<std::pair<std::string, std::string>> seeds = {
      {"header_all",
       "\x01"
       "a,b,c\n1,2,3\n4.5,-6e2,7\n"},
      {"header_names",
       "\x09"
       "a,b,c\n1,2,3\n\n4,5,6\n"},
      {"no_header_indices",
       "\x10"
       "1,2,3\n4,5,6\n"},
      {"semicolon_quoted",
       "\x03"
       "\"a\";\"b\"\n\"1\";\"2\"\n3;4\n"},
      {"tab_float64",
       "\x25"
       "a\tb\n1\t2\r\n3\t4\r\n"},
      {"space_int32",
       "\x46"
       "7 8 9\n10 11 12\n"},
      {"uint8_names",
       "\x69"
       "b,a\n1,2\n"},
      {"nan_inf",
       "\x01"
       "a,b\nnan,inf\n-inf,1e-3\n"},
      {"index_past_end",
       "\x19"
       "a,b\n1,2\n"},
      {"empty_field",
       "\x01"
       "a,b\n1,\n"},
      {"ragged",
       "\x00"
       "1,2\n3\n"},
      {"header_only",
       "\x11"
       "a,b,c\n"},
  };
  for (const auto& [name, bytes] : seeds) write(dir / (name + ".csv"), bytes);
}

std::string idx_header(uint8_t rank, std::vector<uint32_t> dims) {
  std::string s = {'\0', '\0', '\x08', static_cast<char>(rank)};
  for (uint32_t d : dims)
    for (int shift : {24, 16, 8, 0}) s.push_back(static_cast<char>((d >> shift) & 0xff));
  return s;
}

void idx_seeds(const fs::path& dir) {
  fs::create_directories(dir);
  std::string labels = idx_header(1, {5}) + std::string("\x00\x01\x02\x03\x09", 5);
  std::string images = idx_header(3, {2, 3, 3});
  for (int i = 0; i < 18; ++i) images.push_back(static_cast<char>(i * 14));
  write(dir / "labels-idx1-ubyte", labels);
  write(dir / "images-idx3-ubyte", images);
  write_gzip(dir / "labels-idx1-ubyte.gz", labels);
  write_gzip(dir / "images-idx3-ubyte.gz", images);
  write(dir / "rank4-idx4-ubyte", idx_header(4, {1, 2, 1, 2}) + "abcd");
  write(dir / "empty-idx2-ubyte", idx_header(2, {0, 7}));
}

void json_models(const fs::path& dir) {
  backend::clear_session();
  auto mlp = Sequential({Input({4}), layers::Dense(3, {.activation = "relu"}), layers::Dense(2)});
  write(dir / "model_sequential_mlp.json", mlp->to_json());
  auto image = Input({8, 8, 2}, {.name = "image"});
  auto h = layers::Conv2D(3, 3, {.activation = "relu"})(image);
  h = layers::MaxPooling2D(2)(h);
  h = layers::Flatten()(h);
  auto ids = Input({5}, {.dtype = int32, .name = "ids"});
  auto e = layers::LSTM(4)(layers::Embedding(10, 3)(ids));
  auto joined = layers::concatenate({h, e});
  auto out = layers::Dense(2, {.activation = "softmax", .name = "out"})(joined);
  auto functional = Functional({image, ids}, {out});
  functional->compile({.optimizer = optimizers::Adam(1e-3), .loss = "categorical_crossentropy"});
  write(dir / "model_functional_two_inputs.json", functional->to_json());
}

void json_seeds(const fs::path& dir, const fs::path& configs_json) {
  fs::create_directories(dir);
  json_models(dir);
  Config configs = saving::parse_json(read(configs_json), configs_json.string());
  std::set<std::string> done;
  for (const Config& c : configs.at("layers")) {
    const std::string class_name = c.at("class_name").get<std::string>();
    if (done.count(class_name)) continue;
    try {
      backend::clear_session();
      auto layer = saving::deserialize_keras_object(c.at("record"));
      write(dir / ("layer_" + class_name + ".json"), saving::serialize_keras_object(*layer).dump());
      done.insert(class_name);
    } catch (const Error& e) {
      std::printf("skipped %s: %s\n", class_name.c_str(), e.what());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <fuzz folder> <configs.json>\n", argv[0]);
    return 2;
  }
  const fs::path out(argv[1]);
  npy_seeds(out / "npy_corpus");
  csv_seeds(out / "csv_corpus");
  idx_seeds(out / "idx_corpus");
  json_seeds(out / "json_config_corpus", argv[2]);
  std::printf("wrote the reader seed corpora under %s\n", out.c_str());
  return 0;
}
