// Mixed precision against float32 (docs/mixed_precision.md): the benchmark suite's MLP and CNN
// (bench/keras_bench.cpp's models, Fashion-MNIST, Adam(1e-3), batch 128) trained and run under
// each dtype policy, with speed and memory as ratios to float32.
//
//   bench_mixed_precision                  # every workload x policy, one child process each
//   bench_mixed_precision --runs 3 --quick
//   bench_mixed_precision cnn_train mixed_bfloat16   # one measurement (what a child runs)
//
// Figures per (workload, policy): samples/s (the median of --runs children), the peak resident
// memory of the child (VmHWM: data, weights, optimizer, activations and the allocator's cache),
// and the bytes of the activations one batch keeps for the backward pass (the layer outputs;
// policy-dependent, data-independent).

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/bench_cnn.h"
#include "common/bench_common.h"

namespace ops = keras::ops;

namespace {

const char* const kPolicies[] = {"float32", "mixed_float16", "mixed_bfloat16"};
const char* const kWorkloads[] = {"mlp_train", "cnn_train", "mlp_infer", "cnn_infer"};

// Peak resident memory of this process in MiB (VmHWM).
double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

// The bytes of every layer's output for one batch: what the backward pass keeps.
double activation_kib(keras::SequentialModel& model, const keras::Tensor& batch) {
  keras::NoGradScope no_grad;
  double bytes = 0;
  keras::Tensor h = batch;
  for (const auto& layer : model.layers()) {
    h = (*layer)(h);
    bytes += static_cast<double>(h.size() * keras::itemsize(h.dtype()));
  }
  return bytes / 1024.0;
}

// One measurement in this process: `workload` under `policy`.
void measure(const std::string& workload, const std::string& policy, bool quick) {
  keras::config::set_dtype_policy(policy);
  const bool is_cnn = workload.rfind("cnn", 0) == 0;
  const bool train = workload.ends_with("_train");
  bench::Args a;
  a.quick = quick;
  const int64_t warmup = bench::kWarmupSteps;
  const int64_t steps = is_cnn ? bench::cnn_steps(a) : bench::mlp_steps(a);
  const int64_t batch = train ? bench::kTrainBatch : bench::kInferBatch;
  const int64_t n = train ? (warmup + steps) * batch : (quick ? 2 : 10) * batch;
  auto data = bench::fashion_mnist(train, n);
  keras::Tensor x = ops::convert_to_tensor(
      data.x, is_cnn ? keras::Shape{data.n, 28, 28, 1} : keras::Shape{data.n, 784});
  keras::Tensor y = ops::convert_to_tensor(data.y, keras::Shape{data.n});
  data = {};
  auto model = is_cnn ? bench::fashion_cnn() : bench::fashion_mlp();
  model->compile({.optimizer = keras::optimizers::Adam(1e-3),
                  .loss = keras::losses::SparseCategoricalCrossentropy({.from_logits = true})});
  double samples_per_s = 0;
  if (train) {
    samples_per_s = bench::fit_samples_per_s(*model, x, y, batch, warmup, steps);
  } else {
    keras::Tensor first = x.slice({{0, batch}});
    model->predict(first, {.batch_size = batch, .verbose = 0});  // warm-up (and the trace)
    double t0 = bench::now();
    model->predict(x, {.batch_size = batch, .verbose = 0});
    samples_per_s = static_cast<double>(n) / (bench::now() - t0);
  }
  bench::report("samples_per_s", samples_per_s);
  bench::report("peak_rss_mib", peak_rss_mib());
  bench::report("activation_kib", activation_kib(*model, x.slice({{0, bench::kTrainBatch}})));
  bench::report("compute_dtype_is_16bit",
                keras::itemsize(model->layers()[0]->compute_dtype()) == 2 ? 1 : 0);
}

// Runs this program on one (workload, policy) and returns its `key: value` figures.
std::map<std::string, double> child(const char* self, const std::string& workload,
                                    const std::string& policy, bool quick) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<const char*> argv = {self, workload.c_str(), policy.c_str()};
    if (quick) argv.push_back("--quick");
    argv.push_back(nullptr);
    execv(self, const_cast<char* const*>(argv.data()));
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t r; (r = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(r));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(workload + " under " + policy + " failed");
  std::map<std::string, double> figures;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    auto colon = line.find(": ");
    if (colon != std::string::npos) figures[line.substr(0, colon)] = std::stod(line.substr(colon + 2));
  }
  return figures;
}

int run_all(const char* self, int runs, bool quick) {
  std::printf("%-10s %-15s %12s %8s %10s %8s %12s %8s\n", "workload", "policy", "samples/s",
              "vs f32", "peak MiB", "vs f32", "activ. KiB", "vs f32");
  for (const char* workload : kWorkloads) {
    std::map<std::string, std::map<std::string, double>> median;
    for (const char* policy : kPolicies) {
      std::vector<std::map<std::string, double>> results;
      for (int r = 0; r < runs; ++r) results.push_back(child(self, workload, policy, quick));
      for (const auto& [key, unused] : results[0]) {
        std::vector<double> v;
        for (auto& res : results) v.push_back(res[key]);
        std::sort(v.begin(), v.end());
        median[policy][key] = v[v.size() / 2];
      }
      auto& m = median[policy];
      auto& f = median["float32"];
      std::printf("%-10s %-15s %12.0f %7.2fx %10.1f %7.2fx %12.0f %7.2fx\n", workload, policy,
                  m["samples_per_s"], m["samples_per_s"] / f["samples_per_s"], m["peak_rss_mib"],
                  m["peak_rss_mib"] / f["peak_rss_mib"], m["activation_kib"],
                  m["activation_kib"] / f["activation_kib"]);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    bool quick = std::find(args.begin(), args.end(), "--quick") != args.end();
    int runs = 3;
    for (size_t i = 0; i + 1 < args.size(); ++i)
      if (args[i] == "--runs") runs = std::stoi(args[i + 1]);
    if (!args.empty() && args[0].rfind("--", 0) != 0) {
      if (args.size() < 2) throw std::invalid_argument("usage: bench_mixed_precision WORKLOAD POLICY");
      measure(args[0], args[1], quick);
      return 0;
    }
    return run_all(argv[0], runs, quick);
  } catch (const std::exception& e) {
    std::cerr << "bench_mixed_precision: " << e.what() << "\n";
    return 1;
  }
}
