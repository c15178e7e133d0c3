// IDX files (LeCun's format, as MNIST and Fashion-MNIST ship): a magic number giving the
// element type and rank, big-endian dimensions, then the data. Gzipped or not (zlib reads
// both).

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "keras/core/errors.h"
#include "keras/datasets/datasets.h"

namespace keras::datasets {
namespace {

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};

void read_exact(gzFile f, void* dst, size_t n, const std::string& path) {
  size_t done = 0;
  while (done < n) {
    int chunk = static_cast<int>(std::min<size_t>(n - done, 1 << 30));
    int got = gzread(f, static_cast<char*>(dst) + done, static_cast<unsigned>(chunk));
    check(got > 0, "IDX file '", path, "' is truncated or corrupt (expected ", n, " bytes, read ",
          done, ").");
    done += static_cast<size_t>(got);
  }
}

// `count` bytes of data, read in doubling steps so that the buffer grows with what the file holds:
// a header claiming billions of elements in a short (or gzipped, size unknown) file costs what the
// file holds, then an error.
std::vector<uint8_t> read_data(gzFile f, size_t count, const std::string& path) {
  constexpr size_t kFirstStep = size_t{1} << 16;
  std::vector<uint8_t> data;
  while (data.size() < count) {
    const size_t before = data.size();
    data.resize(std::min(count, std::max(kFirstStep, 2 * before)));  // at most twice the data
    int got = gzread(f, data.data() + before, static_cast<unsigned>(data.size() - before));
    check(got > 0, "IDX file '", path, "' is truncated or corrupt: its dimensions need ", count,
          " bytes of data, it holds ", before, " bytes.");
    data.resize(before + static_cast<size_t>(got));
  }
  return data;
}

uint32_t big_endian(const unsigned char* b) {
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
}

std::string find_file(const std::string& dir, const std::string& stem) {
  for (const char* suffix : {".gz", ""}) {
    std::string p = dir + "/" + stem + suffix;
    if (std::filesystem::exists(p)) return p;
  }
  return "";
}

TrainTest load_folder(const std::string& dir, const char* dataset, const char* hint) {
  const char* stems[] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                         "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};
  Tensor parts[4];
  for (int i = 0; i < 4; ++i) {
    std::string file = find_file(dir, stems[i]);
    if (file.empty())
      throw ValueError(std::string("The ") + dataset + " files are not in '" + dir +
                       "' (missing " + stems[i] + "[.gz]). " + hint);
    parts[i] = load_idx(file);
  }
  return {{parts[0], parts[1]}, {parts[2], parts[3]}};
}

std::string folder(const std::string& path, const char* name, const char* fallback) {
  if (!path.empty()) return path;
  if (const char* env = std::getenv("KERAS_DATASETS_DIR"); env && *env)
    return std::string(env) + "/" + name;
  return fallback;
}

}  // namespace

Tensor load_idx(const std::string& path) {
  std::unique_ptr<gzFile_s, GzCloser> f(gzopen(path.c_str(), "rb"));
  check(f != nullptr, "Cannot open IDX file '", path, "'.");
  unsigned char magic[4];
  read_exact(f.get(), magic, 4, path);
  check(magic[0] == 0 && magic[1] == 0, "'", path, "' is not an IDX file (bad magic number).");
  check(magic[2] == 0x08, "IDX file '", path, "' holds element type code ",
        int{magic[2]}, "; only unsigned bytes (0x08, as in MNIST) are supported.");
  int rank = magic[3];
  check(rank >= 1 && rank <= 4, "IDX file '", path, "' has rank ", rank, "; expected 1 to 4.");
  std::vector<int64_t> dims;
  uint64_t count = 1;
  for (int i = 0; i < rank; ++i) {
    unsigned char b[4];
    read_exact(f.get(), b, 4, path);
    dims.push_back(big_endian(b));
    // Checked: four 32-bit dimensions can wrap a 64-bit product to a small count.
    check(!__builtin_mul_overflow(count, static_cast<uint64_t>(dims.back()), &count) &&
              count <= (uint64_t{1} << 34),
          "IDX file '", path, "' claims more than 2^34 elements (dimensions ",
          Shape(dims).to_string(), "...).");
  }
  std::vector<uint8_t> data = read_data(f.get(), static_cast<size_t>(count), path);
  return Tensor::from_vector(data, Shape(dims));
}

namespace fashion_mnist {
TrainTest load_data(const std::string& path) {
  return load_folder(folder(path, "fashion-mnist", "/usr/share/datasets/fashion-mnist"),
                     "Fashion-MNIST",
                     "Install them with `apt-get install dataset-fashion-mnist`, or pass the "
                     "folder (or set KERAS_DATASETS_DIR).");
}
}  // namespace fashion_mnist

namespace mnist {
TrainTest load_data(const std::string& path) {
  std::string dir = folder(path, "mnist", "");
  if (dir.empty())
    throw ValueError(
        "MNIST is not packaged for Debian and keras-cpp does not download: put the four IDX "
        "files in a folder and pass it to mnist::load_data, or set KERAS_DATASETS_DIR to a "
        "folder containing mnist/.");
  return load_folder(dir, "MNIST", "Pass the folder holding them.");
}
}  // namespace mnist

}  // namespace keras::datasets
