// The same workloads written directly in LibTorch C++ (Debian's libtorch-dev), the way a
// LibTorch user writes them: nn modules, torch::optim::Adam, a shuffled epoch loop, NoGradGuard
// for inference. One workload per process, `key: value` lines, as bench_keras. With
// `--device cuda` (built against a CUDA LibTorch: the GPU benchmark, bench/gpu) the model and
// the data live on the GPU, TF32 is off, and every timed region waits for the device.
//
//   bench_libtorch cnn_train --threads 2
//   bench_libtorch mlp_train --device cuda --batch 256

#include <algorithm>
#include <iostream>
#include <random>
#include <string>
#include <thread>

#include <torch/cuda.h>
#include <torch/torch.h>

#include "common/bench_common.h"

using bench::Args;
using bench::report;

namespace {

// Where the model and the data live (--device).
torch::Device device = torch::kCPU;

// Waits for the device's queued kernels (the CPU runs them before returning).
void sync() {
  if (device.is_cuda()) torch::cuda::synchronize();
}

torch::Tensor images(const bench::ImageData& d, bool flat) {
  auto t = torch::from_blob(const_cast<float*>(d.x.data()), {d.n, 1, 28, 28}, torch::kFloat32);
  return (flat ? t.reshape({d.n, 784}) : t).clone().to(device);
}

torch::Tensor labels(const std::vector<int64_t>& y) {
  return torch::from_blob(const_cast<int64_t*>(y.data()), {static_cast<int64_t>(y.size())},
                          torch::kInt64)
      .clone()
      .to(device);
}

struct MlpImpl : torch::nn::Module {
  torch::nn::Linear fc1{784, 256}, fc2{256, 128}, fc3{128, 10};
  MlpImpl() {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
    register_module("fc3", fc3);
  }
  torch::Tensor forward(torch::Tensor x) {
    return fc3(torch::relu(fc2(torch::relu(fc1(x)))));
  }
};
TORCH_MODULE(Mlp);

struct CnnImpl : torch::nn::Module {
  torch::nn::Conv2d conv1{torch::nn::Conv2dOptions(1, 32, 3)};
  torch::nn::Conv2d conv2{torch::nn::Conv2dOptions(32, 64, 3)};
  torch::nn::Dropout dropout{0.5};
  torch::nn::Linear fc{1600, 10};
  CnnImpl() {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("dropout", dropout);
    register_module("fc", fc);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    return fc(dropout(x.flatten(1)));
  }
};
TORCH_MODULE(Cnn);

struct LstmImpl : torch::nn::Module {
  torch::nn::LSTM lstm{torch::nn::LSTMOptions(bench::kLstmFeatures, bench::kLstmUnits)
                           .batch_first(true)};
  torch::nn::Linear fc{bench::kLstmUnits, 10};
  LstmImpl() {
    register_module("lstm", lstm);
    register_module("fc", fc);
  }
  torch::Tensor forward(torch::Tensor x) {
    auto h = std::get<0>(std::get<1>(lstm(x)));  // h_n: (1, batch, units)
    return fc(h.squeeze(0));
  }
};
TORCH_MODULE(Lstm);

// The Transformer encoder block of bench_keras: post-norm attention and feed-forward with
// dropout (what torch::nn::TransformerEncoderLayer is), then mean over the sequence, Linear(10).
struct TransformerImpl : torch::nn::Module {
  torch::nn::TransformerEncoderLayer encoder{
      torch::nn::TransformerEncoderLayerOptions(bench::kTfWidth, bench::kTfHeads)
          .dim_feedforward(bench::kTfFF)
          .dropout(0.1)};
  torch::nn::Linear fc{bench::kTfWidth, 10};
  TransformerImpl() {
    register_module("encoder", encoder);
    register_module("fc", fc);
  }
  torch::Tensor forward(torch::Tensor x) {  // x: (batch, seq, width); the layer wants seq first
    auto h = encoder(x.transpose(0, 1));
    return fc(h.mean(0));
  }
};
TORCH_MODULE(Transformer);

// The fixed synthetic sequence set as (x, labels).
std::pair<torch::Tensor, torch::Tensor> sequence_tensors(int64_t n, int64_t steps, int64_t features) {
  auto data = bench::synthetic_sequences(n, steps, features, 10);
  return {torch::from_blob(data.x.data(), {data.n, data.steps, data.features}).clone().to(device),
          labels(data.y)};
}

// One shuffled epoch over x/y (as fit does), timing the batches after the warm-up ones.
template <typename Model>
double train_samples_per_s(Model& model, const torch::Tensor& x, const torch::Tensor& y,
                           int64_t batch, int64_t warmup, int64_t steps) {
  model->to(device);
  model->train();
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto order = torch::randperm(x.size(0), torch::kInt64).to(device);
  double start = 0;
  for (int64_t b = 0; b < warmup + steps; ++b) {
    auto idx = order.slice(0, b * batch, (b + 1) * batch);
    auto xb = x.index_select(0, idx), yb = y.index_select(0, idx);
    opt.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(xb), yb);
    loss.backward();
    opt.step();
    if (b == warmup - 1) {
      sync();
      start = bench::now();
    }
  }
  sync();
  return static_cast<double>(steps * batch) / (bench::now() - start);
}

void mlp_train(const Args& a) {
  const int64_t batch = bench::train_batch(a, bench::kTrainBatch);
  int64_t n = (bench::kWarmupSteps + bench::mlp_steps(a)) * batch;
  auto data = bench::fashion_mnist(true, n);
  auto x = images(data, true);
  auto y = labels(data.y);
  data = {};
  Mlp model;
  report("samples_per_s",
         train_samples_per_s(model, x, y, batch, bench::kWarmupSteps, bench::mlp_steps(a)));
}

void cnn_train(const Args& a) {
  const int64_t batch = bench::train_batch(a, bench::kTrainBatch);
  int64_t n = (bench::kWarmupSteps + bench::cnn_steps(a)) * batch;
  auto data = bench::fashion_mnist(true, n);
  auto x = images(data, false);
  auto y = labels(data.y);
  data = {};
  Cnn model;
  report("samples_per_s",
         train_samples_per_s(model, x, y, batch, bench::kWarmupSteps, bench::cnn_steps(a)));
}

void cnn_infer(const Args& a) {
  auto data = bench::fashion_mnist(false, a.quick ? bench::kInferBatch : bench::kInferImages);
  auto x = images(data, false);
  data = {};
  Cnn model;
  model->to(device);
  model->eval();
  torch::NoGradGuard no_grad;
  auto predict = [&](const torch::Tensor& in) {
    std::vector<torch::Tensor> outs;
    for (int64_t i = 0; i < in.size(0); i += bench::kInferBatch)
      outs.push_back(model->forward(in.slice(0, i, std::min(in.size(0), i + bench::kInferBatch))));
    return torch::cat(outs);
  };
  predict(x.slice(0, 0, bench::kInferBatch));  // warm-up
  sync();
  double t0 = bench::now();
  predict(x);
  sync();
  double t1 = bench::now();
  report("samples_per_s", static_cast<double>(x.size(0)) / (t1 - t0));

  auto one = x.slice(0, 0, 1);
  for (int i = 0; i < 10; ++i) model->forward(one);
  int64_t iters = bench::latency_iters(a);
  sync();
  t0 = bench::now();
  for (int64_t i = 0; i < iters; ++i) model->forward(one);
  sync();
  report("latency_ms", (bench::now() - t0) * 1e3 / static_cast<double>(iters));
}

void lstm_train(const Args& a) {
  int64_t warmup = 2, steps = bench::lstm_steps(a);
  auto [x, y] = sequence_tensors((warmup + steps) * bench::kLstmBatch, bench::kLstmSteps,
                                 bench::kLstmFeatures);
  Lstm model;
  report("samples_per_s", train_samples_per_s(model, x, y, bench::kLstmBatch, warmup, steps));
}

void transformer_train(const Args& a) {
  const int64_t batch = bench::train_batch(a, bench::kTfBatch);
  int64_t warmup = 2, steps = bench::transformer_steps(a);
  auto [x, y] = sequence_tensors((warmup + steps) * batch, bench::kTfSeq, bench::kTfWidth);
  Transformer model;
  report("samples_per_s", train_samples_per_s(model, x, y, batch, warmup, steps));
}

void op_overhead(const Args& a) {
  auto x = torch::ones({1}, device), y = torch::full({1}, 2.0, device);
  torch::Tensor z;
  for (int i = 0; i < 1000; ++i) z = torch::add(x, y);
  int64_t iters = bench::overhead_iters(a);
  sync();
  double t0 = bench::now();
  for (int64_t i = 0; i < iters; ++i) z = torch::add(x, y);
  sync();
  report("us", (bench::now() - t0) * 1e6 / static_cast<double>(iters));
}

// torch::autograd::grad, like value_and_grad: no accumulation into .grad.
void autograd_step(const Args& a) {
  auto x = torch::full({bench::kAutogradSize}, 0.5);
  auto w = torch::ones({bench::kAutogradSize}).requires_grad_(true);
  auto step = [&] {
    auto loss = torch::sum(torch::mul(x, w));
    return torch::autograd::grad({loss}, {w});
  };
  for (int i = 0; i < 100; ++i) step();
  int64_t iters = bench::autograd_iters(a);
  double t0 = bench::now();
  for (int64_t i = 0; i < iters; ++i) step();
  report("us", (bench::now() - t0) * 1e6 / static_cast<double>(iters));
}

void gemm_shape(const Args& a, int64_t m, int64_t k, int64_t n, const std::string& name) {
  torch::manual_seed(7);
  auto ta = (torch::rand({m, k}) * 2 - 1).to(device), tb = (torch::rand({k, n}) * 2 - 1).to(device);
  double flop = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  int reps = a.quick ? 1 : 7, inner = a.quick ? 1 : 3;
  torch::Tensor c = torch::mm(ta, tb);
  std::vector<double> rates;
  for (int r = 0; r < reps; ++r) {
    sync();
    double t0 = bench::now();
    for (int i = 0; i < inner; ++i) c = torch::mm(ta, tb);
    sync();
    rates.push_back(flop * inner / (bench::now() - t0) / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  report(name + "_gflops", rates[rates.size() / 2]);
}

void gemm(const Args& a) {
  gemm_shape(a, 1024, 1024, 1024, "gemm1024");
  gemm_shape(a, 4096, 256, 4096, "gemm4096x256");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Args a = bench::parse_args(argc, argv);
    int threads = a.threads > 0 ? a.threads : static_cast<int>(std::thread::hardware_concurrency());
    at::set_num_threads(threads);
    device = torch::Device(a.device);
    if (device.is_cuda()) {  // float32 as keras-cpp computes it: no TF32
      at::globalContext().setAllowTF32CuBLAS(false);
      at::globalContext().setAllowTF32CuDNN(false);
    }
    torch::manual_seed(1337);
    if (a.workload == "mlp_train") mlp_train(a);
    else if (a.workload == "cnn_train") cnn_train(a);
    else if (a.workload == "cnn_infer") cnn_infer(a);
    else if (a.workload == "lstm_train") lstm_train(a);
    else if (a.workload == "transformer_train") transformer_train(a);
    else if (a.workload == "op_overhead") op_overhead(a);
    else if (a.workload == "autograd_step") autograd_step(a);
    else if (a.workload == "gemm") gemm(a);
    else throw std::invalid_argument("unknown workload " + a.workload);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bench_libtorch: " << e.what() << "\n";
    return 1;
  }
}
