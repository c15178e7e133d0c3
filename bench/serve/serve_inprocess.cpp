// bench_serve_inprocess MODEL REQUESTS_FILE [N]: the in-process side of bench/serve.sh.
// Writes N Fashion-MNIST test images (scaled to [0, 1]) as TensorFlow Serving predict bodies,
// one JSON line each, to REQUESTS_FILE (what wrk posts), then measures predict_on_batch on the
// same rows, single-threaded caller, the backend's threads as configured:
//   batch 32 (what the server's batching makes of 32 one-row requests): rows per second, and
//   rows per CPU-second of the process (all its threads);
//   batch 1 (one request at a time): rows per second and the p50 / p99 latency of a call.
// Prints "name value" lines.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "keras/keras.h"

using namespace keras;
using Clock = std::chrono::steady_clock;

namespace {

std::string body_of(const std::vector<float>& pixels) {
  std::string s = "{\"instances\": [[";
  char number[32];
  for (int r = 0; r < 28; ++r) {
    s += r ? ", [" : "[";
    for (int c = 0; c < 28; ++c) {
      std::snprintf(number, sizeof number, "%s[%.6g]", c ? ", " : "",
                    static_cast<double>(pixels[static_cast<size_t>(r * 28 + c)]));
      s += number;
    }
    s += "]";
  }
  return s + "]]}";
}

// Calls f() for about `seconds` (after 20 warm-up calls); the duration of each call.
template <class F>
std::vector<double> timed_calls(F f, double seconds) {
  for (int i = 0; i < 20; ++i) f();
  std::vector<double> took;
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < end) {
    const auto start = Clock::now();
    f();
    took.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  return took;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

// User + system time of every thread of the process so far.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: bench_serve_inprocess MODEL REQUESTS_FILE [N]\n";
    return 2;
  }
  const int n = argc > 3 ? std::stoi(argv[3]) : 256;
  auto model = saving::load_model(argv[1], {.compile = false});
  auto [train, test] = datasets::fashion_mnist::load_data();
  Tensor x = test.first.slice({{0, n}}).astype(float32).reshape({n, 28, 28, 1});
  x = x / 255.0f;
  std::vector<float> all = x.to_vector<float>();

  std::ofstream out(argv[2]);
  for (int i = 0; i < n; ++i)
    out << body_of(std::vector<float>(all.begin() + i * 784, all.begin() + (i + 1) * 784)) << "\n";
  out.close();

  Tensor batch32 = x.slice({{0, 32}}), batch1 = x.slice({{0, 1}});
  const double cpu_before = cpu_seconds();
  auto t32 = timed_calls([&] { model->predict_on_batch(batch32); }, 4.0);
  const double cpu32 = cpu_seconds() - cpu_before;
  auto t1 = timed_calls([&] { model->predict_on_batch(batch1); }, 4.0);
  std::cout << "inprocess_batch32_rows_per_s " << 32.0 * static_cast<double>(t32.size()) / sum(t32)
            << "\n";
  std::cout << "inprocess_batch32_rows_per_cpu_s "
            << 32.0 * static_cast<double>(t32.size() + 20) / cpu32 << "\n";
  std::cout << "inprocess_batch1_rows_per_s " << static_cast<double>(t1.size()) / sum(t1) << "\n";
  std::cout << "inprocess_batch1_p50_ms " << 1e3 * percentile(t1, 0.5) << "\n";
  std::cout << "inprocess_batch1_p99_ms " << 1e3 * percentile(t1, 0.99) << "\n";
  return 0;
}
