#pragma once
// The cuda backend's device memory, as PyTorch's torch.cuda.memory_stats() and friends report
// and manage it: what tensors hold, what the caching allocator keeps for reuse, the peak.
// Available to programs that link keras::cuda.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace keras::cuda {

struct MemoryStats {
  size_t allocated_bytes = 0;       // held by live tensors (sizes as the cache rounds them)
  size_t reserved_bytes = 0;        // allocated plus cached free blocks, CUDA graphs' pools
                                    // included: what cudaMalloc gave
  size_t peak_allocated_bytes = 0;  // the most allocated_bytes since start or the last reset
  int64_t device_allocations = 0;   // cudaMalloc calls (each synchronizes the device)
  int64_t cache_hits = 0;           // requests served from the cache
};

/// The statistics of the cuda backend `backend` ("cuda", "cuda:1", ...). Throws ValueError when
/// the name is not a cuda backend (no GPU, or another backend's name).
MemoryStats memory_stats(std::string_view backend = "cuda");

/// Starts peak_allocated_bytes over from what is allocated now.
void reset_peak_memory_stats(std::string_view backend = "cuda");

/// Returns the cached free blocks to the device (tensors keep theirs), as torch.cuda.empty_cache.
void empty_cache(std::string_view backend = "cuda");

}  // namespace keras::cuda
