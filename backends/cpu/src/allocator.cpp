#include "allocator.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#include "core/out_of_memory.h"

namespace keras::cpu {
namespace {

constexpr size_t kAlignment = 64;
constexpr int kClasses = 64 * 4;
// Beyond this many cached bytes, freed blocks go back to the system.
constexpr size_t kMaxCachedBytes = size_t{4} << 30;
// The largest block asked of the system (4 EiB).
constexpr size_t kMaxBytes = size_t{1} << 62;

// Size classes: 64-byte steps up to 256 bytes, then four classes per power of two, so a block
// wastes at most a quarter of its size.
int size_class(size_t n) {
  if (n <= 256) return static_cast<int>((n + 63) / 64);  // 1..4
  size_t m = n - 1;
  int p = 63 - std::countl_zero(m);  // 2^p <= m < 2^(p+1), p >= 8
  int sub = static_cast<int>((m >> (p - 2)) & 3);
  return p * 4 + sub;
}

size_t class_bytes(int c) {
  if (c <= 4) return static_cast<size_t>(c) * 64;
  int p = c / 4, sub = c % 4;
  return (size_t{4} + static_cast<size_t>(sub) + 1) << (p - 2);
}

struct Cache {
  std::mutex mutex;
  std::array<std::vector<void*>, kClasses> free_lists;
  size_t bytes = 0;
};

Cache& cache() {
  static Cache* c = new Cache();  // never destroyed: tensors may be freed after main()
  return *c;
}

void shared_free(void* p, int c);

// Small blocks (up to 4 KiB: scalars, shapes of eager ops) first go through a per-thread stack
// per size class, so that the allocation and release of a tiny op's output take no lock: the
// shared cache's mutex was 12% of a 1-element add. A thread's leftovers go to the shared cache
// when it exits.
constexpr int kLocalClasses = 48;  // size classes 0..47: blocks of at most 4096 bytes
constexpr int kLocalDepth = 16;

struct LocalCache {
  std::array<std::array<void*, kLocalDepth>, kLocalClasses> blocks{};
  std::array<int, kLocalClasses> count{};
  // False once destroyed: tensors released later in the thread's exit (or the main thread's
  // static destructors) bypass it.
  bool alive = true;
  ~LocalCache() {
    alive = false;
    for (int c = 0; c < kLocalClasses; ++c) {
      for (int i = 0; i < count[c]; ++i) shared_free(blocks[c][i], c);
      count[c] = 0;
    }
  }
};

thread_local LocalCache local_cache;

void shared_free(void* p, int c) {
  size_t bytes = class_bytes(c);
  Cache& k = cache();
  {
    std::lock_guard<std::mutex> lock(k.mutex);
    if (k.bytes + bytes <= kMaxCachedBytes) {
      k.free_lists[c].push_back(p);
      k.bytes += bytes;
      return;
    }
  }
  std::free(p);
}

}  // namespace

void* cached_alloc(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  // No machine has this much; past it class_bytes would overflow.
  if (nbytes > kMaxBytes) keras::detail::throw_out_of_memory(nbytes);
  int c = size_class(nbytes);
  if (c < kLocalClasses) {
    LocalCache& l = local_cache;
    if (l.alive && l.count[c] > 0) return l.blocks[c][--l.count[c]];
  }
  size_t bytes = class_bytes(c);
  Cache& k = cache();
  {
    std::lock_guard<std::mutex> lock(k.mutex);
    auto& list = k.free_lists[c];
    if (!list.empty()) {
      void* p = list.back();
      list.pop_back();
      k.bytes -= bytes;
      return p;
    }
  }
  void* p = std::aligned_alloc(kAlignment, bytes);
  if (!p) {
    release_cached_memory();
    p = std::aligned_alloc(kAlignment, bytes);
    if (!p) keras::detail::throw_out_of_memory(nbytes);
  }
  return p;
}

void cached_free(void* p, size_t nbytes) {
  if (!p) return;
  int c = size_class(nbytes);
  if (c < kLocalClasses) {
    LocalCache& l = local_cache;
    if (l.alive && l.count[c] < kLocalDepth) {
      l.blocks[c][l.count[c]++] = p;
      return;
    }
  }
  shared_free(p, c);
}

void release_cached_memory() {
  Cache& k = cache();
  std::lock_guard<std::mutex> lock(k.mutex);
  for (auto& list : k.free_lists) {
    for (void* p : list) std::free(p);
    list.clear();
  }
  k.bytes = 0;
}

size_t cached_bytes() {
  Cache& k = cache();
  std::lock_guard<std::mutex> lock(k.mutex);
  return k.bytes;
}

}  // namespace keras::cpu
