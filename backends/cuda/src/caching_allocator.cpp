#include "caching_allocator.h"

#include <iterator>
#include <string>
#include <utility>

#include "keras/core/errors.h"

namespace keras::cuda {

namespace {
constexpr size_t kSmallGranule = 512;
constexpr size_t kLargeGranule = size_t{2} << 20;
constexpr size_t kSmallLimit = size_t{1} << 20;
}  // namespace

CachingAllocator::CachingAllocator(std::function<void*(size_t)> raw_alloc,
                                   std::function<void(void*)> raw_free)
    : raw_alloc_(std::move(raw_alloc)), raw_free_(std::move(raw_free)) {}

CachingAllocator::~CachingAllocator() {
  empty_cache();
  for (auto& [id, pool] : pools_)
    for (auto& [size, p] : pool.free) raw_free_(p);
  // Blocks still in use belong to Storages that outlive the backend (process exit): the
  // driver reclaims them.
}

size_t CachingAllocator::rounded_size(size_t nbytes) {
  const size_t g = nbytes <= kSmallLimit ? kSmallGranule : kLargeGranule;
  return (nbytes + g - 1) / g * g;
}

void* CachingAllocator::take_fitting(std::multimap<size_t, void*>& from, size_t size,
                                     size_t& block) {
  auto it = from.lower_bound(size);
  if (it == from.end() || it->first > 2 * size) return nullptr;
  void* p = it->second;
  block = it->first;
  from.erase(it);
  return p;
}

void* CachingAllocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  const size_t size = rounded_size(nbytes);
  std::lock_guard<std::mutex> lock(mutex_);
  const bool pooled = pool_open_here_locked();
  size_t block = 0;
  void* p = nullptr;
  if (pooled && (p = take_fitting(pools_[*open_].free, size, block))) {
    stats_.pooled_bytes -= block;
    ++stats_.cache_hits;
  } else if ((p = take_fitting(free_, size, block))) {
    stats_.cached_bytes -= block;
    ++stats_.cache_hits;
  } else {
    block = size;
    p = raw_alloc_(size);
    if (!p && !pooled) {
      // Out of memory: give the cache back to the device and try once more (not while
      // recording a graph, where freeing device memory is not allowed).
      for (auto& [bytes, cached] : free_) raw_free_(cached);
      free_.clear();
      stats_.cached_bytes = 0;
      p = raw_alloc_(size);
    }
    if (!p)
      throw RuntimeError("cuda backend: out of device memory allocating " + std::to_string(nbytes) +
                         " bytes (" + std::to_string(stats_.in_use_bytes) +
                         " bytes in use by tensors); free tensors or use smaller batches.");
    ++stats_.raw_allocations;
  }
  if (pooled) pool_of_[p] = *open_;
  in_use_[p] = block;
  stats_.in_use_bytes += block;
  stats_.peak_in_use_bytes = std::max(stats_.peak_in_use_bytes, stats_.in_use_bytes);
  return p;
}

void CachingAllocator::deallocate(void* p) {
  if (!p) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = in_use_.find(p);
  if (it == in_use_.end())
    throw RuntimeError("cuda backend: a block the allocator did not hand out was returned to it.");
  const size_t size = it->second;
  in_use_.erase(it);
  stats_.in_use_bytes -= size;
  auto pooled = pool_of_.find(p);
  if (pooled != pool_of_.end()) {  // still its pool's: reused only by the pool
    pools_[pooled->second].free.emplace(size, p);
    stats_.pooled_bytes += size;
    return;
  }
  free_.emplace(size, p);
  stats_.cached_bytes += size;
}

void CachingAllocator::begin_pool() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_) throw RuntimeError("cuda backend: a memory pool is already open");
  open_ = next_pool_++;
  open_thread_ = std::this_thread::get_id();
  pools_[*open_];
}

uint64_t CachingAllocator::end_pool() {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t id = open_.value_or(0);
  open_.reset();
  return id;
}

void CachingAllocator::release_pool(uint64_t pool) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = pools_.find(pool);
  if (found == pools_.end()) return;
  for (auto& [size, p] : found->second.free) {
    free_.emplace(size, p);
    stats_.pooled_bytes -= size;
    stats_.cached_bytes += size;
  }
  for (auto it = pool_of_.begin(); it != pool_of_.end();)
    it = it->second == pool ? pool_of_.erase(it) : std::next(it);
  pools_.erase(found);
}

bool CachingAllocator::pool_open_here() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_open_here_locked();
}

void CachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [bytes, block] : free_) raw_free_(block);
  free_.clear();
  stats_.cached_bytes = 0;
}

CachingAllocator::Stats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void CachingAllocator::reset_peak() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.peak_in_use_bytes = stats_.in_use_bytes;
}

}  // namespace keras::cuda
