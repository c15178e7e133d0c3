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

}  // namespace keras::cuda
