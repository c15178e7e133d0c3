#pragma once
// The memory of this process along a long run: a sample of its resident set size (and of the
// bytes malloc has handed out) every few calls of a workload, and what the samples say: the
// level once warm-up is over, the level at the end, the growth between them and the peak.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace keras::soak {

/// Resident set size of this process now, in bytes (/proc/self/statm).
size_t resident_bytes();
/// Bytes malloc has handed out and not taken back (glibc's mallinfo2: the main arena, the
/// other arenas and mmapped blocks); 0 under an allocator that does not count them (LSan's).
size_t heap_in_use_bytes();

struct MemorySample {
  int64_t call = 0;  // calls done when the sample was taken
  size_t resident = 0;
  size_t heap = 0;
};

/// Counts the calls of one workload and samples memory every `sample_every` calls (and after
/// the first and the last).
class MemoryRecorder {
 public:
  MemoryRecorder(int64_t total_calls, int64_t sample_every);
  /// One call done.
  void tick();
  int64_t calls() const { return calls_; }
  const std::vector<MemorySample>& samples() const { return samples_; }

 private:
  void sample();

  int64_t total_calls_, sample_every_, calls_ = 0;
  std::vector<MemorySample> samples_;
};

struct MemorySummary {
  /// The first sample at or after the end of warm-up (its call count, its figures).
  MemorySample warm;
  MemorySample end;
  size_t peak_resident = 0;
  /// (end - warm) / warm resident bytes, in percent; negative when memory went down.
  double growth_percent = 0;
  /// end - warm heap bytes (signed).
  double heap_growth_bytes = 0;
};

/// What `samples` say, warm-up being the first `warmup_fraction` of `total_calls`.
/// ValueError when there are no samples.
MemorySummary summarize(const std::vector<MemorySample>& samples, int64_t total_calls,
                        double warmup_fraction);

}  // namespace keras::soak
