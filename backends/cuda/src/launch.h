#pragma once
// Launch configurations of the cuda backend's kernels: one thread per element in blocks of
// kThreads, the grid capped so that a huge array is walked with a grid-stride loop. Plain C++
// (tested on machines without a GPU).

#include <algorithm>
#include <cstdint>

namespace keras::cuda {

inline constexpr int kThreads = 256;
/// Enough blocks to fill an H200 (132 SMs) many times over; more elements stride.
inline constexpr int64_t kMaxBlocks = 65535;

/// Blocks for `n` independent work items (0 for none: nothing is launched).
inline int64_t blocks_for(int64_t n) {
  if (n <= 0) return 0;
  return std::min<int64_t>((n + kThreads - 1) / kThreads, kMaxBlocks);
}

/// How a reduction of `reduced` elements into each of `outputs` outputs is split. A thread per
/// output walking all its elements leaves the GPU idle when outputs are few and long (a bias
/// gradient: a few channels, each summed over the whole batch), so the elements are cut into
/// `splits` consecutive chunks of `chunk` (the last may be shorter), each reduced by its own
/// thread into a partial, and the partials combined in chunk order: a fixed order, so the
/// result does not depend on scheduling. splits == 1: one pass, a thread per output.
struct ReduceSplit {
  int64_t splits = 1, chunk = 0;
};
inline ReduceSplit reduce_split(int64_t outputs, int64_t reduced) {
  constexpr int64_t kMinChunk = 128;          // elements per thread: enough to hide latency
  constexpr int64_t kTargetThreads = 262144;  // an H200's resident threads (132 SMs x 2048)
  ReduceSplit s{1, reduced};
  if (outputs <= 0 || reduced < 2 * kMinChunk || outputs >= kTargetThreads) return s;
  const int64_t most = std::min<int64_t>(kMaxBlocks, (kTargetThreads + outputs - 1) / outputs);
  s.splits = std::min(most, reduced / kMinChunk);  // chunks of at least kMinChunk
  s.chunk = (reduced + s.splits - 1) / s.splits;
  s.splits = (reduced + s.chunk - 1) / s.chunk;  // no empty chunk at the end
  return s;
}

}  // namespace keras::cuda
