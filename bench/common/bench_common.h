#pragma once
// What the keras-cpp and LibTorch benchmark programs share: the command line, the data (the same
// bytes in both processes), a clock and the `key: value` lines the runner reads back.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

/// The arguments every child program takes: `<workload> [--threads N] [--backend NAME]
/// [--jit auto|true|false] [--device cpu|cuda] [--batch N] [--quick]`.
struct Args {
  std::string workload;
  int threads = 0;        // 0: all cores
  std::string backend;    // keras child only: "cpu", "torch", "cuda", "torch:cuda", ...
  std::string jit = "auto";  // keras child only: compile()'s jit_compile ("false": eager)
  std::string device = "cpu";  // LibTorch child only: where its tensors live
  int64_t batch = 0;           // the training workloads' batch size (0: the workload's own, below)
  bool quick = false;     // fewer steps, for a smoke test of the suite itself
};
Args parse_args(int argc, char** argv);

/// The batch of a training workload: --batch when given, else `workload_default`.
inline int64_t train_batch(const Args& a, int64_t workload_default) {
  return a.batch > 0 ? a.batch : workload_default;
}

/// Images as float32 in [0, 1] (n, 28, 28) row-major, and int64 labels.
struct ImageData {
  int64_t n = 0;
  std::vector<float> x;
  std::vector<int64_t> y;
};
/// The first `n` images of Fashion-MNIST's train (or test) split, read with
/// keras::datasets::load_idx from Debian's dataset-fashion-mnist in both programs. With
/// KERAS_BENCH_SYNTHETIC_IMAGES=1, fixed pseudo-random images and labels of the same shapes
/// instead: for the GPU machine, which lacks the dataset (its 30 MB would not fit the carry
/// limit) and whose figures do not depend on pixel values.
ImageData fashion_mnist(bool train, int64_t n);

/// A fixed synthetic sequence set: x (n, steps, features) standard normal, y in [0, classes).
struct SequenceData {
  int64_t n = 0, steps = 0, features = 0;
  std::vector<float> x;
  std::vector<int64_t> y;
};
SequenceData synthetic_sequences(int64_t n, int64_t steps, int64_t features, int classes);

/// Seconds on a monotonic clock.
inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Writes `key: value` on stdout (the runner parses these lines).
void report(const std::string& key, double value);

// Workload sizes, shared so both programs do exactly the same work.
inline constexpr int64_t kTrainBatch = 128;
inline constexpr int64_t kWarmupSteps = 5;
int64_t mlp_steps(const Args& a);   // timed batches after the warm-up
int64_t cnn_steps(const Args& a);
inline constexpr int64_t kInferBatch = 1024;
inline constexpr int64_t kInferImages = 10000;
int64_t latency_iters(const Args& a);
inline constexpr int64_t kLstmBatch = 64, kLstmSteps = 64, kLstmFeatures = 32, kLstmUnits = 128;
int64_t lstm_steps(const Args& a);
int64_t overhead_iters(const Args& a);
int64_t autograd_iters(const Args& a);
inline constexpr int64_t kAutogradSize = 8;
int64_t dense_step_iters(const Args& a);
// The Transformer encoder block: MultiHeadAttention (4 heads) over (64, 128), feed-forward 512,
// LayerNormalization, Dropout 0.1, global average pooling, Dense(10); synthetic sequences.
inline constexpr int64_t kTfBatch = 32, kTfSeq = 64, kTfWidth = 128, kTfHeads = 4, kTfFF = 512;
int64_t transformer_steps(const Args& a);
// The models saved by Python Keras in ../shared/models (KERAS_BENCH_MODELS names the folder):
// batch-1 latency and batch-128 throughput, as a service calls predict.
inline constexpr int64_t kServeBatch = 128;
int64_t serve_iters(const Args& a, int64_t batch);
/// The .keras and .h5 files of KERAS_BENCH_MODELS, sorted; empty when it is unset or missing.
std::vector<std::string> shared_model_files();
/// A file's name without folder and extension: the prefix of its figures.
std::string model_stem(const std::string& path);
// The CNN's inference cost per sample over batch sizes 1 to 1024.
inline constexpr int64_t kSweepBatches[] = {1, 4, 16, 64, 256, 1024};
int64_t sweep_iters(const Args& a, int64_t batch);

}  // namespace bench
