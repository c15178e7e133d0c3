// keras-soak: runs keras-cpp's long-running paths many times (training, inference, save/load,
// the model server's handler) with the process's resident memory sampled, prints a table of
// each workload's memory after warm-up, at the end, its growth and its peak, and exits 1 when a
// workload's RSS grew more than --max-growth percent (or malloc's bytes in use more than
// --max-heap-growth KiB). Linked with -fsanitize=leak (keras-soak-lsan),
// LeakSanitizer also checks at exit that nothing was leaked. scripts/soak.sh runs the full
// version; ctest runs a short one (label "soak").

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "workloads.h"

using namespace keras::soak;

namespace {

struct Options {
  SoakSettings settings;
  double warmup = 0.1;
  double max_growth = 2.0;
  double max_heap_growth_kib = 1024;
  std::string only;
  std::string samples_csv;
};

std::vector<Workload> selected(const std::string& names) {
  if (names.empty()) return workloads();
  std::vector<Workload> chosen;
  std::stringstream list(names);
  std::string name;
  while (std::getline(list, name, ',')) {
    bool found = false;
    for (const Workload& w : workloads())
      if (w.name == name) {
        chosen.push_back(w);
        found = true;
      }
    if (!found) {
      std::string known;
      for (const Workload& w : workloads()) known += " " + w.name;
      throw keras::ValueError("--workloads: no workload named '" + name + "'; the workloads are:" +
                              known);
    }
  }
  return chosen;
}

WorkloadResult run(const Workload& w, const SoakSettings& s, SoakData& d) {
  if (!d.trained && w.name != "train_compiled") {
    // The inference workloads need a trained model; train one briefly, outside any record.
    SoakSettings brief = s;
    brief.train_steps = 200;
    MemoryRecorder unused(brief.train_steps, brief.train_steps);
    train_on_batch_loop(brief, d, unused, false);
  }
  WorkloadResult result{w.name, w.calls(s), 0, {}, {}};
  MemoryRecorder recorder(result.calls, std::max<int64_t>(result.calls / s.samples, 1));
  const auto start = std::chrono::steady_clock::now();
  result.note = w.run(s, d, recorder);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.samples = recorder.samples();
  return result;
}

double mib(size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

// A markdown table, one row per workload; returns whether every workload stayed within the bound.
bool print_table(const std::vector<WorkloadResult>& results, const Options& o) {
  std::printf("| workload | calls | µs/call | RSS after warm-up (MiB) | RSS at end (MiB) | growth "
              "| peak RSS (MiB) | heap growth (KiB) | checked |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
  bool within = true;
  for (const WorkloadResult& r : results) {
    const MemorySummary m = summarize(r.samples, r.calls, o.warmup);
    char heap[32] = "n/a";  // LSan's allocator does not count for mallinfo2
    if (m.warm.heap > 0) std::snprintf(heap, sizeof heap, "%+.0f", m.heap_growth_bytes / 1024.0);
    std::printf("| %s | %lld | %.1f | %.2f | %.2f | %+.2f%% | %.2f | %s | %s |\n",
                r.name.c_str(), static_cast<long long>(r.calls),
                1e6 * r.seconds / static_cast<double>(r.calls), mib(m.warm.resident),
                mib(m.end.resident), m.growth_percent, mib(m.peak_resident), heap,
                r.note.c_str());
    if (o.max_growth >= 0 && m.growth_percent > o.max_growth) within = false;
    if (o.max_heap_growth_kib >= 0 && m.warm.heap > 0 &&
        m.heap_growth_bytes > 1024 * o.max_heap_growth_kib)
      within = false;
  }
  size_t peak = 0;
  for (const WorkloadResult& r : results)
    for (const MemorySample& m : r.samples) peak = std::max(peak, m.resident);
  std::printf("\nprocess: RSS at the end %.2f MiB, largest sample %.2f MiB; warm-up = the first "
              "%.0f%% of each workload's calls\n",
              mib(resident_bytes()), mib(peak), 100 * o.warmup);
  return within;
}

void write_samples(const std::vector<WorkloadResult>& results, const std::string& path) {
  std::ofstream out(path);
  out << "workload,call,resident_bytes,heap_bytes\n";
  for (const WorkloadResult& r : results)
    for (const MemorySample& s : r.samples)
      out << r.name << "," << s.call << "," << s.resident << "," << s.heap << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  SoakSettings& s = o.settings;
  CLI::App app{"keras-soak: keras-cpp's long-running paths with their memory sampled"};
  app.add_option("--train-steps", s.train_steps, "steps of each training workload")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--predicts", s.predict_calls, "calls of each inference workload")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--save-loads", s.save_loads, "rounds of the save_load workload")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--checkpoint-every", s.checkpoint_every, "fit_dataset's steps between checkpoints")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--samples", s.samples, "memory samples per workload")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--warmup", o.warmup, "fraction of each workload's calls that is warm-up")
      ->capture_default_str()->check(CLI::Range(0.0, 0.9));
  app.add_option("--max-growth", o.max_growth,
                 "largest RSS growth after warm-up, percent, per workload (negative: no check)")
      ->capture_default_str();
  app.add_option("--max-heap-growth", o.max_heap_growth_kib,
                 "largest growth of malloc's bytes in use after warm-up, KiB, per workload "
                 "(negative: no check)")
      ->capture_default_str();
  app.add_option("--workloads", o.only, "comma-separated workloads to run (default: all)");
  app.add_option("--work-dir", s.work_dir, "folder for checkpoints (default: a temporary one)");
  app.add_option("--samples-csv", o.samples_csv, "write every memory sample to this CSV file");
  app.add_flag("--retain-predictions", s.retain_predictions,
               "keep every prediction alive (a deliberate leak the run must report)");
  CLI11_PARSE(app, argc, argv);

  namespace fs = std::filesystem;
  const bool own_dir = s.work_dir.empty();
  try {
    const std::vector<Workload> chosen = selected(o.only);
    if (own_dir) {
      s.work_dir = (fs::temp_directory_path() / ("keras-soak-" + std::to_string(getpid()))).string();
    }
    fs::create_directories(s.work_dir);
    keras::utils::set_random_seed(1337);
    SoakData data = make_soak_data(s.batch_size);
    std::vector<WorkloadResult> results;
    for (const Workload& w : chosen) {
      results.push_back(run(w, s, data));
      std::fprintf(stderr, "%s: %lld calls in %.1f s\n", w.name.c_str(),
                   static_cast<long long>(results.back().calls), results.back().seconds);
    }
    if (own_dir) fs::remove_all(s.work_dir);
    if (!o.samples_csv.empty()) write_samples(results, o.samples_csv);
    if (!print_table(results, o)) {
      std::printf("FAILED: a workload's RSS grew more than %.2f%% or its heap more than %.0f KiB "
                  "after warm-up\n",
                  o.max_growth, o.max_heap_growth_kib);
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    if (own_dir) fs::remove_all(s.work_dir);
    std::fprintf(stderr, "keras-soak: %s\n", e.what());
    return 3;
  }
}
