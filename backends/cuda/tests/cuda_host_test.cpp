// The cuda backend's host-side logic, on any machine: the caching allocator's bookkeeping (with
// a fake device allocator), launch configurations and the strided offsets the kernels compute.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "caching_allocator.h"
#include "cuda_device.h"
#include "device_layout.h"
#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/cuda/memory.h"
#include "launch.h"

namespace keras::cuda {
namespace {

// A fake device of `capacity` bytes: blocks from malloc, counted.
struct FakeDevice {
  size_t capacity = 0, used = 0;
  int64_t allocs = 0, frees = 0;
  std::map<void*, size_t> live;
  CachingAllocator make() {
    return CachingAllocator(
        [this](size_t n) -> void* {
          if (used + n > capacity) return nullptr;
          void* p = std::malloc(n);
          live[p] = n;
          used += n;
          ++allocs;
          return p;
        },
        [this](void* p) {
          used -= live.at(p);
          live.erase(p);
          ++frees;
          std::free(p);
        });
  }
};

TEST(CudaCachingAllocator, RoundsRequestsToTheirSizeClass) {
  EXPECT_EQ(CachingAllocator::rounded_size(1), 512u);
  EXPECT_EQ(CachingAllocator::rounded_size(512), 512u);
  EXPECT_EQ(CachingAllocator::rounded_size(513), 1024u);
  EXPECT_EQ(CachingAllocator::rounded_size(1 << 20), size_t{1} << 20);
  EXPECT_EQ(CachingAllocator::rounded_size((1 << 20) + 1), size_t{2} << 20);
  EXPECT_EQ(CachingAllocator::rounded_size((5 << 20) + 7), size_t{6} << 20);
}

TEST(CudaCachingAllocator, ReusesFreedBlocksWithoutTheDevice) {
  FakeDevice dev{.capacity = 64 << 20};
  {
    CachingAllocator a = dev.make();
    void* p = a.allocate(2000);
    a.deallocate(p);
    void* q = a.allocate(1900);  // same class (2048): the cached block again
    EXPECT_EQ(p, q);
    EXPECT_EQ(dev.allocs, 1);
    EXPECT_EQ(a.stats().cache_hits, 1);
    // A request less than half the cached block's size takes a new block.
    a.deallocate(q);
    void* small = a.allocate(100);
    EXPECT_NE(small, q);
    EXPECT_EQ(dev.allocs, 2);
    const auto s = a.stats();
    EXPECT_EQ(s.in_use_bytes, 512u);
    EXPECT_EQ(s.cached_bytes, 2048u);
    EXPECT_EQ(s.peak_in_use_bytes, 2048u);
    a.deallocate(small);
    EXPECT_EQ(a.allocate(0), nullptr);
    a.deallocate(nullptr);
  }
  // The destructor gives the cache back.
  EXPECT_EQ(dev.used, 0u);
  EXPECT_EQ(dev.frees, dev.allocs);
}

TEST(CudaCachingAllocator, PeakStartsOverFromWhatIsInUse) {
  FakeDevice dev{.capacity = 64 << 20};
  CachingAllocator a = dev.make();
  void* big = a.allocate(3 << 20);  // 4 MiB class
  void* small = a.allocate(1000);   // 1 KiB class
  a.deallocate(big);
  EXPECT_EQ(a.stats().peak_in_use_bytes, (size_t{4} << 20) + 1024);
  a.reset_peak();
  EXPECT_EQ(a.stats().peak_in_use_bytes, 1024u);
  void* again = a.allocate(3 << 20);  // from the cache: counts towards the new peak
  EXPECT_EQ(a.stats().peak_in_use_bytes, (size_t{4} << 20) + 1024);
  a.deallocate(again);
  a.deallocate(small);
}

TEST(CudaMemory, NamesWhatIsNotACudaBackend) {
  for (const char* name : {"cpu", "no_such_backend"}) {
    try {
      memory_stats(name);
      FAIL() << "expected ValueError for " << name;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + name + "' is not a cuda backend"),
                std::string::npos)
          << e.what();
    }
  }
  if (!device_present()) EXPECT_THROW(memory_stats(), ValueError);
}

TEST(CudaCachingAllocator, EmptiesTheCacheBeforeReportingOutOfMemory) {
  FakeDevice dev{.capacity = 5 << 20};
  CachingAllocator a = dev.make();
  void* p = a.allocate(2 << 20);
  a.deallocate(p);                // cached: 2 MiB of the 5
  void* q = a.allocate(3 << 20);  // 4 MiB: fits only once the cache is released
  EXPECT_NE(q, nullptr);
  EXPECT_EQ(a.stats().cached_bytes, 0u);
  EXPECT_EQ(dev.used, size_t{4} << 20);
  try {
    a.allocate(2 << 20);
    FAIL() << "expected RuntimeError";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("out of device memory"), std::string::npos) << e.what();
  }
  a.deallocate(q);
  EXPECT_THROW(a.deallocate(reinterpret_cast<void*>(0x10)), RuntimeError);
}

TEST(CudaLaunch, BlocksCoverEveryElementUpToTheCap) {
  EXPECT_EQ(blocks_for(0), 0);
  EXPECT_EQ(blocks_for(1), 1);
  EXPECT_EQ(blocks_for(kThreads), 1);
  EXPECT_EQ(blocks_for(kThreads + 1), 2);
  EXPECT_EQ(blocks_for(int64_t{1} << 40), kMaxBlocks);  // the rest by grid-stride loops
}

// element_offset against the offsets a plain nested loop visits, for a transposed view with a
// broadcast axis and a flipped one.
TEST(CudaLayout, OffsetsFollowTheStridesInRowMajorOrder) {
  Dims dims;
  dims.rank = 3;
  dims.size[0] = 2;
  dims.size[1] = 3;
  dims.size[2] = 4;
  dims.numel = 24;
  Operand op;
  op.stride[0] = 0;    // broadcast
  op.stride[1] = 1;    // transposed
  op.stride[2] = -3;   // flipped
  int64_t i = 0;
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t c = 0; c < 4; ++c, ++i)
        EXPECT_EQ(element_offset(dims, op, i), a * 0 + b * 1 + c * -3) << i;
  EXPECT_EQ(element_bytes(DType::BFloat16), 2);
  EXPECT_EQ(element_bytes(DType::Bool), 1);
  EXPECT_EQ(element_bytes(DType::Int64), 8);
}

TEST(CudaHost, BackendNamesFollowTheDevices) {
  EXPECT_EQ(backend_name_of_device(0), "cuda");
  EXPECT_EQ(backend_name_of_device(3), "cuda:3");
  const std::vector<std::string> names = backend::available();
  const bool listed = std::find(names.begin(), names.end(), "cuda") != names.end();
  EXPECT_EQ(listed, device_present());  // registered exactly where a device is
  if (!device_present()) {
    EXPECT_THROW(backend::get("cuda:0"), ValueError);
    const std::vector<std::string> devices = backend::list_devices();
    EXPECT_EQ(std::find(devices.begin(), devices.end(), "cuda:0"), devices.end());
  }
}

}  // namespace
}  // namespace keras::cuda
