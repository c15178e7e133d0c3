// The distribution benchmarks (issue 18), run as a job by scripts/bench_distributed.sh:
//
//   keras-cpp launch -n 2 bench_distributed allreduce   # all-reduce: Gloo alone vs keras-cpp's
//   keras-cpp launch -n P bench_distributed cnn STEPS   # CNN training throughput, DataParallel
//   keras-cpp launch -n P bench_distributed wide_mlp STEPS  # a model of several buckets
//
// Process 0 prints one line per measurement: "name value unit".

#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <keras/distribution/distribution.h>
#include <keras/keras.h>

#include "common/bench_cnn.h"

namespace dist = keras::distribution;
namespace layers = keras::layers;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void report(const std::string& name, double value, const std::string& unit) {
  if (dist::process_id() == 0) std::cout << name << " " << value << " " << unit << std::endl;
}

// Gloo on its own (its TCP transport and ring all-reduce, a file store for the rendezvous), the
// figure keras-cpp's collectives are compared with.
std::shared_ptr<gloo::Context> raw_gloo_context(const std::string& store_dir) {
  gloo::transport::tcp::attr attr;
  attr.hostname = "127.0.0.1";
  auto device = gloo::transport::tcp::CreateDevice(attr);
  auto context = std::make_shared<gloo::rendezvous::Context>(dist::process_id(),
                                                             dist::num_processes());
  gloo::rendezvous::FileStore store(store_dir);
  context->connectFullMesh(store, device);
  return context;
}

void allreduce() {
  const std::string store_dir = std::string(std::getenv("KERAS_BENCH_STORE"));
  auto context = raw_gloo_context(store_dir);
  const int reps = 20;
  for (size_t floats : {size_t{256}, size_t{4096}, size_t{65536}, size_t{1} << 20, size_t{8} << 20}) {
    std::vector<float> buffer(floats, 1.0f);
    std::vector<double> gloo_s, keras_s;
    std::vector<keras::Tensor> tensors{keras::ops::ones({static_cast<int64_t>(floats)})};
    for (int r = 0; r < reps + 3; ++r) {
      dist::collectives().barrier("bench");
      auto t0 = Clock::now();
      gloo::AllreduceOptions options(context);
      options.setOutput(buffer.data(), floats);
      options.setReduceFunction(
          static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<float>));
      gloo::allreduce(options);
      auto t1 = Clock::now();
      dist::collectives().barrier("bench");
      auto t2 = Clock::now();
      dist::all_reduce_sum(tensors, "bench");
      auto t3 = Clock::now();
      if (r >= 3) {
        gloo_s.push_back(std::chrono::duration<double>(t1 - t0).count());
        keras_s.push_back(std::chrono::duration<double>(t3 - t2).count());
      }
    }
    const double bytes = static_cast<double>(floats * sizeof(float));
    const std::string size = std::to_string(static_cast<size_t>(bytes)) + "B";
    report("allreduce_gloo_" + size + "_us", median(gloo_s) * 1e6, "us");
    report("allreduce_keras_" + size + "_us", median(keras_s) * 1e6, "us");
  }
}

// Data-parallel training throughput of `model` on synthetic data shaped `x_shape` (10 classes).
void train(const std::string& name, keras::ModelPtr<keras::SequentialModel> model,
           const keras::Shape& x_shape, int steps);

// The CNN of bench/keras_bench.cpp, on synthetic images of Fashion-MNIST's size.
void cnn(int steps) {
  train("cnn", bench::fashion_cnn(), {28, 28, 1}, steps);
}

// A wide MLP (7.4 MB of gradients: several buckets, so the all-reduce overlaps the backward).
void wide_mlp(int steps) {
  train("wide_mlp", keras::Sequential({
                        keras::Input({784}),
                        layers::Dense(1024, {.activation = "relu"}),
                        layers::Dense(1024, {.activation = "relu"}),
                        layers::Dense(10),
                    }),
        {784}, steps);
}

void train(const std::string& name, keras::ModelPtr<keras::SequentialModel> model,
           const keras::Shape& x_shape, int steps) {
  dist::set_distribution(std::make_shared<dist::DataParallel>());
  keras::utils::set_random_seed(3);
  const int64_t batch = 128, warmup = 3;
  const int64_t n = batch * (warmup + steps);
  std::vector<int64_t> dims{n};
  for (int64_t d : x_shape) dims.push_back(d);
  keras::Tensor x = keras::random::uniform(keras::Shape(dims), 0.0, 1.0, keras::DType::Float32, 5);
  keras::Tensor y = keras::random::randint({n}, 0, 10, keras::DType::Int32, 6);
  model->compile({.optimizer = "adam", .loss = keras::losses::SparseCategoricalCrossentropy(
                                           {.from_logits = true})});
  Clock::time_point start;
  auto timer = std::make_shared<keras::callbacks::LambdaCallback>(
      keras::callbacks::LambdaCallbackOptions{.on_train_batch_end = [&](int64_t b, const keras::Logs&) {
        if (b + 1 == warmup) start = Clock::now();
      }});
  model->fit(x, y, {.batch_size = batch, .epochs = 1, .verbose = 0, .callbacks = {timer},
                    .shuffle = false});
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  report(name + "_train_samples_per_s", static_cast<double>(steps * batch) / seconds, "samples/s");
  int64_t parameters = 0;
  for (const auto& w : model->trainable_weights()) parameters += w.shape().numel();
  report(name + "_gradient_bytes", static_cast<double>(parameters * 4), "B");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    dist::initialize();
    const std::string what = argc > 1 ? argv[1] : "";
    if (what == "allreduce") allreduce();
    else if (what == "cnn") cnn(argc > 2 ? std::atoi(argv[2]) : 20);
    else if (what == "wide_mlp") wide_mlp(argc > 2 ? std::atoi(argv[2]) : 20);
    else {
      std::cerr << "usage: bench_distributed allreduce | cnn [STEPS] | wide_mlp [STEPS]\n";
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "process " << dist::process_id() << ": " << e.what() << "\n";
    return 1;
  }
}
