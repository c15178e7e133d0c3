// Runs every workload of bench_keras and bench_libtorch, each in a fresh process, alternating
// the two programs, and prints medians and ratios: a table for people, then `name: value`
// lines for tools (the names of issue 8, then extra figures).
//
//   bench_runner [--runs 3] [--threads N] [--quick] [--only cnn_train,gemm]
//
// Peak memory is the child's ru_maxrss (wait4), so each figure covers one workload alone.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct RunResult {
  std::map<std::string, double> values;
  double peak_rss_mb = 0;
};

std::string self_dir() {
  char buf[4096];
  ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (len <= 0) return ".";
  std::string path(buf, static_cast<size_t>(len));
  return path.substr(0, path.rfind('/'));
}

// fork/exec one child, read its stdout, and take its peak resident set from wait4.
RunResult run_child(const std::vector<std::string>& argv,
                    const std::vector<std::pair<std::string, std::string>>& env) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& s : argv) args.push_back(const_cast<char*>(s.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::perror("execv");
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t got;
  while ((got = read(fds[0], buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(got));
  close(fds[0]);
  int status = 0;
  struct rusage usage{};
  wait4(pid, &status, 0, &usage);
  std::string cmd;
  for (const auto& s : argv) cmd += s + " ";
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("child failed: " + cmd);
  RunResult r;
  r.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    r.values[line.substr(0, colon)] = std::strtod(line.c_str() + colon + 2, nullptr);
  }
  return r;
}

// The 1-minute load average: other work on the machine skews every figure, so it is reported.
double load_average() {
  double v = std::nan("");
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &v) != 1) v = std::nan("");
    std::fclose(f);
  }
  return v;
}

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// One program to compare: bench_keras on a backend, or bench_libtorch.
struct Impl {
  std::string label;                 // column heading
  std::vector<std::string> command;  // argv before the workload's name
  std::vector<std::pair<std::string, std::string>> env = {};
  bool libtorch = false;  // a peer (LibTorch or a Python engine): ratios divide by the best
  std::vector<std::string> workloads = {};  // the workloads it runs (empty: every one but keras-only ones)
  size_t workload_at = 1;                   // where the workload's name goes in the command
};

// Workloads only keras-cpp runs (no peer at all).
bool keras_only(const std::string& w) { return w == "dense_step"; }
// Workloads with no LibTorch twin (ONNX Runtime is their peer).
bool libtorch_runs(const std::string& w) {
  return !keras_only(w) && w != "shared_models" && w != "cnn_sweep";
}

bool runs(const Impl& impl, const std::string& w) {
  if (!impl.workloads.empty())
    return std::find(impl.workloads.begin(), impl.workloads.end(), w) != impl.workloads.end();
  return !impl.libtorch || libtorch_runs(w);
}

// The models of KERAS_BENCH_MODELS that a run measured: the prefixes of its *_latency_ms keys.
std::vector<std::string> model_stems(const std::vector<RunResult>& runs) {
  std::vector<std::string> stems;
  const std::string suffix = "_latency_ms";
  for (const RunResult& r : runs)
    for (const auto& [key, value] : r.values)
      if (key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) {
        std::string stem = key.substr(0, key.size() - suffix.size());
        if (std::find(stems.begin(), stems.end(), stem) == stems.end()) stems.push_back(stem);
      }
  return stems;
}

const int kSweepBatches[] = {1, 4, 16, 64, 256, 1024};

struct Options {
  int runs = 3;
  int threads = 0;
  bool quick = false;
  bool keep_openblas_core = false;
  std::vector<std::string> only;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) o.runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--threads" && i + 1 < argc) o.threads = std::atoi(argv[++i]);
    else if (a == "--quick") o.quick = true;
    else if (a == "--keep-openblas-core") o.keep_openblas_core = true;
    else if (a == "--only" && i + 1 < argc) {
      std::stringstream ss(argv[++i]);
      std::string w;
      while (std::getline(ss, w, ',')) o.only.push_back(w);
    } else throw std::invalid_argument("unknown argument " + a);
  }
  return o;
}

std::vector<std::string> keras_backends(const std::string& keras_bin) {
  std::vector<std::string> names;
  int fds[2];
  if (pipe(fds) != 0) return {"cpu"};
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl(keras_bin.c_str(), keras_bin.c_str(), "backends", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[1024];
  ssize_t got;
  while ((got = read(fds[0], buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(got));
  close(fds[0]);
  waitpid(pid, nullptr, 0);
  std::istringstream lines(out);
  std::string word, name;
  while (lines >> word >> name)
    if (word == "backend") names.push_back(name);
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options opt = parse(argc, argv);
    int threads = opt.threads > 0 ? opt.threads : static_cast<int>(std::thread::hardware_concurrency());
    std::string dir = self_dir();

    // OPENBLAS_CORETYPE forces OpenBLAS's kernels (this machine's environment sets "Haswell":
    // AVX2 kernels on an AVX-512 CPU, half the GEMM speed, while LibTorch's convolutions use
    // oneDNN's AVX-512 kernels regardless). Unless kept, every child runs without it, so
    // OpenBLAS picks its kernels for the CPU in both programs alike.
    if (const char* core = std::getenv("OPENBLAS_CORETYPE"); core && !opt.keep_openblas_core) {
      std::printf("OPENBLAS_CORETYPE=%s removed for every child (--keep-openblas-core keeps it)\n",
                  core);
      unsetenv("OPENBLAS_CORETYPE");
    }
    std::string keras_bin = dir + "/bench_keras", torch_bin = dir + "/bench_libtorch";

    // Implementations. Debian's LibTorch runs three times (below: as installed, and with either
    // of its two thread pools tamed); ratios use the fastest.
    // OPENBLAS_THREAD_TIMEOUT=4 for keras-cpp's programs: their only threaded OpenBLAS calls are
    // the GEMM workload's direct cblas_sgemm, whose worker threads otherwise keep spinning for a
    // long while after each call and take the cores from the ops::matmul timed right after it
    // (keras-cpp runs OpenBLAS single-threaded; OpenBLAS's own speed is the same either way).
    const std::vector<std::pair<std::string, std::string>> keras_env{
        {"OPENBLAS_THREAD_TIMEOUT", "4"}};
    // keras-cpp compiled (jit_compile "auto", what compile() does by default) and eager
    // (jit_compile "false"), on the workloads where the mode matters.
    std::vector<Impl> impls{
        {"keras-cpp cpu", {keras_bin, "--backend", "cpu"}, keras_env},
        {"keras-cpp eager",
         {keras_bin, "--backend", "cpu", "--jit", "false"},
         keras_env,
         false,
         {"mlp_train", "cnn_train", "cnn_infer", "lstm_train", "transformer_train",
          "dense_step", "shared_models", "cnn_sweep"}}};
    const size_t eager_impl = 1;
    // The torch backend runs from its own binary (bench_keras_torch, built when LibTorch is),
    // so LibTorch's pages never count against the cpu backend's memory.
    const std::string keras_torch_bin = dir + "/bench_keras_torch";
    bool has_torch_backend = false;
    size_t torch_impl = 0;
    if (access(keras_torch_bin.c_str(), X_OK) == 0) {
      auto backends = keras_backends(keras_torch_bin);
      if (std::find(backends.begin(), backends.end(), "torch") != backends.end()) {
        impls.push_back({"keras-cpp torch", {keras_torch_bin, "--backend", "torch"}, keras_env});
        has_torch_backend = true;
        torch_impl = impls.size() - 1;
      }
    }
    const size_t first_libtorch = impls.size();
    // Debian's LibTorch as installed runs two pools of threads, OpenMP's (spinning when idle)
    // and OpenBLAS's, which take turns on few cores; either setting below removes the fight,
    // and each alone was faster than both together on every workload (bench/README.md).
    impls.push_back({"LibTorch default", {torch_bin}, {}, true});
    impls.push_back({"LibTorch passive", {torch_bin}, {{"OMP_WAIT_POLICY", "passive"}}, true});
    impls.push_back({"LibTorch 1 BLAS", {torch_bin}, {{"OPENBLAS_NUM_THREADS", "1"}}, true});
    const size_t debian_libtorch_end = impls.size();
    // The LibTorch of the PyTorch wheel the Python peers use (built when scripts/bench.sh
    // finds that wheel): today's C++ peer.
    const std::string wheel_bin = dir + "/bench_libtorch_wheel";
    if (access(wheel_bin.c_str(), X_OK) == 0)
      impls.push_back({"LibTorch wheel", {wheel_bin}, {}, true});
    const size_t first_python = impls.size();

    // The engines users pick today (bench/peers/peers.py, run by the Python of
    // KERAS_BENCH_PYTHON: scripts/bench.sh --peers installs them in .cache/peers-venv).
    const char* python = std::getenv("KERAS_BENCH_PYTHON");
    const std::string peers_script = std::string(PROJECT_SOURCE_DIR) + "/bench/peers/peers.py";
    if (python && *python) {
      const std::vector<std::string> training{"mlp_train", "cnn_train", "cnn_infer", "lstm_train",
                                              "transformer_train"};
      for (const auto& [label, peer] : std::vector<std::pair<std::string, std::string>>{
               {"PyTorch eager", "torch_eager"},
               {"torch.compile", "torch_compile"},
               {"JAX jit", "jax"},
               {"Keras/JAX jit", "keras_jax"}})
        impls.push_back({label, {python, peers_script, "--peer", peer}, {}, true, training, 2});
      impls.push_back({"ONNX Runtime", {python, peers_script, "--peer", "onnxruntime"}, {}, true,
                       {"cnn_infer", "shared_models", "cnn_sweep"}, 2});
      std::fflush(stdout);
      if (std::system((std::string(python) + " " + peers_script + " versions").c_str()) != 0)
        throw std::runtime_error("the peers' Python cannot run " + peers_script);
    }
    std::vector<std::string> workloads{"mlp_train",  "cnn_train",         "cnn_infer",
                                       "lstm_train", "transformer_train", "dense_step",
                                       "op_overhead", "autograd_step",    "gemm",
                                       "cnn_sweep"};
    // The models Python Keras saved (../shared/models, or KERAS_BENCH_MODELS).
    if (!std::getenv("KERAS_BENCH_MODELS"))
      setenv("KERAS_BENCH_MODELS", (std::string(PROJECT_SOURCE_DIR) + "/../shared/models").c_str(), 1);
    if (access(std::getenv("KERAS_BENCH_MODELS"), R_OK) == 0) workloads.push_back("shared_models");
    if (!opt.only.empty()) workloads = opt.only;

    double load_start = load_average();
    // results[workload][impl] = one RunResult per run
    std::map<std::string, std::vector<std::vector<RunResult>>> results;
    for (const auto& w : workloads) {
      auto& per_impl = results[w];
      per_impl.resize(impls.size());
      for (int r = 0; r < opt.runs; ++r) {
        // Alternate the order each run so neither side always goes first.
        for (size_t j = 0; j < impls.size(); ++j) {
          size_t i = r % 2 ? impls.size() - 1 - j : j;
          if (!runs(impls[i], w)) continue;
          std::vector<std::string> cmd = impls[i].command;
          cmd.insert(cmd.begin() + static_cast<std::ptrdiff_t>(impls[i].workload_at), w);
          cmd.push_back("--threads");
          cmd.push_back(std::to_string(threads));
          if (opt.quick) cmd.push_back("--quick");
          std::fprintf(stderr, "[bench] %s run %d/%d: %s\n", w.c_str(), r + 1, opt.runs,
                       impls[i].label.c_str());
          per_impl[i].push_back(run_child(cmd, impls[i].env));
        }
      }
    }

    auto med = [&](const std::string& w, size_t impl, const std::string& key) {
      auto it = results.find(w);
      if (it == results.end()) return std::nan("");
      std::vector<double> v;
      for (const auto& run : it->second[impl]) {
        if (key == "peak_rss_mb") v.push_back(run.peak_rss_mb);
        else if (auto f = run.values.find(key); f != run.values.end()) v.push_back(f->second);
      }
      return median(v);
    };
    // The best median of a figure (the faster, or the smaller) over the implementations
    // [from, to); best_peer: over LibTorch and the Python peers.
    auto best_of = [&](const std::string& w, const std::string& key, bool higher_is_better,
                       size_t from, size_t to) {
      double best = std::nan("");
      for (size_t i = from; i < to; ++i) {
        double v = med(w, i, key);
        if (std::isnan(best) || (higher_is_better ? v > best : v < best)) best = v;
      }
      return best;
    };
    auto best_peer = [&](const std::string& w, const std::string& key, bool higher_is_better) {
      return best_of(w, key, higher_is_better, first_libtorch, impls.size());
    };

    // keras-cpp's faster mode on a figure: the compiled column (0) or the eager one.
    auto best_keras = [&](const std::string& w, const std::string& key, bool higher) {
      double compiled = med(w, 0, key), eager = med(w, eager_impl, key);
      if (std::isnan(eager)) return size_t{0};
      return (higher ? eager > compiled : eager < compiled) ? eager_impl : size_t{0};
    };
    // The human table: one row per measured quantity, one column per implementation.
    struct Row { std::string workload, key, label; bool higher_is_better; };
    std::vector<Row> rows{
        {"mlp_train", "samples_per_s", "MLP train (samples/s)", true},
        {"cnn_train", "samples_per_s", "CNN train (samples/s)", true},
        {"cnn_infer", "samples_per_s", "CNN inference b1024 (samples/s)", true},
        {"cnn_infer", "latency_ms", "CNN latency b1 (ms)", false},
        {"lstm_train", "samples_per_s", "LSTM train (samples/s)", true},
        {"transformer_train", "samples_per_s", "Transformer train (samples/s)", true},
        {"op_overhead", "us", "1-element add (us/op)", false},
        {"autograd_step", "us", "tiny autograd step (us)", false},
        {"dense_step", "step_us", "Dense(10) train step b1 (us)", false},
        {"gemm", "gemm1024_gflops", "GEMM 1024^3 (GFLOP/s)", true},
        {"gemm", "gemm4096x256_gflops", "GEMM 4096x256x4096 (GFLOP/s)", true},
        {"mlp_train", "peak_rss_mb", "MLP train peak RSS (MiB)", false},
        {"cnn_train", "peak_rss_mb", "CNN train peak RSS (MiB)", false},
    };
    for (int b : kSweepBatches)
      rows.push_back({"cnn_sweep", "b" + std::to_string(b) + "_us_per_sample",
                      "CNN infer b" + std::to_string(b) + " (us/sample)", false});
    const std::vector<std::string> stems =
        results.count("shared_models") ? model_stems(results["shared_models"][0])
                                       : std::vector<std::string>{};
    for (const std::string& stem : stems) {
      rows.push_back({"shared_models", stem + "_latency_ms", stem + " b1 (ms)", false});
      rows.push_back({"shared_models", stem + "_b128_samples_per_s", stem + " b128 (samples/s)", true});
    }
    std::printf("\nkeras-cpp vs its peers: medians of %d runs, %d threads%s\n\n", opt.runs, threads,
                opt.quick ? " (QUICK: not a measurement)" : "");
    std::printf("%-40s", "figure");
    for (const auto& impl : impls) std::printf(" %16s", impl.label.c_str());
    std::printf(" %16s\n", "best keras/best peer");
    for (const auto& row : rows) {
      if (!results.count(row.workload)) continue;
      std::printf("%-40s", row.label.c_str());
      for (size_t i = 0; i < impls.size(); ++i) std::printf(" %16.4g", med(row.workload, i, row.key));
      const size_t k = best_keras(row.workload, row.key, row.higher_is_better);
      if (keras_only(row.workload)) {
        std::printf("\n");
        continue;
      }
      std::printf(" %16.3f %s\n",
                  med(row.workload, k, row.key) /
                      best_peer(row.workload, row.key, row.higher_is_better),
                  k == eager_impl ? "(eager)" : "");
    }
    if (results.count("gemm")) {
      std::printf("%-40s %16.4g\n", "GEMM 1024^3 OpenBLAS (GFLOP/s)",
                  med("gemm", 0, "gemm1024_gflops_openblas"));
      std::printf("%-40s %16.4g\n", "GEMM 4096x256 OpenBLAS (GFLOP/s)",
                  med("gemm", 0, "gemm4096x256_gflops_openblas"));
    }
    std::printf("\n");

    // Machine-readable lines, last: issue 8's names first.
    auto line = [](const std::string& name, double v) {
      if (!std::isnan(v)) std::printf("%s: %.4g\n", name.c_str(), v);
    };
    auto ratio = [&](const std::string& w, size_t impl, const std::string& key, bool higher) {
      return med(w, impl, key) / best_peer(w, key, higher);
    };
    // The headline ratios use keras-cpp's faster mode; *_compiled_is_faster says which (1/0).
    for (const auto& w : {"mlp_train", "cnn_train", "cnn_infer", "lstm_train", "transformer_train"}) {
      const std::string n(w);
      const size_t k = best_keras(n, "samples_per_s", true);
      line(n + "_ratio", ratio(n, k, "samples_per_s", true));
    }
    line("compiled_overhead_ratio",
         med("dense_step", 0, "step_us") / med("dense_step", eager_impl, "step_us"));
    line("op_overhead_us", med("op_overhead", 0, "us"));
    line("op_overhead_us_libtorch", best_peer("op_overhead", "us", false));
    line("autograd_step_us", med("autograd_step", 0, "us"));
    line("autograd_step_us_libtorch", best_peer("autograd_step", "us", false));
    // Each run's median of back-to-back paired ratios, then the median over runs.
    double g1 = med("gemm", 0, "gemm1024_ratio_openblas");
    double g2 = med("gemm", 0, "gemm4096x256_ratio_openblas");
    line("gemm_ratio_openblas", std::min(g1, g2));  // the worse of the two shapes
    line("peak_rss_ratio_cnn", ratio("cnn_train", 0, "peak_rss_mb", false));
    // Batch-1 latency of the shared models over ONNX Runtime's (the worst model), keras-cpp in
    // its faster mode per model; then each model's figures.
    double worst_latency = std::nan("");
    for (const std::string& stem : stems) {
      const std::string key = stem + "_latency_ms";
      const size_t k = best_keras("shared_models", key, false);
      const double r = med("shared_models", k, key) / best_peer("shared_models", key, false);
      if (!std::isnan(r) && (std::isnan(worst_latency) || r > worst_latency)) worst_latency = r;
    }
    line("latency_b1_ratio", worst_latency);
    // Extra figures.
    for (const std::string& stem : stems) {
      const std::string lat = stem + "_latency_ms", tput = stem + "_b128_samples_per_s";
      line(stem + "_latency_b1_ratio",
           med("shared_models", best_keras("shared_models", lat, false), lat) /
               best_peer("shared_models", lat, false));
      line(stem + "_b128_ratio",
           med("shared_models", best_keras("shared_models", tput, true), tput) /
               best_peer("shared_models", tput, true));
      line(lat, med("shared_models", 0, lat));
      line(lat + "_onnxruntime", best_peer("shared_models", lat, false));
    }
    for (int b : kSweepBatches) {
      const std::string key = "b" + std::to_string(b) + "_us_per_sample";
      line("cnn_sweep_" + key, med("cnn_sweep", best_keras("cnn_sweep", key, false), key));
      line("cnn_sweep_" + key + "_onnxruntime", best_peer("cnn_sweep", key, false));
    }
    for (const auto& w : {"mlp_train", "cnn_train", "cnn_infer", "lstm_train", "transformer_train"}) {
      const std::string n(w);
      line(n + "_ratio_compiled", ratio(n, 0, "samples_per_s", true));
      line(n + "_ratio_eager", ratio(n, eager_impl, "samples_per_s", true));
      line(n + "_compiled_is_faster", best_keras(n, "samples_per_s", true) == 0 ? 1 : 0);
    }
    line("dense_step_us_compiled", med("dense_step", 0, "step_us"));
    line("dense_step_us_eager", med("dense_step", eager_impl, "step_us"));
    line("gemm_ratio_openblas_1024", g1);
    line("gemm_ratio_openblas_4096x256", g2);
    line("peak_rss_ratio_mlp", ratio("mlp_train", 0, "peak_rss_mb", false));
    line("cnn_latency_b1_ms", med("cnn_infer", 0, "latency_ms"));
    line("cnn_latency_b1_ms_libtorch", best_peer("cnn_infer", "latency_ms", false));
    for (const auto& w : {"mlp_train", "cnn_train", "cnn_infer", "lstm_train", "transformer_train"}) {
      std::string n(w);
      line(n + "_samples_per_s", med(w, 0, "samples_per_s"));
      line(n + "_samples_per_s_libtorch_default", med(w, first_libtorch, "samples_per_s"));
      line(n + "_samples_per_s_libtorch_passive", med(w, first_libtorch + 1, "samples_per_s"));
      line(n + "_samples_per_s_libtorch_1_blas", med(w, first_libtorch + 2, "samples_per_s"));
    }
    for (const auto& g : {"gemm1024", "gemm4096x256"}) {
      std::string n = std::string(g) + "_gflops";
      line(n, med("gemm", 0, n));
      line(n + "_openblas", med("gemm", 0, n + "_openblas"));
      line(n + "_libtorch", best_peer("gemm", n, true));
    }
    line("peak_rss_mb_cnn", med("cnn_train", 0, "peak_rss_mb"));
    line("peak_rss_mb_cnn_libtorch", best_peer("cnn_train", "peak_rss_mb", false));
    line("peak_rss_mb_mlp", med("mlp_train", 0, "peak_rss_mb"));
    line("peak_rss_mb_mlp_libtorch", best_peer("mlp_train", "peak_rss_mb", false));
    if (has_torch_backend) {
      line("mlp_train_ratio_torch_backend", ratio("mlp_train", torch_impl, "samples_per_s", true));
      line("cnn_train_ratio_torch_backend", ratio("cnn_train", torch_impl, "samples_per_s", true));
      line("cnn_infer_ratio_torch_backend", ratio("cnn_infer", torch_impl, "samples_per_s", true));
      line("lstm_train_ratio_torch_backend", ratio("lstm_train", torch_impl, "samples_per_s", true));
      line("op_overhead_us_torch_backend", med("op_overhead", torch_impl, "us"));
      line("autograd_step_us_torch_backend", med("autograd_step", torch_impl, "us"));
      // The torch backend against the LibTorch it runs on (Debian's 1.13, in its fastest
      // configuration for each figure): what keras-cpp's front end costs or saves over ATen.
      auto best_debian = [&](const std::string& w, const std::string& key, bool higher) {
        return best_of(w, key, higher, first_libtorch, debian_libtorch_end);
      };
      for (const auto& w :
           {"mlp_train", "cnn_train", "cnn_infer", "lstm_train", "transformer_train"})
        line(std::string(w) + "_ratio_torch_backend_to_libtorch",
             med(w, torch_impl, "samples_per_s") / best_debian(w, "samples_per_s", true));
      for (const auto& g : {"gemm1024_gflops", "gemm4096x256_gflops"})
        line(std::string(g) + "_ratio_torch_backend_to_libtorch",
             med("gemm", torch_impl, g) / best_debian("gemm", g, true));
      line("op_overhead_us_libtorch113", best_debian("op_overhead", "us", false));
    }
    // Every Python peer's own figures, named after its column.
    if (first_python > debian_libtorch_end)  // the wheel's LibTorch
      for (const auto& w : {"mlp_train", "cnn_train", "cnn_infer", "lstm_train", "transformer_train"})
        line(std::string(w) + "_samples_per_s_libtorch_wheel",
             med(w, debian_libtorch_end, "samples_per_s"));
    for (size_t i = first_python; i < impls.size(); ++i) {  // LibTorch's are above
      std::string slug;
      for (char c : impls[i].label) slug += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
      for (const auto& w : {"mlp_train", "cnn_train", "cnn_infer", "lstm_train", "transformer_train"})
        if (runs(impls[i], w)) line(std::string(w) + "_samples_per_s_" + slug, med(w, i, "samples_per_s"));
      if (runs(impls[i], "cnn_infer")) line("cnn_latency_b1_ms_" + slug, med("cnn_infer", i, "latency_ms"));
    }
    line("load_average_start", load_start);
    line("load_average_end", load_average());
    line("threads", threads);
    line("runs", opt.runs);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_runner: %s\n", e.what());
    return 1;
  }
}
