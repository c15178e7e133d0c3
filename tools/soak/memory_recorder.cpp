#include "memory_recorder.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "keras/core/errors.h"

namespace keras::soak {

size_t resident_bytes() {
  // statm: total program size, then resident pages.
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const int read = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (read != 2) return 0;
  return static_cast<size_t>(resident) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

size_t heap_in_use_bytes() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

MemoryRecorder::MemoryRecorder(int64_t total_calls, int64_t sample_every)
    : total_calls_(total_calls), sample_every_(std::max<int64_t>(sample_every, 1)) {
  samples_.reserve(static_cast<size_t>(total_calls_ / sample_every_ + 3));
}

void MemoryRecorder::tick() {
  ++calls_;
  if (calls_ == 1 || calls_ % sample_every_ == 0 || calls_ == total_calls_) sample();
}

void MemoryRecorder::sample() {
  // The vector was reserved for every sample: recording never allocates.
  samples_.push_back({calls_, resident_bytes(), heap_in_use_bytes()});
}

MemorySummary summarize(const std::vector<MemorySample>& samples, int64_t total_calls,
                        double warmup_fraction) {
  if (samples.empty()) throw ValueError("summarize: no memory samples were taken (0 calls ran)");
  const auto warm_call = static_cast<int64_t>(warmup_fraction * static_cast<double>(total_calls));
  auto warm = std::find_if(samples.begin(), samples.end(),
                           [&](const MemorySample& s) { return s.call >= warm_call; });
  if (warm == samples.end()) warm = samples.end() - 1;
  MemorySummary summary;
  summary.warm = *warm;
  summary.end = samples.back();
  for (const MemorySample& s : samples)
    summary.peak_resident = std::max(summary.peak_resident, s.resident);
  summary.growth_percent = 100.0 *
                           (static_cast<double>(summary.end.resident) -
                            static_cast<double>(summary.warm.resident)) /
                           static_cast<double>(std::max<size_t>(summary.warm.resident, 1));
  summary.heap_growth_bytes =
      static_cast<double>(summary.end.heap) - static_cast<double>(summary.warm.heap);
  return summary;
}

}  // namespace keras::soak
