#pragma once
// The paths a long-running keras-cpp program takes, each as a workload the soak runs many
// times while its memory is sampled: training (compiled and eager train_on_batch, fit on a
// Dataset pipeline with checkpoints saved and reloaded), inference (compiled predict_on_batch,
// eager model(x), predict's loop, the model server's request handler) and save/load.
// The model is the MLP 784-128-10 on synthetic, learnable data.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "keras/keras.h"
#include "memory_recorder.h"

namespace keras::soak {

struct SoakSettings {
  /// Steps of each training workload.
  int64_t train_steps = 20000;
  /// Calls of each inference workload.
  int64_t predict_calls = 200000;
  /// Save + load + predict rounds of the save_load workload.
  int64_t save_loads = 1000;
  /// fit_dataset saves (and reloads) a checkpoint every this many steps.
  int64_t checkpoint_every = 250;
  /// Samples per workload (memory is sampled every calls / samples calls).
  int64_t samples = 200;
  int64_t batch_size = 32;
  /// Where checkpoints and saved models go.
  std::string work_dir;
  /// Keeps every prediction alive (a deliberate leak, to show that the soak catches one).
  bool retain_predictions = false;
};

/// The synthetic data and the trained model the workloads share.
struct SoakData {
  std::vector<Tensor> x_batches, y_batches;
  Tensor x, y;  // all samples
  /// Trained by train_compiled; the inference workloads use it.
  ModelPtr<Model> trained;
};

/// 6400 samples of 784 normal features, labelled by the argmax of a fixed random projection
/// (a rule the MLP can learn), cut into batches.
SoakData make_soak_data(int64_t batch_size);

/// An MLP 784-128-10 (relu, softmax) compiled with Adam, sparse categorical crossentropy and
/// accuracy; `run_eagerly` turns compiled steps off.
ModelPtr<Model> make_mlp(bool run_eagerly);

struct WorkloadResult {
  std::string name;
  int64_t calls = 0;
  double seconds = 0;
  std::vector<MemorySample> samples;
  /// What the workload checked or learned (loss before and after, checkpoints reloaded, ...).
  std::string note;
};

struct Workload {
  std::string name;
  /// Runs the workload, ticking `recorder` once per call; returns its note.
  std::function<std::string(const SoakSettings&, SoakData&, MemoryRecorder&)> run;
  /// Its number of calls under the settings.
  std::function<int64_t(const SoakSettings&)> calls;
};

/// Every workload, in the order they run (train_compiled first: the others use its model).
const std::vector<Workload>& workloads();

// The workloads themselves (training_workloads.cpp, inference_workloads.cpp).
std::string train_on_batch_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r,
                                bool run_eagerly);
/// fit_dataset's epochs (whole passes over the data: at least train_steps steps) and steps.
int fit_epochs(const SoakSettings& s);
int64_t fit_steps(const SoakSettings& s);
std::string fit_dataset_with_checkpoints(const SoakSettings& s, SoakData& d, MemoryRecorder& r);
std::string save_load_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r);
std::string predict_on_batch_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r);
std::string eager_call_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r);
std::string predict_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r);
std::string serve_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r);

}  // namespace keras::soak
