#pragma once
// The device memory cache of the cuda backend (as PyTorch's CUDA caching allocator, simpler):
// cudaMalloc and cudaFree synchronize the device and cost tens of microseconds, so freed blocks
// are kept in size classes and handed out again. Sizes round up to 512 bytes (small) or 2 MiB
// (large: fewer distinct sizes); a request takes the smallest free block of its class that is
// big enough and at most twice its size. When the device is out of memory the cache is
// released and the allocation tried once more. The raw allocator is injected, so this
// bookkeeping is tested on machines without a GPU.
//
// Pools keep the memory of CUDA graphs apart (keras/backend/capture.h, as PyTorch's private
// pools do): a graph's kernels use the addresses they were recorded with at every launch, so
// the blocks a recording allocates must not be handed to anyone else while the graph exists.
// While a pool is open, the opening thread's requests are served from it (or, as usual, from
// the cache or the device) and its blocks stay the pool's until release_pool(); a block freed
// meanwhile goes back to the pool, which reuses it for its own later requests (a graph runs its
// kernels in recorded order). Other threads' requests never see a pool's blocks.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
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
  /// Frees every cached (unused) block back to the device; pools keep theirs.
  void empty_cache();

  /// Opens a pool for the calling thread's requests (one pool open at a time).
  void begin_pool();
  /// Closes the open pool; its blocks stay reserved for it. Returns its id.
  uint64_t end_pool();
  /// Gives a closed pool's blocks back to the cache (those still in use, when they are freed).
  void release_pool(uint64_t pool);
  /// Whether the calling thread has a pool open.
  bool pool_open_here() const;

  struct Stats {
    size_t in_use_bytes = 0;     // handed out and not returned
    size_t cached_bytes = 0;     // free blocks kept for reuse
    size_t pooled_bytes = 0;     // free blocks reserved by pools (CUDA graphs)
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

  struct Pool {
    std::multimap<size_t, void*> free;  // size -> a block the pool's recording freed
  };
  std::map<uint64_t, Pool> pools_;
  std::unordered_map<void*, uint64_t> pool_of_;  // a pool's block -> its pool
  std::optional<uint64_t> open_;                 // the open pool, if any
  std::thread::id open_thread_;                  // the thread that opened it
  uint64_t next_pool_ = 1;

  bool pool_open_here_locked() const { return open_ && open_thread_ == std::this_thread::get_id(); }
  // The smallest block of `from` that fits `size` and wastes at most half of itself (taken out).
  static void* take_fitting(std::multimap<size_t, void*>& from, size_t size, size_t& block);
};

}  // namespace keras::cuda
