#include "bench_common.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <random>
#include <stdexcept>

#include <keras/keras.h>

namespace bench {

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--threads" && i + 1 < argc) {
      a.threads = std::atoi(argv[++i]);
    } else if (arg == "--backend" && i + 1 < argc) {
      a.backend = argv[++i];
    } else if (arg == "--jit" && i + 1 < argc) {
      a.jit = argv[++i];
    } else if (arg == "--device" && i + 1 < argc) {
      a.device = argv[++i];
    } else if (arg == "--batch" && i + 1 < argc) {
      a.batch = std::atoll(argv[++i]);
    } else if (arg == "--quick") {
      a.quick = true;
    } else if (a.workload.empty()) {
      a.workload = arg;
    } else {
      throw std::invalid_argument("unexpected argument: " + arg);
    }
  }
  if (a.workload.empty()) throw std::invalid_argument("usage: <workload> [--threads N]");
  return a;
}

namespace {

// Uniform pixels in [0, 1) and labels in [0, 10) from a fixed seed (peers.py draws the same
// distribution, not the same values: the figures only need the shapes).
ImageData synthetic_images(int64_t n) {
  ImageData d;
  d.n = n;
  std::mt19937 gen(4321);
  std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
  d.x.resize(static_cast<size_t>(n) * 784);
  for (float& v : d.x) v = pixel(gen);
  d.y.resize(static_cast<size_t>(n));
  for (int64_t& v : d.y) v = static_cast<int64_t>(gen() % 10);
  return d;
}

}  // namespace

ImageData fashion_mnist(bool train, int64_t n) {
  if (const char* synthetic = std::getenv("KERAS_BENCH_SYNTHETIC_IMAGES");
      synthetic && std::string(synthetic) == "1")
    return synthetic_images(std::min<int64_t>(n, train ? 60000 : 10000));
  const char* env = std::getenv("KERAS_DATASETS_DIR");
  std::string dir = env && *env ? std::string(env) + "/fashion-mnist"
                                : std::string("/usr/share/datasets/fashion-mnist");
  std::string prefix = dir + (train ? "/train" : "/t10k");
  // load_idx reads plain or gzipped files; Debian ships them gzipped.
  auto images = keras::datasets::load_idx(prefix + "-images-idx3-ubyte.gz").to_vector<uint8_t>();
  auto labels = keras::datasets::load_idx(prefix + "-labels-idx1-ubyte.gz").to_vector<uint8_t>();
  int64_t available = static_cast<int64_t>(labels.size());
  if (n > available) n = available;
  ImageData d;
  d.n = n;
  d.x.resize(static_cast<size_t>(n) * 784);
  for (size_t i = 0; i < d.x.size(); ++i) d.x[i] = static_cast<float>(images[i]) / 255.0f;
  d.y.assign(labels.begin(), labels.begin() + n);
  return d;
}

SequenceData synthetic_sequences(int64_t n, int64_t steps, int64_t features, int classes) {
  SequenceData d{n, steps, features, {}, {}};
  std::mt19937 gen(1234);  // fixed: both programs train on the same sequences
  std::normal_distribution<float> normal(0.0f, 1.0f);
  d.x.resize(static_cast<size_t>(n * steps * features));
  for (float& v : d.x) v = normal(gen);
  d.y.resize(static_cast<size_t>(n));
  for (int64_t& v : d.y) v = static_cast<int64_t>(gen() % static_cast<unsigned>(classes));
  return d;
}

void report(const std::string& key, double value) {
  std::printf("%s: %.6g\n", key.c_str(), value);
  std::fflush(stdout);
}

// Sizes chosen so that a full bench.sh stays under ~12 minutes on a 2-core machine (see
// bench/README.md); --quick runs a handful of steps to check that everything works.
int64_t mlp_steps(const Args& a) { return a.quick ? 3 : 200; }
int64_t cnn_steps(const Args& a) { return a.quick ? 2 : 60; }
int64_t latency_iters(const Args& a) { return a.quick ? 5 : 200; }
int64_t lstm_steps(const Args& a) { return a.quick ? 2 : 20; }
int64_t overhead_iters(const Args& a) { return a.quick ? 1000 : 200000; }
int64_t autograd_iters(const Args& a) { return a.quick ? 100 : 20000; }
int64_t dense_step_iters(const Args& a) { return a.quick ? 50 : 5000; }
int64_t transformer_steps(const Args& a) { return a.quick ? 2 : 30; }
// About 20 ms of work per figure at batch 1 and at least 8 calls at the largest batches.
int64_t serve_iters(const Args& a, int64_t batch) {
  return a.quick ? 3 : std::max<int64_t>(20, 400 / batch);
}
int64_t sweep_iters(const Args& a, int64_t batch) {
  return a.quick ? 2 : std::max<int64_t>(8, 2048 / batch);
}

std::vector<std::string> shared_model_files() {
  std::vector<std::string> files;
  const char* dir = std::getenv("KERAS_BENCH_MODELS");
  std::error_code ec;
  if (!dir || !std::filesystem::is_directory(dir, ec)) return files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".keras" || ext == ".h5") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string model_stem(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

}  // namespace bench
