// The keras-cpp side of the benchmark: one workload per process (so the runner can read its
// peak memory), printing `key: value` lines. See bench/README.md for what each figure means.
//
//   bench_keras mlp_train --threads 2 --backend cpu

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include <cblas.h>

#include <keras/keras.h>
#include <keras/saving/save_model.h>

#include "common/bench_cnn.h"
#include "common/bench_common.h"
#ifdef KERAS_BENCH_CUDA
#include <keras/cuda/memory.h>

#include "gpu/cublas_sgemm.h"
#endif

namespace ops = keras::ops;
namespace layers = keras::layers;
using bench::Args;
using bench::report;

namespace {

keras::Tensor images_tensor(const bench::ImageData& d, bool flat) {
  keras::Shape shape = flat ? keras::Shape{d.n, 784} : keras::Shape{d.n, 28, 28, 1};
  return ops::convert_to_tensor(d.x, shape);
}

keras::Tensor labels_tensor(const std::vector<int64_t>& y) {
  return ops::convert_to_tensor(y, keras::Shape{static_cast<int64_t>(y.size())});
}

// The fixed synthetic sequence set as (x, labels).
std::pair<keras::Tensor, keras::Tensor> sequence_tensors(int64_t n, int64_t steps, int64_t features) {
  auto data = bench::synthetic_sequences(n, steps, features, 10);
  return {ops::convert_to_tensor(data.x, {data.n, data.steps, data.features}),
          labels_tensor(data.y)};
}

void compile(keras::Model& model, const Args& a) {
  model.compile({.optimizer = keras::optimizers::Adam(1e-3),
                 .loss = keras::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .jit_compile = a.jit});
}

keras::ModelPtr<keras::SequentialModel> mlp() { return bench::fashion_mlp(); }
keras::ModelPtr<keras::SequentialModel> cnn() { return bench::fashion_cnn(); }

// Waits for the kernels a device backend queued (host backends run them before returning).
void sync() {
  keras::backend::current().synchronize();
}

void mlp_train(const Args& a) {
  const int64_t batch = bench::train_batch(a, bench::kTrainBatch);
  int64_t batches = bench::kWarmupSteps + bench::mlp_steps(a);
  auto data = bench::fashion_mnist(true, batches * batch);
  auto x = images_tensor(data, true);
  auto y = labels_tensor(data.y);
  data = {};
  auto model = mlp();
  compile(*model, a);
  report("samples_per_s",
         bench::fit_samples_per_s(*model, x, y, batch, bench::kWarmupSteps, bench::mlp_steps(a)));
}

void cnn_train(const Args& a) {
  const int64_t batch = bench::train_batch(a, bench::kTrainBatch);
  int64_t batches = bench::kWarmupSteps + bench::cnn_steps(a);
  auto data = bench::fashion_mnist(true, batches * batch);
  auto x = images_tensor(data, false);
  auto y = labels_tensor(data.y);
  data = {};
  auto model = cnn();
  compile(*model, a);
  report("samples_per_s",
         bench::fit_samples_per_s(*model, x, y, batch, bench::kWarmupSteps, bench::cnn_steps(a)));
}

// predict() over the 10000 test images at batch 1024, then predict_on_batch latency at batch 1.
void cnn_infer(const Args& a) {
  auto data = bench::fashion_mnist(false, a.quick ? bench::kInferBatch : bench::kInferImages);
  auto x = images_tensor(data, false);
  data = {};
  auto model = cnn();
  compile(*model, a);
  keras::Tensor first = x.slice({{0, bench::kInferBatch}});
  model->predict(first, {.batch_size = bench::kInferBatch, .verbose = 0});  // warm-up
  sync();
  double t0 = bench::now();
  model->predict(x, {.batch_size = bench::kInferBatch, .verbose = 0});
  sync();
  double t1 = bench::now();
  report("samples_per_s", static_cast<double>(x.shape()[0]) / (t1 - t0));

  keras::Tensor one = x.slice({{0, 1}});
  for (int i = 0; i < 10; ++i) model->predict_on_batch(one);
  int64_t iters = bench::latency_iters(a);
  sync();
  t0 = bench::now();
  for (int64_t i = 0; i < iters; ++i) model->predict_on_batch(one);
  sync();
  report("latency_ms", (bench::now() - t0) * 1e3 / static_cast<double>(iters));
}

// predict_on_batch(x) `iters` times after a warm-up: seconds per call.
double seconds_per_predict(keras::Model& model, const keras::Tensor& x, int64_t iters) {
  for (int i = 0; i < 5; ++i) model.predict_on_batch(x);
  sync();
  const double t0 = bench::now();
  for (int64_t i = 0; i < iters; ++i) model.predict_on_batch(x);
  sync();
  return (bench::now() - t0) / static_cast<double>(iters);
}

// Standard normal input for a model's first input at `batch`.
keras::Tensor model_input(keras::Model& model, int64_t batch) {
  keras::Shape shape;
  if (auto* f = dynamic_cast<keras::FunctionalModel*>(&model)) shape = f->inputs().at(0).shape();
  else if (auto* q = dynamic_cast<keras::SequentialModel*>(&model)) shape = q->input_tensor().shape();
  else shape = model.build_input_shapes().at(0);
  shape[0] = batch;
  return keras::random::normal(shape, 0.0, 1.0, std::nullopt, keras::random::Seed(7));
}

// Each model on its own kind of data: Fashion-MNIST's test images for a (28, 28, 1) input,
// standard normal features (standardized tabular data) otherwise.
void shared_models(const Args& a) {
  const int64_t b = bench::kServeBatch;
  const keras::Tensor images = images_tensor(bench::fashion_mnist(false, b), false);
  for (const std::string& path : bench::shared_model_files()) {
    auto model = keras::saving::load_model(path, {.compile = false});
    model->compile({.optimizer = "sgd", .loss = "mse", .jit_compile = a.jit});
    keras::Tensor x = model_input(*model, b);
    if (x.shape() == images.shape()) x = images;
    const std::string stem = bench::model_stem(path);
    report(stem + "_latency_ms",
           1e3 * seconds_per_predict(*model, x.slice({{0, 1}}), bench::serve_iters(a, 1)));
    report(stem + "_b128_samples_per_s",
           b / seconds_per_predict(*model, x, bench::serve_iters(a, b)));
  }
}

// On Fashion-MNIST's test images, as cnn_infer (their zero pixels are part of the workload).
void cnn_sweep(const Args& a) {
  const int64_t largest = bench::kSweepBatches[std::size(bench::kSweepBatches) - 1];
  keras::Tensor images = images_tensor(bench::fashion_mnist(false, largest), false);
  auto model = cnn();
  compile(*model, a);
  for (int64_t b : bench::kSweepBatches) {
    keras::Tensor x = images.slice({{0, b}});
    report("b" + std::to_string(b) + "_us_per_sample",
           1e6 * seconds_per_predict(*model, x, bench::sweep_iters(a, b)) / static_cast<double>(b));
  }
}

void lstm_train(const Args& a) {
  int64_t warmup = 2, steps = bench::lstm_steps(a);
  auto [x, y] = sequence_tensors((warmup + steps) * bench::kLstmBatch, bench::kLstmSteps,
                                 bench::kLstmFeatures);
  auto model = keras::Sequential({
      keras::Input({bench::kLstmSteps, bench::kLstmFeatures}),
      layers::LSTM(bench::kLstmUnits),
      layers::Dense(10),
  });
  compile(*model, a);
  report("samples_per_s",
         bench::fit_samples_per_s(*model, x, y, bench::kLstmBatch, warmup, steps));
}

// A Transformer encoder block (post-norm, as Keras's examples write it) trained on synthetic
// sequences.
void transformer_train(const Args& a) {
  const int64_t batch = bench::train_batch(a, bench::kTfBatch);
  int64_t warmup = 2, steps = bench::transformer_steps(a);
  auto [x, y] = sequence_tensors((warmup + steps) * batch, bench::kTfSeq, bench::kTfWidth);
  using KT = keras::KerasTensor;
  auto add = [](const KT& a, const KT& b) { return layers::Add()(std::vector<KT>{a, b})[0]; };
  KT inputs = keras::Input({bench::kTfSeq, bench::kTfWidth});
  auto mha = layers::MultiHeadAttention(bench::kTfHeads, bench::kTfWidth / bench::kTfHeads);
  KT attended = layers::Dropout(0.1)(mha(inputs, inputs));
  KT h = layers::LayerNormalization()(add(inputs, attended));
  KT ff = layers::Dense(bench::kTfFF, {.activation = "relu"})(h);
  ff = layers::Dropout(0.1)(layers::Dense(bench::kTfWidth)(ff));
  h = layers::LayerNormalization()(add(h, ff));
  KT outputs = layers::Dense(10)(layers::GlobalAveragePooling1D()(h));
  auto model = keras::Functional(inputs, outputs);
  compile(*model, a);
  report("samples_per_s", bench::fit_samples_per_s(*model, x, y, batch, warmup, steps));
}

// One training step of Dense(10) on one 784-feature sample (train_on_batch): the fixed cost of a
// step, eager against compiled (the runner divides the two).
void dense_step(const Args& a) {
  auto model = keras::Sequential({keras::Input({784}), layers::Dense(10)});
  compile(*model, a);
  auto x = ops::convert_to_tensor(std::vector<float>(784, 0.5f), keras::Shape{1, 784});
  auto y = labels_tensor({3});
  for (int i = 0; i < 20; ++i) model->train_on_batch(x, y);
  int64_t iters = bench::dense_step_iters(a);
  double t0 = bench::now();
  for (int64_t i = 0; i < iters; ++i) model->train_on_batch(x, y);
  report("step_us", (bench::now() - t0) * 1e6 / static_cast<double>(iters));
}

// One-element add with no gradient recording: the fixed cost of an eager op.
void op_overhead(const Args& a) {
  auto x = ops::convert_to_tensor(std::vector<float>{1.0f}, keras::Shape{1});
  auto y = ops::convert_to_tensor(std::vector<float>{2.0f}, keras::Shape{1});
  keras::Tensor z;
  for (int i = 0; i < 1000; ++i) z = ops::add(x, y);
  int64_t iters = bench::overhead_iters(a);
  sync();
  double t0 = bench::now();
  for (int64_t i = 0; i < iters; ++i) z = ops::add(x, y);
  sync();
  report("us", (bench::now() - t0) * 1e6 / static_cast<double>(iters));
}

// value_and_grad of sum(x * w) with respect to w (8 elements): recording plus backward.
void autograd_step(const Args& a) {
  auto x = ops::convert_to_tensor(std::vector<float>(bench::kAutogradSize, 0.5f),
                                  keras::Shape{bench::kAutogradSize});
  keras::Variable w(ops::ones({bench::kAutogradSize}));
  auto step = [&] {
    return keras::value_and_grad([&] { return ops::sum(ops::multiply(x, w)); }, {w});
  };
  for (int i = 0; i < 100; ++i) step();
  int64_t iters = bench::autograd_iters(a);
  double t0 = bench::now();
  for (int64_t i = 0; i < iters; ++i) step();
  report("us", (bench::now() - t0) * 1e6 / static_cast<double>(iters));
}

// OpenBLAS called directly, with its own threads (the cpu backend keeps OpenBLAS
// single-threaded and splits products over its pool; it resets the count on its next GEMM).
void direct_sgemm(int threads, int64_t m, int64_t k, int64_t n, const float* a, const float* b,
                  float* c) {
  openblas_set_num_threads(threads);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

// ops::matmul against the library the backend's products are measured by, called directly on
// the same operands, interleaved: OpenBLAS on host backends, cuBLAS on CUDA devices
// (bench_keras_gpu only). GFLOP/s medians, and the median of the paired ratios (each pair ran
// back to back, so load changes cancel out). Figures: <name>_gflops, <name>_gflops_<peer>,
// <name>_ratio_<peer>; without a peer for the device, ours alone.
void gemm_shape(const Args& a, int threads, int64_t m, int64_t k, int64_t n, const std::string& name) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> ha(static_cast<size_t>(m * k)), hb(static_cast<size_t>(k * n));
  for (float& v : ha) v = u(gen);
  for (float& v : hb) v = u(gen);
  std::vector<float> hc;
  std::function<void()> direct;
  std::string peer;
  const std::string device = keras::backend::current().device();
#ifdef KERAS_BENCH_CUDA
  std::unique_ptr<bench::CublasSgemm> cublas;
  if (device.rfind("cuda:", 0) == 0) {
    cublas = std::make_unique<bench::CublasSgemm>(std::stoi(device.substr(5)), m, k, n, ha.data(),
                                                  hb.data());
    direct = [&] { cublas->run(); };
    peer = "cublas";
  }
#endif
  if (keras::backend::current().is_host()) {
    hc.resize(static_cast<size_t>(m * n));
    direct = [&] { direct_sgemm(threads, m, k, n, ha.data(), hb.data(), hc.data()); };
    peer = "openblas";
  }
  auto ta = ops::convert_to_tensor(ha, {m, k});
  auto tb = ops::convert_to_tensor(hb, {k, n});
  double flop = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  int reps = a.quick ? 1 : 9, inner = a.quick ? 1 : 3;
  std::vector<double> ours, theirs, ratios;
  keras::Tensor c = ops::matmul(ta, tb);  // warm-up both
  sync();
  if (direct) direct();
  for (int r = 0; r < reps; ++r) {
    double t0 = bench::now();
    for (int i = 0; i < inner; ++i) c = ops::matmul(ta, tb);
    sync();
    double t1 = bench::now();
    if (direct)
      for (int i = 0; i < inner; ++i) direct();
    double t2 = bench::now();
    ours.push_back(flop * inner / (t1 - t0) / 1e9);
    theirs.push_back(flop * inner / (t2 - t1) / 1e9);
    ratios.push_back((t2 - t1) / (t1 - t0));
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  report(name + "_gflops", median(ours));
  if (!direct) return;
  report(name + "_gflops_" + peer, median(theirs));
  report(name + "_ratio_" + peer, median(ratios));
}

void gemm(const Args& a, int threads) {
  gemm_shape(a, threads, 1024, 1024, 1024, "gemm1024");
  gemm_shape(a, threads, 4096, 256, 4096, "gemm4096x256");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Args a = bench::parse_args(argc, argv);
    int threads = a.threads > 0 ? a.threads : static_cast<int>(std::thread::hardware_concurrency());
    // Before the first op: the cpu backend sizes its pool from this, OpenBLAS from the call.
    setenv("KERAS_CPU_THREADS", std::to_string(threads).c_str(), 1);
    openblas_set_num_threads(threads);
    if (a.workload == "backends") {
      for (const auto& name : keras::backend::available()) std::cout << "backend " << name << "\n";
      return 0;
    }
    if (!a.backend.empty()) keras::backend::set_default(a.backend);
    keras::utils::set_random_seed(1337);
    if (a.workload == "mlp_train") mlp_train(a);
    else if (a.workload == "cnn_train") cnn_train(a);
    else if (a.workload == "cnn_infer") cnn_infer(a);
    else if (a.workload == "lstm_train") lstm_train(a);
    else if (a.workload == "dense_step") dense_step(a);
    else if (a.workload == "transformer_train") transformer_train(a);
    else if (a.workload == "op_overhead") op_overhead(a);
    else if (a.workload == "autograd_step") autograd_step(a);
    else if (a.workload == "gemm") gemm(a, threads);
    else if (a.workload == "shared_models") shared_models(a);
    else if (a.workload == "cnn_sweep") cnn_sweep(a);
    else throw std::invalid_argument("unknown workload " + a.workload);
#ifdef KERAS_BENCH_CUDA
    // The most device memory tensors held at once (the peer's torch.cuda.max_memory_allocated).
    if (keras::backend::backend().rfind("cuda", 0) == 0)  // the cuda backend (not torch:cuda)
      report("peak_device_mb",
             static_cast<double>(
                 keras::cuda::memory_stats(keras::backend::backend()).peak_allocated_bytes) /
                 (1 << 20));
#endif
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bench_keras: " << e.what() << "\n";
    return 1;
  }
}
