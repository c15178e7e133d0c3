#pragma once
// The device memory cache of the cuda backend (as PyTorch's CUDA caching allocator, simpler):
// cudaMalloc and cudaFree synchronize the device and cost tens of microseconds, so freed blocks
// are kept in size classes and handed out again. Sizes round up to 512 bytes (small) or 2 MiB
// (large: fewer distinct sizes); a request takes the smallest free block of its class that is
// big enough and at most twice its size. When the device is out of memory the cache is
// released and the allocation tried once more. The raw allocator is injected, so this
// bookkeeping is tested on machines without a GPU.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>

namespace keras::cuda {

class CachingAllocator {
 public:
  /// raw_alloc returns null when the device is out of memory; raw_free releases a block.
  CachingAllocator(std::function<void*(size_t)> raw_alloc, std::function<void(void*)> raw_free);
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  /// A block of at least `nbytes` (null for 0); throws RuntimeError when even an emptied cache
  /// leaves the device without room.
  void* allocate(size_t nbytes);
  /// Returns a block from allocate() to the cache.
  void deallocate(void* p);
  /// Frees every cached (unused) block back to the device.
  void empty_cache();

  struct Stats {
    size_t in_use_bytes = 0;     // handed out and not returned
    size_t cached_bytes = 0;     // free blocks kept for reuse
    size_t peak_in_use_bytes = 0;
    int64_t raw_allocations = 0;  // calls of raw_alloc that succeeded
    int64_t cache_hits = 0;
  };
  Stats stats() const;
  /// Starts peak_in_use_bytes over from in_use_bytes.
  void reset_peak();

  /// The size a request of `nbytes` is served with.
  static size_t rounded_size(size_t nbytes);

 private:
  std::function<void*(size_t)> raw_alloc_;
  std::function<void(void*)> raw_free_;
  mutable std::mutex mutex_;
  std::multimap<size_t, void*> free_;          // size -> cached block
  std::unordered_map<void*, size_t> in_use_;   // block -> its size
  Stats stats_;
};

}  // namespace keras::cuda
