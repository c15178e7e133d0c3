#include "caching_allocator.h"

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
  // Blocks still in use belong to Storages that outlive the backend (process exit): the
  // driver reclaims them.
}

size_t CachingAllocator::rounded_size(size_t nbytes) {
  const size_t g = nbytes <= kSmallLimit ? kSmallGranule : kLargeGranule;
  return (nbytes + g - 1) / g * g;
}

void* CachingAllocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  const size_t size = rounded_size(nbytes);
  std::lock_guard<std::mutex> lock(mutex_);
  // The smallest cached block that fits, if it wastes at most half of itself.
  auto it = free_.lower_bound(size);
  if (it != free_.end() && it->first <= 2 * size) {
    void* p = it->second;
    const size_t block = it->first;
    free_.erase(it);
    stats_.cached_bytes -= block;
    in_use_[p] = block;
    stats_.in_use_bytes += block;
    stats_.peak_in_use_bytes = std::max(stats_.peak_in_use_bytes, stats_.in_use_bytes);
    ++stats_.cache_hits;
    return p;
  }
  void* p = raw_alloc_(size);
  if (!p) {
    // Out of memory: give the cache back to the device and try once more.
    for (auto& [bytes, block] : free_) raw_free_(block);
    free_.clear();
    stats_.cached_bytes = 0;
    p = raw_alloc_(size);
  }
  if (!p)
    throw RuntimeError("cuda backend: out of device memory allocating " + std::to_string(nbytes) +
                       " bytes (" + std::to_string(stats_.in_use_bytes) +
                       " bytes in use by tensors); free tensors or use smaller batches.");
  ++stats_.raw_allocations;
  in_use_[p] = size;
  stats_.in_use_bytes += size;
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
  free_.emplace(size, p);
  stats_.cached_bytes += size;
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
